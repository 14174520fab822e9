import IMWire

/// The annotated dump behind `imwire inspect`: one line per field with its byte offset, field
/// number, wire type, schema name and value; sub-messages indented; fields the schema does not know
/// marked `[unknown]`.
///
/// The bytes are checked through the message view (`Message.withView`), which refuses exactly what a
/// decode refuses, with the decode's error, and builds no `Message`; the dump then reads them with
/// the library's checked wire reader (`BinaryDecoder`'s field-walking API), which gives each field's
/// offset and wire type. What is here is only presentation.
enum WireInspector {
    /// `bytes` dumped as an `imwire.v1.Message` as far as they can be read: everything, or — for a
    /// message that does not decode — the fields that lie wholly before the decode error's offset (a
    /// sub-message the error is inside shows its header and the fields before the error), with the
    /// error, which is the one decoding throws (code and offset).
    static func dump(_ bytes: [UInt8], options: BinaryDecodingOptions) -> (dump: String, error: IMWireError?) {
        var error: IMWireError?
        do {
            try Message.withView(serializedBytes: bytes, options: options) { _ in }
        } catch let decodeError as IMWireError {
            error = decodeError
        } catch {
            preconditionFailure("the view's body throws nothing: \(error)")
        }
        // Nothing at or after the error's offset is shown: the decode checked only the bytes before it.
        let stop = error.map { min(max($0.offset ?? 0, 0), bytes.count) } ?? bytes.count
        var lines = ["imwire.v1.Message (\(counted(bytes.count, "byte")))"]
        bytes.withUnsafeBufferPointer { buffer in
            var walker = Walker(reader: BinaryDecoder(buffer, maxDepth: options.maxDepth), bytes: buffer, stop: stop)
            // The walk ends early, by throwing, at the first field that does not end before `stop`.
            _ = try? walker.walk(schema: Message.schema, indent: 1, group: nil)
            lines += walker.lines
        }
        return (lines.joined(separator: "\n") + "\n", error)
    }

    private struct Walker {
        var reader: BinaryDecoder
        let bytes: UnsafeBufferPointer<UInt8>
        /// Nothing at or after this offset is shown (`bytes.count` for a message that decodes).
        let stop: Int
        var lines: [String] = []

        /// The walk reached a field that does not end before ``stop``.
        struct Stopped: Error {}

        /// Throws ``Stopped`` unless what the reader has read so far ends before ``stop``.
        func fits(_ end: Int? = nil) throws(Stopped) {
            guard (end ?? reader.offset) <= stop else { throw Stopped() }
        }

        /// Dumps the fields of the current message, or of `group`, until its end; returns where they
        /// end (for a group, the offset of its end-group tag).
        mutating func walk(schema: MessageSchema?, indent: Int, group: BinaryDecoder.OpenGroup?) throws -> Int {
            let margin = String(repeating: "  ", count: indent)
            while true {
                let offset = reader.offset
                let next = if let group { try reader.nextField(in: group) } else { try reader.nextField() }
                guard let (number, wireType) = next else { return offset }
                try fits()
                var field = schema?.field(number: number)
                var name = field.map { $0.name } ?? "[unknown]"
                if let known = field, Self.wireType(of: known) != wireType {
                    // Kept as an unknown field by the decoder, as conforming parsers do.
                    name = "[unknown: \(known.name) with wire type \(WireType.name(wireType))]"
                    field = nil
                }
                let prefix = "\(pad(offset))  \(margin)\(number) \(name)"
                switch wireType {
                case WireType.varint:
                    let value = try reader.readVarintValue()
                    try fits()
                    lines.append("\(prefix) varint = \(describe(varint: value, kind: field?.kind))")
                case WireType.fixed64:
                    let raw = try reader.readFixed64Value()
                    try fits()
                    let text: String
                    if case .double? = field?.kind { text = "\(Double(bitPattern: raw))" } else { text = "0x\(String(raw, radix: 16))" }
                    lines.append("\(prefix) fixed64 = \(text)")
                case WireType.fixed32:
                    let raw = try reader.readFixed32Value()
                    try fits()
                    lines.append("\(prefix) fixed32 = 0x\(String(raw, radix: 16))")
                case WireType.lengthDelimited:
                    switch field?.kind {
                    case .message(let nested)?:
                        let outer = try reader.enterMessage()
                        try fits()
                        let nestedSchema = nested()
                        // A sub-message the error is inside: its header, then what precedes the error.
                        lines.append("\(prefix) message \(nestedSchema.fullName) (\(counted(reader.messageEnd - reader.offset, "byte")))")
                        _ = try walk(schema: nestedSchema, indent: indent + 1, group: nil)
                        reader.leaveMessage(restoring: outer)
                    case .stringToBytesMap?:
                        let outer = try reader.enterMessage()
                        try fits(reader.messageEnd)
                        lines.append("\(prefix) map entry (\(counted(reader.messageEnd - reader.offset, "byte")))")
                        _ = try walk(schema: Self.mapEntrySchema, indent: indent + 1, group: nil)
                        reader.leaveMessage(restoring: outer)
                    case .string?:
                        let range = try reader.readStringRange()
                        try fits()
                        lines.append("\(prefix) string (\(counted(range.count, "byte"))) = \(quote(String(decoding: bytes[range], as: UTF8.self)))")
                    default:
                        let range = try reader.readBytesRange()
                        try fits()
                        lines.append("\(prefix) bytes (\(range.count)) = \(hex(bytes[range]))")
                    }
                case WireType.startGroup:
                    // Shown only whole: read to its end on a copy of the reader first.
                    var lookahead = reader
                    try lookahead.skipCurrentField()
                    try fits(lookahead.offset)
                    lines.append("\(prefix) group {")
                    let opened = try reader.enterGroup()
                    let endTag = try walk(schema: nil, indent: indent + 1, group: opened)
                    reader.leaveGroup(opened)
                    lines.append("\(pad(endTag))  \(margin)} end group \(number)")
                default:
                    preconditionFailure("the reader admits wire types 0...5 and returns no end-group tag")
                }
            }
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

        func hex(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> String {
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
                FieldSchema(1, "key", .string),
                FieldSchema(2, "value", .bytes),
            ])
    }
}
