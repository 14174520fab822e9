import IMWire

/// What a generated case uses that a runtime might get wrong — its flaw class, the styles its input
/// is written with, edge values — named for people. Two failures of the same check whose features
/// include those of a shrunk finding are most likely that finding again (``Explorer``).
extension ExploreCase {
    var features: [String] {
        var found = Set<String>()
        if let kind = flawKind { found.insert("flaw \(kind.rawValue)") }
        if input == .json, ignoreUnknownFields, message.hasJSONUnknownKeys { found.insert("unknown keys ignored") }
        collect(message, level: 1, into: &found)
        return found.sorted()
    }

    private func collect(_ message: GeneratedMessage, level: Int, into found: inout Set<String>) {
        let binary = input == .binary
        let json = input == .json
        if level >= 60 { found.insert("nested 60 levels or more") }
        if binary {
            if message.style.order != nil, message.fields.count + message.unknownFields.count > 1 { found.insert("fields out of order") }
            for unknown in message.unknownFields where message.schema.field(number: Int(clamping: unknown.number)) == nil {
                found.insert("unknown field of wire type \(unknown.content.wireType)")
            }
        }
        if json {
            if message.style.order != nil, message.fields.count > 1 { found.insert("keys out of order") }
            if message.style.jsonNulls != nil { found.insert("null for absent fields") }
            if message.style.whitespace != nil { found.insert("whitespace between tokens") }
        }
        for field in message.fields {
            let info = message.info(field)
            if binary {
                let style = field.binary
                if style.tagPadding > 0 { found.insert("tag padded") }
                if style.valueLength > 0 {
                    if info.kind.isVarint {
                        found.insert(style.valueLength >= 10 ? "varint padded to 10 bytes" : "varint padded")
                    } else {
                        found.insert("length prefix padded")
                    }
                }
                if style.earlier != nil {
                    found.insert(info.oneof != nil ? "oneof member switched" : info.isRepeated || isMap(info) ? "map key repeated" : "scalar overridden")
                }
                if style.split != nil, !field.value.children.isEmpty { found.insert("sub-message sent in parts") }
                if style.numberForm != nil { found.insert("another varint spelling of the value") }
                if style.entries != nil { found.insert("map entry spelled otherwise") }
            }
            if json {
                if field.json.protoName { found.insert("proto field name") }
                if field.json.keyEscapes != nil { found.insert("escaped key") }
                if field.json.form != nil { found.insert("value spelled otherwise") }
            }
            switch field.value {
            case .varint(let raw):
                switch info.kind {
                case .uint64 where raw > 1 << 53: found.insert("uint64 above 2^53")
                case .int32 where Int64(bitPattern: raw) < 0: found.insert("negative int32")
                case .enumeration(let schema):
                    if schema.name(of: Int32(truncatingIfNeeded: Int64(bitPattern: raw))) == nil { found.insert("unknown enum number") }
                default: break
                }
                if raw == 0, info.oneof == nil { found.insert("explicit default") }
            case .double(let double):
                if double.isNaN { found.insert("NaN") }
                if double.isInfinite { found.insert("infinity") }
                if double == 0, double.sign == .minus { found.insert("-0.0") }
                if double.isSubnormal { found.insert("subnormal double") }
            case .text(let bytes):
                if bytes.isEmpty, info.oneof == nil { found.insert("explicit default") }
                if bytes.isEmpty, info.oneof != nil { found.insert("oneof member with its default") }
                if case .string = info.kind { textFeatures(bytes, into: &found) }
            case .texts(let list):
                for bytes in list { textFeatures(bytes, into: &found) }
            case .map(let entries):
                for entry in entries { textFeatures(entry.key, into: &found) }
            case .message(let child):
                if child.fields.isEmpty, child.unknownFields.isEmpty { found.insert("empty sub-message") }
                collect(child, level: level + 1, into: &found)
            case .messages(let list):
                for child in list { collect(child, level: level + 1, into: &found) }
            }
        }
    }

    private func isMap(_ info: FieldSchema) -> Bool {
        if case .stringToBytesMap = info.kind { return true }
        return false
    }

    private func textFeatures(_ bytes: [UInt8], into found: inout Set<String>) {
        if bytes.contains(0) { found.insert("U+0000 in a string") }
        if bytes.contains(where: { $0 >= 0xF0 }) { found.insert("character beyond the BMP") } else if bytes.contains(where: { $0 >= 0x80 }) {
            found.insert("non-ASCII string")
        }
    }
}

extension GeneratedMessage {
    var hasJSONUnknownKeys: Bool {
        style.jsonUnknownKeys != nil || fields.contains { $0.value.children.contains { $0.hasJSONUnknownKeys } }
    }
}

extension ExploreCase {
    /// What shrinking leaves behind in almost every small case (a value made its default, an emptied
    /// sub-message, the kind of characters left in a string): not a cause to tell findings apart by.
    static let incidental: Set<String> = [
        "explicit default", "oneof member with its default", "empty sub-message", "non-ASCII string", "character beyond the BMP",
    ]

    /// The features of a finding that tell it from others.
    static func telling(_ features: [String]) -> Set<String> {
        Set(features).subtracting(incidental)
    }

    /// Whether ``removing(_:)`` can take the feature out of a case.
    static func isRemovable(_ feature: String) -> Bool {
        !feature.hasPrefix("flaw ") && feature != "nested 60 levels or more" && !incidental.contains(feature)
    }

    /// The case without what `features` name, as far as it can be taken out (styles turned off, edge
    /// values made plain, unknown fields of a wire type dropped; a flaw, a depth or the kind of
    /// characters in a string stay). A failure that goes away without the features of a finding is
    /// that finding again.
    func removing(_ features: [String]) -> ExploreCase {
        var copy = self
        let names = Set(features)
        if names.contains("unknown keys ignored") { copy.message = copy.message.mapping { $0.style.jsonUnknownKeys = nil } fields: { _, _ in } }
        copy.message = copy.message.mapping { message in
            if names.contains("fields out of order") || names.contains("keys out of order") { message.style.order = nil }
            if names.contains("null for absent fields") { message.style.jsonNulls = nil }
            if names.contains("whitespace between tokens") { message.style.whitespace = nil }
            let schema = message.schema
            for wireType: UInt8 in [0, 1, 2, 3, 5] where names.contains("unknown field of wire type \(wireType)") {
                message.unknownFields.removeAll { $0.content.wireType == wireType && schema.field(number: Int(clamping: $0.number)) == nil }
            }
            if names.contains("explicit default") {
                let schema = message.schema
                message.fields.removeAll { field in
                    guard field.flaw == nil, schema.field(number: field.number)?.oneof == nil else { return false }
                    switch field.value {
                    case .varint(0): return true
                    case .text(let bytes): return bytes.isEmpty
                    default: return false
                    }
                }
            }
        } fields: { field, info in
            if info.kind.isVarint {
                if names.contains("varint padded") || (names.contains("varint padded to 10 bytes") && field.binary.valueLength >= 10) {
                    field.binary.valueLength = 0
                }
            } else if names.contains("length prefix padded") {
                field.binary.valueLength = 0
            }
            if names.contains("tag padded") { field.binary.tagPadding = 0 }
            if field.binary.earlier != nil {
                let kind = info.oneof != nil ? "oneof member switched" : info.isRepeated || info.kind.wireType == 2 && !info.kind.isTextual ? "map key repeated" : "scalar overridden"
                if names.contains(kind) { field.binary.earlier = nil }
            }
            if names.contains("sub-message sent in parts") { field.binary.split = nil }
            if names.contains("another varint spelling of the value") { field.binary.numberForm = nil }
            if names.contains("map entry spelled otherwise") { field.binary.entries = nil }
            if names.contains("proto field name") { field.json.protoName = false }
            if names.contains("escaped key") { field.json.keyEscapes = nil }
            if names.contains("value spelled otherwise") { field.json.form = nil }
            guard field.flaw == nil else { return }
            switch (field.value, info.kind) {
            case (.double(let double), _):
                if (double.isNaN && names.contains("NaN")) || (double.isInfinite && names.contains("infinity"))
                    || (double == 0 && double.sign == .minus && names.contains("-0.0")) || (double.isSubnormal && names.contains("subnormal double"))
                {
                    field.value = .double(1)
                }
            case (.varint(let raw), .uint64) where raw > 1 << 53 && names.contains("uint64 above 2^53"):
                field.value = .varint(1)
            case (.varint(let raw), .int32) where Int64(bitPattern: raw) < 0 && names.contains("negative int32"):
                field.value = .varint(1)
            case (.varint(let raw), .enumeration(let schema)) where names.contains("unknown enum number"):
                if schema.name(of: Int32(truncatingIfNeeded: Int64(bitPattern: raw))) == nil { field.value = .varint(0) }
            case (.text(let bytes), .string) where names.contains("U+0000 in a string"):
                field.value = .text(bytes.filter { $0 != 0 })
            default:
                break
            }
        }
        return copy
    }
}

extension GeneratedMessage {
    /// The message with `message` applied to it and to every message inside, and `fields` to every
    /// field (after `message`, before the field's own sub-messages).
    func mapping(_ message: (inout GeneratedMessage) -> Void, fields: (inout GeneratedField, FieldSchema) -> Void) -> GeneratedMessage {
        var copy = self
        message(&copy)
        for index in copy.fields.indices {
            let info = copy.info(copy.fields[index])
            fields(&copy.fields[index], info)
            copy.fields[index].value = copy.fields[index].value.mappingChildren { $0.mapping(message, fields: fields) }
        }
        return copy
    }
}

extension FieldSchema.Kind {
    var isTextual: Bool {
        switch self {
        case .string, .bytes: true
        default: false
        }
    }
}
