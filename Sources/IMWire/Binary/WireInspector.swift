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

    /// Dumps `bytes` as far as they can be read: everything, or — for a message that does not
    /// decode — the fields that lie wholly before the decode error's offset (a sub-message the
    /// error is inside shows its header and the fields before the error), with the error. For
    /// `imwire inspect`, which prints the dump and then the error.
    package static func dumpReadable(
        _ bytes: [UInt8], options: BinaryDecodingOptions = .init()
    ) -> (dump: String, error: IMWireError?) {
        do {
            return (try dump(bytes, options: options), nil)
        } catch {
            var walker = Walker(bytes: bytes, stop: min(max(error.offset ?? 0, 0), bytes.count))
            walker.lines.append("imwire.v1.Message (\(bytes.count) bytes)")
            walker.walk(from: 0, to: bytes.count, schema: Message.schema, indent: 1)
            return (walker.lines.joined(separator: "\n") + "\n", error)
        }
    }

    private struct Walker {
        let bytes: [UInt8]
        /// Nothing at or after this offset is shown: the decoder validated only the bytes before it
        /// (`bytes.count` for a message that decodes).
        var stop: Int
        var stopped = false
        var lines: [String] = []

        init(bytes: [UInt8], stop: Int? = nil) {
            self.bytes = bytes
            self.stop = stop ?? bytes.count
        }

        /// A varint that ends before ``stop``; nil (and the walk stops) otherwise. Before `stop` the
        /// decoder has checked every varint, so in a message that decodes this never fails.
        mutating func varint(at position: inout Int) -> UInt64? {
            var next = position
            guard let value = Varint.read(bytes, at: &next, end: stop) else {
                stopped = true
                return nil
            }
            position = next
            return value
        }

        /// Whether `count` more bytes from `position` end before ``stop``; stops the walk if not.
        mutating func fits(_ count: Int, at position: Int) -> Bool {
            if count <= stop - position { return true }
            stopped = true
            return false
        }

        mutating func walk(from start: Int, to end: Int, schema: MessageSchema?, indent: Int) {
            var position = start
            while position < end, !stopped {
                let offset = position
                guard let tag = varint(at: &position) else { return }
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
                    guard let value = varint(at: &position) else { return }
                    lines.append("\(prefix) varint = \(describe(varint: value, kind: field?.kind))")
                case WireType.fixed64:
                    guard fits(8, at: position) else { return }
                    var raw: UInt64 = 0
                    for index in 0..<8 { raw |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
                    position += 8
                    let text: String
                    if case .double? = field?.kind { text = "\(Double(bitPattern: raw))" } else { text = "0x\(String(raw, radix: 16))" }
                    lines.append("\(prefix) fixed64 = \(text)")
                case WireType.fixed32:
                    guard fits(4, at: position) else { return }
                    var raw: UInt32 = 0
                    for index in 0..<4 { raw |= UInt32(bytes[position + index]) << (8 * UInt32(index)) }
                    position += 4
                    lines.append("\(prefix) fixed32 = 0x\(String(raw, radix: 16))")
                case WireType.lengthDelimited:
                    guard let claimed = varint(at: &position) else { return }
                    guard claimed <= UInt64(bytes.count - position) else {
                        stopped = true
                        return
                    }
                    let length = Int(claimed)
                    let body = position..<(position + length)
                    position += length
                    switch field?.kind {
                    case .message(let nested)?:
                        let nestedSchema = nested()
                        // A sub-message the error is inside: its header, then what precedes the error.
                        lines.append("\(prefix) message \(nestedSchema.fullName) (\(length) bytes)")
                        walk(from: body.lowerBound, to: body.upperBound, schema: nestedSchema, indent: indent + 1)
                        if body.upperBound > stop { stopped = true }
                    case .stringToBytesMap?:
                        guard fits(0, at: body.upperBound) else { return }
                        lines.append("\(prefix) map entry (\(length) bytes)")
                        walk(from: body.lowerBound, to: body.upperBound, schema: Self.mapEntrySchema, indent: indent + 1)
                    case .string?:
                        guard fits(0, at: body.upperBound) else { return }
                        lines.append("\(prefix) string (\(length) bytes) = \(quote(String(decoding: bytes[body], as: UTF8.self)))")
                    default:
                        guard fits(0, at: body.upperBound) else { return }
                        lines.append("\(prefix) bytes (\(length)) = \(hex(bytes[body]))")
                    }
                case WireType.startGroup:
                    guard let (endTag, after) = groupEnd(from: position) else { return }
                    lines.append("\(prefix) group {")
                    walk(from: position, to: endTag, schema: nil, indent: indent + 1)
                    position = after
                    lines.append("\(pad(endTag))  \(String(repeating: "  ", count: indent))} end group \(number)")
                default:
                    return
                }
            }
        }

        /// The offset of an unknown group's end-group tag and the position after it, found before
        /// its contents are dumped so the nested walk has bounds; nil (and the walk stops) when the
        /// group does not end before ``stop``.
        mutating func groupEnd(from start: Int) -> (endTag: Int, after: Int)? {
            var position = start
            var depth = 1
            var end = start
            while depth > 0 {
                end = position
                guard let tag = varint(at: &position) else { return nil }
                switch UInt8(tag & 7) {
                case WireType.varint:
                    guard varint(at: &position) != nil else { return nil }
                case WireType.fixed64, WireType.fixed32:
                    let size = UInt8(tag & 7) == WireType.fixed64 ? 8 : 4
                    guard fits(size, at: position) else { return nil }
                    position += size
                case WireType.lengthDelimited:
                    guard let length = varint(at: &position), fits(Int(clamping: length), at: position) else { return nil }
                    position += Int(length)
                case WireType.startGroup: depth += 1
                case WireType.endGroup: depth -= 1
                default:
                    stopped = true
                    return nil
                }
            }
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
