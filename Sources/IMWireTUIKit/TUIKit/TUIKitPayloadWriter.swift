import IMWireCore
import IMWireJSONText

/// Writes a ``TUIKitCustomPayload``'s members as compact JSON: the payload's rules (no name twice
/// in one object, numbers as they were written, the thread's stack as the depth limit) on
/// ``JSONTextWriter``.
struct TUIKitPayloadWriter {
    private var text = JSONTextWriter(into: [UInt8]())
    private var stackGuard = StackGuard()

    /// The JSON written so far.
    var bytes: [UInt8] { text.output }

    mutating func writeObject(_ members: [TUIKitCustomPayload.Member], depth: Int, path: String) throws(IMWireError) {
        try stackGuard.check(depth: depth, path: path.isEmpty ? nil : path)
        var names = Set<String>()
        text.beginObject()
        for member in members {
            let memberPath = path.isEmpty ? member.name : path + "." + member.name
            guard names.insert(member.name).inserted else {
                throw .duplicateKey(
                    "the name \"\(member.name)\" appears twice in one object; a reader would refuse it",
                    path: memberPath)
            }
            text.key(member.name)
            try writeValue(member.value, depth: depth, path: memberPath)
        }
        text.endObject()
    }

    private mutating func writeValue(_ value: TUIKitCustomPayload.Value, depth: Int, path: String) throws(IMWireError) {
        switch value {
        case .null: text.null()
        case .bool(let flag): text.bool(flag)
        // The number's own text, as read or as the caller gave it (checked when it was made).
        case .number(let number):
            var digits = number.text
            digits.withUTF8 { text.append($0) }
        case .string(let string): text.string(string)
        case .object(let members): try writeObject(members, depth: depth + 1, path: path)
        case .array(let elements):
            try stackGuard.check(depth: depth + 1, path: path)
            text.beginArray()
            for (index, element) in elements.enumerated() {
                text.element()
                try writeValue(element, depth: depth + 1, path: "\(path)[\(index)]")
            }
            text.endArray()
        }
    }
}
