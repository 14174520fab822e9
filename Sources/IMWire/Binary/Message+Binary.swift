extension Message {
    /// Decodes a message from the protobuf binary wire format (`Schemas/imwire/v1/message.proto`).
    ///
    /// Accepts everything a conforming proto3 parser accepts (any field order, over-long varints,
    /// last-one-wins scalars, merged sub-messages, unknown fields of every wire type, which are kept)
    /// and throws an ``IMWireError`` with the byte offset for anything malformed. Memory and time are
    /// linear in the input; nesting and input size are bounded by `options`.
    public init(serializedBytes bytes: [UInt8], options: BinaryDecodingOptions = .init()) throws(IMWireError) {
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(IMWireError) in
            try BinaryDecoder.decode(Message.self, from: buffer, options: options)
        }
    }

    /// Decodes a message from borrowed bytes; see ``init(serializedBytes:options:)-([UInt8],_)``.
    public init(serializedBytes bytes: UnsafeRawBufferPointer, options: BinaryDecodingOptions = .init()) throws(IMWireError) {
        self = try BinaryDecoder.decode(Message.self, from: bytes.assumingMemoryBound(to: UInt8.self), options: options)
    }

    /// The canonical protobuf encoding: fields in field-number order, proto3 defaults omitted, map
    /// entries sorted by key, unknown fields after known ones. Deterministic: equal messages give
    /// equal bytes. Throws `depth_limit_exceeded` for a model nested deeper than `options.maxDepth`.
    public func serializedBytes(options: BinaryEncodingOptions = .init()) throws(IMWireError) -> [UInt8] {
        try BinaryEncoder.encode(self, options: options)
    }
}
