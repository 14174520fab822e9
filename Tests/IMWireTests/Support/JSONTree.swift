/// A JSON document as a tree that keeps member order and numbers as written, for tests that edit
/// documents key by key (the nothing-is-lost property). Parsed by a small recursive reader of its own
/// (the inputs are the codecs' output and its edits: small, well-formed), written compactly.
indirect enum JSONTree: Equatable {
    case object([(key: String, value: JSONTree)])
    case array([JSONTree])
    case string(String)
    /// The number's text, as written.
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: JSONTree, rhs: JSONTree) -> Bool { lhs.text == rhs.text }

    // MARK: Reading

    init?(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(), reader.atEnd else { return nil }
        self = value
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool {
            mutating get {
                skipWhitespace()
                return position == bytes.count
            }
        }

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        mutating func value() -> JSONTree? {
            skipWhitespace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [(key: String, value: JSONTree)] = []
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object([]) }
                while true {
                    skipWhitespace()
                    guard case .string(let key)? = value(), consume(":"), let member = value() else { return nil }
                    members.append((key, member))
                    if consume(",") { continue }
                    return consume("}") ? .object(members) : nil
                }
            case UInt8(ascii: "["):
                position += 1
                var elements: [JSONTree] = []
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array([]) }
                while true {
                    guard let element = value() else { return nil }
                    elements.append(element)
                    if consume(",") { continue }
                    return consume("]") ? .array(elements) : nil
                }
            case UInt8(ascii: "\""):
                return string()
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default:
                let start = position
                while position < bytes.count, "+-.0123456789eE".utf8.contains(bytes[position]) { position += 1 }
                return position > start ? .number(String(decoding: bytes[start..<position], as: UTF8.self)) : nil
            }
        }

        mutating func consume(_ character: Character) -> Bool {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == character.asciiValue! else { return false }
            position += 1
            return true
        }

        mutating func literal(_ word: String, _ value: JSONTree) -> JSONTree? {
            guard bytes[position...].starts(with: word.utf8) else { return nil }
            position += word.utf8.count
            return value
        }

        mutating func string() -> JSONTree? {
            position += 1
            var scalars: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return .string(String(decoding: scalars, as: UTF8.self))
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { return nil }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard var code = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(code), bytes[position...].starts(with: "\\u".utf8) {
                            position += 2
                            guard let low = hex4() else { return nil }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        scalars += Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8)
                    default: scalars.append(escape)
                    }
                default:
                    scalars.append(byte)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard position + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
            else { return nil }
            position += 4
            return code
        }
    }

    // MARK: Writing

    /// Compact JSON text.
    var text: String {
        switch self {
        case .object(let members):
            "{" + members.map { Self.quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
        case .array(let elements): "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .string(let string): Self.quoted(string)
        case .number(let text): text
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        }
    }

    var bytes: [UInt8] { Array(text.utf8) }

    private static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    // MARK: Paths

    /// One step from a container to a child: a member's key (and its index among the members) or an
    /// array index.
    enum Step: Equatable {
        case member(Int, String)
        case element(Int)
    }

    /// Every value, the root included, with the steps to it.
    var nodes: [[Step]] {
        var found: [[Step]] = []
        func walk(_ value: JSONTree, _ steps: [Step]) {
            found.append(steps)
            switch value {
            case .object(let members):
                for (index, member) in members.enumerated() { walk(member.value, steps + [.member(index, member.key)]) }
            case .array(let elements):
                for (index, element) in elements.enumerated() { walk(element, steps + [.element(index)]) }
            default:
                break
            }
        }
        walk(self, [])
        return found
    }

    /// Every scalar leaf (string, number, boolean, null) with the steps to it.
    var leaves: [[Step]] {
        nodes.filter {
            switch self[$0] {
            case .object, .array: false
            default: true
            }
        }
    }

    /// Every object, with the steps to it.
    var objects: [[Step]] {
        nodes.filter { if case .object = self[$0] { true } else { false } }
    }

    /// `MsgBody[0].MsgContent.Text`: the path a decoder reports for these steps.
    static func path(_ steps: [Step]) -> String {
        var text = ""
        for step in steps {
            switch step {
            case .member(_, let key): text += text.isEmpty ? key : "." + key
            case .element(let index): text += "[\(index)]"
            }
        }
        return text
    }

    subscript(steps: [Step]) -> JSONTree {
        get {
            guard let step = steps.first else { return self }
            switch (self, step) {
            case (.object(let members), .member(let index, _)): return members[index].value[Array(steps.dropFirst())]
            case (.array(let elements), .element(let index)): return elements[index][Array(steps.dropFirst())]
            default: preconditionFailure("no \(step) in \(self.text.prefix(80))")
            }
        }
        set {
            guard let step = steps.first else { self = newValue; return }
            switch (self, step) {
            case (.object(var members), .member(let index, _)):
                members[index].value[Array(steps.dropFirst())] = newValue
                self = .object(members)
            case (.array(var elements), .element(let index)):
                elements[index][Array(steps.dropFirst())] = newValue
                self = .array(elements)
            default: preconditionFailure("no \(step)")
            }
        }
    }

    /// The member `key` of this object, if any.
    subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// This object with `key` set to `value` (replacing a member of that key, or appended).
    func setting(_ key: String, _ value: JSONTree) -> JSONTree {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
        return .object(members)
    }
}
