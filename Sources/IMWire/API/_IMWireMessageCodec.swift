/// Implementation detail of ``IMWireMessage``: the codecs of one message type, specialised for it.
/// It has no public members and no public initialiser.
public struct _IMWireMessageCodec<M: IMWireMessage>: Sendable {
    /// Decodes into the value given (a new, empty one), so that a large message is built where it
    /// stays rather than moved out of the decoder.
    @usableFromInline let decodeBinaryInto: @Sendable (inout M, UnsafeBufferPointer<UInt8>, BinaryDecodingOptions) throws(IMWireError) -> Void
    /// Encodes and hands the bytes (valid during the call) to the closure.
    /// (The message `borrowing`: encoded where it is, not copied first, which would retain every
    /// reference it holds.)
    @usableFromInline let encodeBinary: @Sendable (borrowing M, BinaryEncodingOptions, (UnsafeBufferPointer<UInt8>) -> Void) throws(IMWireError) -> Void
    @usableFromInline let decodeJSON: @Sendable (UnsafeBufferPointer<UInt8>, JSONDecodingOptions) throws(IMWireError) -> M
    @usableFromInline let decodeJSONReporting: @Sendable (UnsafeBufferPointer<UInt8>, JSONDecodingOptions, inout DecodingReport) throws(IMWireError) -> M
    @usableFromInline let encodeJSON: @Sendable (M, JSONEncodingOptions) throws(IMWireError) -> [UInt8]
    @usableFromInline let describe: @Sendable (M) -> String
    /// Makes the type's message view of the bytes and calls the closure with its root node (the
    /// bytes and the view valid during the call). Not generic over the closure's result, so that
    /// ``IMWireMessage/withView(serializedBytes:options:_:)``, inlined into its caller, reaches it
    /// without instantiating generic metadata on every call.
    @usableFromInline let view: @Sendable (UnsafeBufferPointer<UInt8>, BinaryDecodingOptions, (_ViewNode) throws -> Void) throws -> Void
    /// ``view`` for proto3 JSON bytes.
    @usableFromInline let jsonView: @Sendable (UnsafeBufferPointer<UInt8>, JSONDecodingOptions, (_ViewNode) throws -> Void) throws -> Void
}

extension _IMWireMessageCodec where M: BinaryFieldCoding & JSONFieldReading & ArenaLaidOut {
    package init() {
        decodeBinaryInto = { (message, bytes, options) throws(IMWireError) in
            try BinaryReader.decode(into: &message, from: bytes, options: options)
        }
        encodeBinary = { (message, options, body) throws(IMWireError) in
            try BinaryEncoder.withEncoding(message, options: options, body)
        }
        decodeJSON = { (bytes, options) throws(IMWireError) in try JSONReader.decode(M.self, from: bytes, options: options) }
        decodeJSONReporting = { (bytes, options, report) throws(IMWireError) in
            try JSONReader.decode(M.self, from: bytes, options: options, report: &report)
        }
        encodeJSON = { (message, options) throws(IMWireError) in try JSONWriter.encode(message, options: options) }
        describe = { message in DebugDescription.of(message) }
        view = { bytes, options, body in
            try ArenaDecoder.withView(table: M._arenaTable, layout: M._typeIndex, from: bytes, options: options, body)
        }
        jsonView = { bytes, options, body in
            try JSONViewDecoder.withView(
                table: M._arenaTable, layout: M._typeIndex, names: JSONNameTable.of(M.self).types,
                from: bytes, options: options, body)
        }
    }
}

extension _IMWireMessageCodec {
    /// A new value decoded from `bytes` (``decodeBinaryInto``).
    @inlinable
    func decodeBinary(_ bytes: UnsafeBufferPointer<UInt8>, _ options: BinaryDecodingOptions) throws(IMWireError) -> M {
        var message = M()
        try decodeBinaryInto(&message, bytes, options)
        return message
    }
}
