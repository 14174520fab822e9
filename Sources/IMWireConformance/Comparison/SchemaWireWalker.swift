import IMWire

/// Removes the unknown fields from canonical protobuf bytes, at every level, by walking the wire
/// format with the schema's field table (not with the codec under test).
///
/// A case whose binary carries unknown fields cannot round-trip through JSON, which has no place for
/// them: decoding its canonical JSON gives the canonical binary minus the unknown fields, which is
/// what this computes. A field is kept when the schema knows its number and its wire type fits the
/// field's type (a known number with another wire type is an unknown field, SPEC §2.1); a kept
/// sub-message is stripped in turn and re-framed. Since canonical bytes have every message's known
/// fields in field-number order before its unknown ones, the result is canonical too.
package enum UnknownFieldStripper {
    /// `bytes` without unknown fields, or `nil` if they are not well-formed protobuf.
    package static func strip(_ bytes: [UInt8], schema: MessageSchema) -> [UInt8]? {
        var reader = WireReader(bytes: bytes, position: 0, end: bytes.count)
        var out: [UInt8] = []
        guard strip(&reader, schema: schema, into: &out, depth: 0) else { return nil }
        return out
    }

    private static func strip(_ reader: inout WireReader, schema: MessageSchema, into out: inout [UInt8], depth: Int) -> Bool {
        guard depth < 1000 else { return false }
        while reader.position < reader.end {
            let start = reader.position
            guard let tag = reader.varint(), tag >> 3 != 0 else { return false }
            let number = Int(truncatingIfNeeded: tag >> 3)
            let wireType = UInt8(tag & 7)
            let field = schema.field(number: number)
            if let field, wireType == 2, case .message(let child) = field.kind {
                guard let length = reader.varint(), length <= UInt64(reader.end - reader.position) else { return false }
                var inner = WireReader(bytes: reader.bytes, position: reader.position, end: reader.position + Int(length))
                var body: [UInt8] = []
                guard strip(&inner, schema: child(), into: &body, depth: depth + 1) else { return false }
                reader.position = inner.end
                appendVarint(tag, to: &out)
                appendVarint(UInt64(body.count), to: &out)
                out.append(contentsOf: body)
                continue
            }
            guard reader.skip(wireType: wireType, number: number, depth: depth) else { return false }
            if let field, wireType == expectedWireType(field.kind) {
                out.append(contentsOf: reader.bytes[start..<reader.position])
            }
        }
        return true
    }

    private static func expectedWireType(_ kind: FieldSchema.Kind) -> UInt8 {
        switch kind {
        case .string, .bytes, .message, .stringToBytesMap: 2
        case .uint64, .uint32, .int32, .bool, .enumeration: 0
        case .double: 1
        }
    }

    private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    private struct WireReader {
        let bytes: [UInt8]
        var position: Int
        let end: Int

        mutating func varint() -> UInt64? {
            Varint.read(bytes, at: &position, end: end)
        }

        /// Skips the value of a field whose tag was just read; a group up to its end tag.
        mutating func skip(wireType: UInt8, number: Int, depth: Int) -> Bool {
            switch wireType {
            case 0:
                return varint() != nil
            case 1, 5:
                let size = wireType == 1 ? 8 : 4
                guard end - position >= size else { return false }
                position += size
                return true
            case 2:
                guard let length = varint(), length <= UInt64(end - position) else { return false }
                position += Int(length)
                return true
            case 3:
                guard depth < 1000 else { return false }
                while position < end {
                    guard let tag = varint() else { return false }
                    let innerNumber = Int(truncatingIfNeeded: tag >> 3)
                    let innerType = UInt8(tag & 7)
                    if innerType == 4 { return innerNumber == number }
                    guard skip(wireType: innerType, number: innerNumber, depth: depth + 1) else { return false }
                }
                return false
            default:
                return false
            }
        }
    }
}
