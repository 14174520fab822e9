/// A parsed JSON value, for JSON dialects that have no proto schema to drive the reader
/// (Tencent's REST JSON). Produced by `JSONReader.parseValue`, so it has passed the same checks as
/// proto3 JSON: valid UTF-8, valid escapes, bounded depth, no duplicate keys.
package enum JSONValue: Sendable, Equatable {
    /// Members in document order; keys are unique.
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    /// The number's text exactly as written (it matched the JSON number grammar).
    case number(String)
    case bool(Bool)
    case null

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    /// The member named `key` of an object (case-sensitive), or `nil`.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}
