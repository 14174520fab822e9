import IMWireCore

/// Implementation detail of ``BinaryMessage``: the binary codec of one message type, specialised
/// for it. It has no public members and no public initialiser.
public struct _BinaryCodec<M: BinaryMessage>: Sendable {
    /// Decodes into the value given (a new, empty one), so that a large message is built where it
    /// stays rather than moved out of the decoder.
    @usableFromInline let decodeInto: @Sendable (inout M, UnsafeBufferPointer<UInt8>, BinaryDecodingOptions) throws(IMWireError) -> Void
    /// Encodes and hands the bytes (valid during the call) to the closure.
    /// (The message `borrowing`: encoded where it is, not copied first, which would retain every
    /// reference it holds.)
    @usableFromInline package let encode: @Sendable (borrowing M, BinaryEncodingOptions, (UnsafeBufferPointer<UInt8>) -> Void) throws(IMWireError) -> Void
}

extension _BinaryCodec where M: BinaryFieldCoding {
    @usableFromInline package init() {
        decodeInto = { (message, bytes, options) throws(IMWireError) in
            try BinaryReader.decode(into: &message, from: bytes, options: options)
        }
        encode = { (message, options, body) throws(IMWireError) in
            try BinaryEncoder.withEncoding(message, options: options, body)
        }
    }
}

extension _BinaryCodec {
    /// A new value decoded from `bytes` (``decodeInto``).
    @inlinable
    package func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ options: BinaryDecodingOptions) throws(IMWireError) -> M {
        var message = M()
        try decodeInto(&message, bytes, options)
        return message
    }
}
