import IMWire

/// The protocol's framing (Google's protobuf conformance framing): each message is
/// preceded by its length as a 4-byte little-endian unsigned integer.
public enum Framing {
    /// The largest frame either side accepts: 64 MiB (8 times the codec's default input limit, so a
    /// response to any accepted input fits).
    public static let maxFrameSize = 64 * 1024 * 1024

    /// `body` behind its length prefix.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        let length = UInt32(body.count)
        return [UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8),
                UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 24)] + body
    }

    /// The length in a 4-byte prefix.
    public static func length(_ prefix: some Collection<UInt8>) -> Int {
        var length = 0
        for (index, byte) in prefix.prefix(4).enumerated() { length |= Int(byte) << (8 * index) }
        return length
    }

    /// The protobuf encoding of a framing message, by IMWire's own binary codec.
    package static func encode<M: BinaryFieldCoding>(_ message: M) -> [UInt8] {
        // Framing messages have no nesting, so encoding cannot hit the depth limit.
        (try? BinaryEncoder.encode(message, options: BinaryEncodingOptions())) ?? []
    }

    /// Decodes a framing message with IMWire's own binary codec.
    package static func decode<M: BinaryFieldCoding>(_ type: M.Type, from bytes: [UInt8]) throws(IMWireError) -> M {
        try bytes.withUnsafeBufferPointer { (buffer) throws(IMWireError) in
            try BinaryReader.decode(M.self, from: buffer, options: BinaryDecodingOptions(maxInputSize: maxFrameSize))
        }
    }
}
