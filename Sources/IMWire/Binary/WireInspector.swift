/// An annotated dump of a binary message for people: one line per field with its byte offset,
/// field number, wire type, schema name and value; sub-messages indented; fields the schema does
/// not know marked `[unknown]`. Used by `imwire inspect`.
public enum WireInspector {
    /// Dumps `bytes` as an `imwire.v1.Message`.
    ///
    /// The bytes are first decoded with the real decoder, so malformed input throws the same
    /// ``IMWireError`` (code and offset) that decoding would; the dump itself never fails.
    public static func dump(_ bytes: [UInt8], options: BinaryDecodingOptions = .init()) throws(IMWireError) -> String {
        _ = try Message(serializedBytes: bytes, options: options)
        var walker = Walker(bytes: bytes)
        walker.lines.append("imwire.v1.Message (\(bytes.count) bytes)")
        walker.walk(from: 0, to: bytes.count, schema: Message.schema, indent: 1)
        return walker.lines.joined(separator: "\n") + "\n"
    }

    private struct Walker {
        let bytes: [UInt8]
        var lines: [String] = []

        // The bytes were validated by the decoder, so every varint here is well formed.
        func varint(at position: inout Int) -> UInt64 {
            Varint.read(bytes, at: &position, end: bytes.count) ?? 0
        }

        mutating func walk(from start: Int, to end: Int, schema: MessageSchema?, indent: Int) {
            var position = start
            while position < end {
                let offset = position
                let tag = varint(at: &position)
                let number = Int(tag >> 3)
                let wireType = UInt8(tag & 7)
                if wireType == WireType.endGroup { return }
                var field = schema?.field(number: number)
                var name = field.map { $0.name } ?? "[unknown]"
                if let known = field, Self.wireType(of: known) != wireType {
                    // Kept as an unknown field by the decoder, as conforming parsers do.
                    name = "[unknown: \(known.name) with wire type \(WireType.name(wireType))]"
                    field = nil
                }
                let prefix = "\(pad(offset))  \(String(repeating: "  ", count: indent))\(number) \(name)"
                switch wireType {
                case WireType.varint:
                    let value = varint(at: &position)
                    lines.append("\(prefix) varint = \(describe(varint: value, kind: field?.kind))")
                case WireType.fixed64:
                    var raw: UInt64 = 0
                    for index in 0..<8 { raw |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
                    position += 8
                    let text: String
                    if case .double? = field?.kind { text = "\(Double(bitPattern: raw))" } else { text = "0x\(String(raw, radix: 16))" }
                    lines.append("\(prefix) fixed64 = \(text)")
                case WireType.fixed32:
                    var raw: UInt32 = 0
                    for index in 0..<4 { raw |= UInt32(bytes[position + index]) << (8 * UInt32(index)) }
                    position += 4
                    lines.append("\(prefix) fixed32 = 0x\(String(raw, radix: 16))")
                case WireType.lengthDelimited:
                    let length = Int(varint(at: &position))
                    let body = position..<(position + length)
                    position += length
                    switch field?.kind {
                    case .message(let nested)?:
                        let nestedSchema = nested()
                        lines.append("\(prefix) message \(nestedSchema.fullName) (\(length) bytes)")
                        walk(from: body.lowerBound, to: body.upperBound, schema: nestedSchema, indent: indent + 1)
                    case .stringToBytesMap?:
                        lines.append("\(prefix) map entry (\(length) bytes)")
                        walk(from: body.lowerBound, to: body.upperBound, schema: Self.mapEntrySchema, indent: indent + 1)
                    case .string?:
                        lines.append("\(prefix) string (\(length) bytes) = \(quote(String(decoding: bytes[body], as: UTF8.self)))")
                    default:
                        lines.append("\(prefix) bytes (\(length)) = \(hex(bytes[body]))")
                    }
                case WireType.startGroup:
                    lines.append("\(prefix) group {")
                    let (endTag, after) = skipGroup(from: position, indent: indent + 1)
                    position = after
                    lines.append("\(pad(endTag))  \(String(repeating: "  ", count: indent))} end group \(number)")
                default:
                    return
                }
            }
        }

        /// Dumps an unknown group's contents; returns the offset of its end-group tag and the
        /// position after it.
        mutating func skipGroup(from start: Int, indent: Int) -> (endTag: Int, after: Int) {
            var position = start
            var depth = 1
            var end = start
            // Find the matching end tag first so the nested walk has bounds.
            while depth > 0 {
                end = position
                let tag = varint(at: &position)
                switch UInt8(tag & 7) {
                case WireType.varint: _ = varint(at: &position)
                case WireType.fixed64: position += 8
                case WireType.fixed32: position += 4
                case WireType.lengthDelimited: position += Int(varint(at: &position))
                case WireType.startGroup: depth += 1
                default: depth -= 1
                }
            }
            walk(from: start, to: end, schema: nil, indent: indent)
            return (end, position)
        }

        static func wireType(of field: FieldSchema) -> UInt8 {
            if field.isRepeated { return WireType.lengthDelimited }
            switch field.kind {
            case .string, .bytes, .message, .stringToBytesMap: return WireType.lengthDelimited
            case .double: return WireType.fixed64
            case .uint64, .uint32, .int32, .bool, .enumeration: return WireType.varint
            }
        }

        func describe(varint value: UInt64, kind: FieldSchema.Kind?) -> String {
            switch kind {
            case .bool?: return value != 0 ? "true" : "false"
            case .int32?: return "\(Int32(truncatingIfNeeded: value))"
            case .uint32?: return "\(UInt32(truncatingIfNeeded: value))"
            case .enumeration(let schema)?:
                let number = Int32(truncatingIfNeeded: value)
                return schema.name(of: number).map { "\($0) (\(number))" } ?? "\(number) [unrecognized \(schema.fullName)]"
            default: return "\(value)"
            }
        }

        func pad(_ offset: Int) -> String {
            let digits = String(offset)
            return String(repeating: " ", count: max(0, 6 - digits.count)) + digits
        }

        func hex(_ slice: ArraySlice<UInt8>) -> String {
            let shown = slice.prefix(32).map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
            return slice.count > 32 ? shown + "…" : shown
        }

        func quote(_ string: String) -> String {
            var out = "\""
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F {
                        out += "\\u{\(String(scalar.value, radix: 16))}"
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            if out.count > 120 { out = String(out.prefix(117)) + "…" }
            return out + "\""
        }

        static let mapEntrySchema = MessageSchema(
            fullName: "map entry",
            fields: [
                FieldSchema(1, "key", "key", .string),
                FieldSchema(2, "value", "value", .bytes),
            ])
    }
}
