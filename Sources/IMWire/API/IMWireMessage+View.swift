extension IMWireMessage {
    /// Reads binary `bytes` as a message view — every field read in place, nothing copied — and
    /// calls `body` with it; returns what `body` returns.
    ///
    /// Making the view checks everything ``init(serializedBytes:options:)-(Bytes,_)`` checks (tags,
    /// lengths, wire types, the UTF-8 of every string, nesting, the input limit) and throws the
    /// same ``IMWireError`` for the same input; then every read is a load. It allocates nothing
    /// once the thread's buffer for the decode has grown to the input's needs (a chat message's
    /// first view on a thread allocates it).
    ///
    /// The view and everything read from it (a ``StringView``, a ``ViewList``, a nested view) point
    /// into `bytes` and into that buffer: they are valid only inside `body`. Copy out what you keep:
    /// `String(view.msgID)`, `Message(view)`.
    ///
    /// ```swift
    /// let banned = try Message.withView(serializedBytes: body) { message in
    ///     message.elems.contains { elem in
    ///         if case .text(let text)? = elem.content { return text.text.starts(with: "spam".utf8) }
    ///         return false
    ///     }
    /// }
    /// ```
    @inlinable
    public static func withView<Bytes: Collection, Result>(
        serializedBytes bytes: Bytes,
        options: BinaryDecodingOptions = .init(),
        _ body: (View) throws -> Result
    ) throws -> Result where Bytes.Element == UInt8 {
        // Inlinable, so that the caller's specialisation knows `Self` and `Result`: unspecialised,
        // each call looked up the metadata of the codec's and the optional result's generic types
        // (about 540 instructions, a seventh of viewing and reading a chat message).
        try withContiguousBytesRethrowing(bytes) { buffer in
            var result: Result? = nil
            try _imwireCodec.view(buffer, options) { result = try body(View(_viewNode: $0)) }
            return result!
        }
    }

    /// Reads proto3 JSON `bytes` as a message view and calls `body` with it; returns what `body`
    /// returns. The view is the one ``withView(serializedBytes:options:_:)`` makes from binary, with
    /// the same types and reads.
    ///
    /// Making the view checks everything ``init(jsonUTF8Bytes:options:)-(Bytes,_)`` checks and
    /// throws the same ``IMWireError`` for the same input. A string without escapes is read where it
    /// is in `bytes`. JSON's other values are not their text — a string with escapes, a base64
    /// bytes value — so from the first of them on, values are copied into a buffer the thread
    /// keeps, each at its own text's offset: no allocation per value.
    /// Skipped keys are not reported (use the decoding initialiser with a ``DecodingReport``).
    ///
    /// The view is valid only inside `body`, as the binary one is.
    ///
    /// ```swift
    /// let sender = try Message.withView(jsonUTF8Bytes: json) { String($0.sender) }
    /// ```
    @inlinable
    public static func withView<Bytes: Collection, Result>(
        jsonUTF8Bytes bytes: Bytes,
        options: JSONDecodingOptions = .init(),
        _ body: (View) throws -> Result
    ) throws -> Result where Bytes.Element == UInt8 {
        try withContiguousBytesRethrowing(bytes) { buffer in
            // The binary view's body again, not shared through a parameter for the codec's closure:
            // that let the optimiser specialise the binary view's decoder for the caller's closure,
            // which then copied a captured ValidationProfile seven times per message (validate
            // through the view, chat: 5,325 -> 7,963 instructions per message).
            var result: Result? = nil
            try _imwireCodec.jsonView(buffer, options) { result = try body(View(_viewNode: $0)) }
            return result!
        }
    }
}
