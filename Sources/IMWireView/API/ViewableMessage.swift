import IMWireCore
import IMWireBinary

/// A message type with a read-only view over borrowed binary bytes: every type of the IMWire schema
/// when its program imports `IMWireView` (or `IMWire`).
///
/// Only IMWire's generated types conform: the codec behind the protocol is an implementation
/// detail (`_viewCodec` cannot be built outside the library).
public protocol ViewableMessage: BinaryMessage {
    /// The type's read-only view over borrowed bytes (``withView(serializedBytes:options:_:)``).
    associatedtype View: IMWireMessageView where View.Owned == Self
    /// An owned copy of a view's fields.
    init(_ view: View)
    /// Implementation detail: this type's view decoder. Not for use outside IMWire.
    static var _viewCodec: _ViewCodec<Self> { get }
}

extension ViewableMessage {
    /// Reads binary `bytes` as a message view — every field read in place, nothing copied — and
    /// calls `body` with it; returns what `body` returns.
    ///
    /// Making the view checks everything ``BinaryMessage/init(serializedBytes:options:)-(Bytes,_)`` checks (tags,
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
            try _viewCodec.view(buffer, options) { result = try body(View(_viewNode: $0)) }
            return result!
        }
    }
}
