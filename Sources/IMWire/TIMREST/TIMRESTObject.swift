/// A JSON object of tim-rest input with typed, path-reporting accessors for its members.
///
/// Keys are case-sensitive and compared by their UTF-8 bytes; a member whose value is `null` reads
/// as absent. Numbers follow Tencent's habits: an integer may come as a JSON number or as a string of
/// decimal digits (`"EventTime": "1670574414123"`), a flag as `0`/`1` (any non-zero number is set),
/// `true`/`false` or such a string. Wrong types fail with `invalid_value`, malformed numbers with
/// `invalid_number`, numbers beyond the field's range with `number_out_of_range`, and every error
/// names the REST path of the value (`MsgBody[1].MsgContent.Index`).
struct TIMRESTObject {
    private let members: [(key: String, value: JSONValue)]
    /// The REST path of this object (`MsgBody[0].MsgContent`), empty at the root.
    let path: String

    /// `value` as an object; `invalid_value` (naming `path` and `what`) for anything else.
    init(_ value: JSONValue, path: String, what: String) throws(IMWireError) {
        guard case .object(let members) = value else {
            throw IMWireError(
                code: .invalidValue, reason: "expected \(what) as a JSON object, found \(value.timRESTTypeName)",
                path: path.isEmpty ? nil : path)
        }
        self.members = members
        self.path = path
    }

    /// The path of member `key`.
    func path(_ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// The member named `key`, or `nil` when it is absent or `null`.
    subscript(key: String) -> JSONValue? {
        for member in members where member.key.utf8.elementsEqual(key.utf8) {
            if case .null = member.value { return nil }
            return member.value
        }
        return nil
    }

    /// Whether `key` is present (and not `null`).
    func contains(_ key: String) -> Bool { self[key] != nil }

    // MARK: - Errors

    func missing(_ key: String, _ what: String) -> IMWireError {
        IMWireError(code: .missingField, reason: "\(what) has no \"\(key)\"", path: path.isEmpty ? nil : path)
    }

    func wrongType(_ key: String, expected: String, found value: JSONValue) -> IMWireError {
        IMWireError(code: .invalidValue, reason: "\"\(key)\" must be \(expected), found \(value.timRESTTypeName)", path: path(key))
    }

    // MARK: - Typed members

    /// A string member; `missing_field` when required and absent.
    func string(_ key: String, required what: String? = nil) throws(IMWireError) -> String? {
        guard let value = self[key] else {
            if let what { throw missing(key, what) }
            return nil
        }
        guard case .string(let string) = value else { throw wrongType(key, expected: "a string", found: value) }
        return string
    }

    /// A string member that `what` must have (`missing_field` otherwise).
    func requiredString(_ key: String, in what: String) throws(IMWireError) -> String {
        guard let string = try string(key, required: what) else { throw missing(key, what) }
        return string
    }

    /// An unsigned integer member no larger than `max`.
    func unsigned(_ key: String, max: UInt64 = .max, required what: String? = nil) throws(IMWireError) -> UInt64? {
        guard let value = self[key] else {
            if let what { throw missing(key, what) }
            return nil
        }
        let (magnitude, negative) = try integer(key, value)
        guard !negative || magnitude == 0, magnitude <= max else {
            throw IMWireError(
                code: .numberOutOfRange,
                reason: "\"\(key)\" is \(negative ? "-" : "")\(magnitude), outside 0...\(max)", path: path(key))
        }
        return magnitude
    }

    /// A signed 32-bit integer member.
    func int32(_ key: String, required what: String? = nil) throws(IMWireError) -> Int32? {
        guard let value = self[key] else {
            if let what { throw missing(key, what) }
            return nil
        }
        let (magnitude, negative) = try integer(key, value)
        let limit: UInt64 = negative ? UInt64(Int32.max) + 1 : UInt64(Int32.max)
        guard magnitude <= limit else {
            throw IMWireError(
                code: .numberOutOfRange,
                reason: "\"\(key)\" is \(negative ? "-" : "")\(magnitude), outside the range of a 32-bit integer",
                path: path(key))
        }
        return negative ? Int32(truncatingIfNeeded: 0 &- magnitude) : Int32(magnitude)
    }

    /// A finite double member.
    func double(_ key: String, required what: String? = nil) throws(IMWireError) -> Double? {
        guard let value = self[key] else {
            if let what { throw missing(key, what) }
            return nil
        }
        let text: String
        switch value {
        case .number(let number): text = number
        case .string(let string) where Self.looksNumeric(string): text = string
        case .string: throw IMWireError(code: .invalidNumber, reason: "\"\(key)\" is a string that is not a number", path: path(key))
        default: throw wrongType(key, expected: "a number", found: value)
        }
        guard let double = Double(text), double.isFinite else {
            throw IMWireError(code: .numberOutOfRange, reason: "\"\(key)\" (\(text)) is out of the range of a double", path: path(key))
        }
        return double
    }

    /// A flag: `0`/`1` (any non-zero integer is set), `true`/`false`, or a string of digits.
    func flag(_ key: String) throws(IMWireError) -> Bool? {
        guard let value = self[key] else { return nil }
        if case .bool(let bool) = value { return bool }
        let (magnitude, _) = try integer(key, value)
        return magnitude != 0
    }

    /// An array member.
    func array(_ key: String, required what: String? = nil) throws(IMWireError) -> [JSONValue]? {
        guard let value = self[key] else {
            if let what { throw missing(key, what) }
            return nil
        }
        guard case .array(let elements) = value else { throw wrongType(key, expected: "an array", found: value) }
        return elements
    }

    /// An array member that `what` must have (`missing_field` otherwise).
    func requiredArray(_ key: String, in what: String) throws(IMWireError) -> [JSONValue] {
        guard let array = try array(key, required: what) else { throw missing(key, what) }
        return array
    }

    /// An array of strings.
    func strings(_ key: String) throws(IMWireError) -> [String]? {
        guard let elements = try array(key) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element else {
                throw IMWireError(
                    code: .invalidValue, reason: "\"\(key)\" must hold strings, found \(element.timRESTTypeName)",
                    path: path(key) + "[\(index)]")
            }
            strings.append(string)
        }
        return strings
    }

    // MARK: - Numbers

    /// The integer a JSON number or a numeric string denotes. Fractions and exponents are accepted
    /// when the value is integral and exactly representable (`1.0`, `1e3`).
    private func integer(_ key: String, _ value: JSONValue) throws(IMWireError) -> (magnitude: UInt64, negative: Bool) {
        let text: String
        switch value {
        case .number(let number): text = number
        case .string(let string): text = string
        default: throw wrongType(key, expected: "an integer", found: value)
        }
        if let parsed = Self.parseInteger(text) {
            guard let magnitude = parsed.magnitude else {
                throw IMWireError(code: .numberOutOfRange, reason: "\"\(key)\" (\(text)) does not fit in 64 bits", path: path(key))
            }
            return (magnitude, parsed.negative)
        }
        guard Self.looksNumeric(text), let double = Double(text), double.isFinite else {
            throw IMWireError(code: .invalidNumber, reason: "\"\(key)\" (\(text)) is not an integer", path: path(key))
        }
        guard double == double.rounded(.towardZero), abs(double) <= 9_007_199_254_740_992 else {
            throw IMWireError(code: .invalidNumber, reason: "\"\(key)\" (\(text)) is not an integer", path: path(key))
        }
        return (UInt64(abs(double)), double < 0)
    }

    /// `-?[0-9]+` parsed exactly; `magnitude` is `nil` on overflow. `nil` for any other text.
    private static func parseInteger(_ text: String) -> (magnitude: UInt64?, negative: Bool)? {
        var utf8 = text.utf8[...]
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8 = utf8.dropFirst() }
        guard !utf8.isEmpty else { return nil }
        var magnitude: UInt64? = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            if let current = magnitude {
                let (times10, overflow1) = current.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                magnitude = overflow1 || overflow2 ? nil : sum
            }
        }
        return (magnitude, negative)
    }

    /// Whether `text` matches the JSON number grammar (so `Double(text)` reads it as JSON would,
    /// and "nan", "inf" or " 1" are refused).
    static func looksNumeric(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        var byte = bytes.next()
        if byte == UInt8(ascii: "-") { byte = bytes.next() }
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
        guard isDigit(byte) else { return false }
        if byte == UInt8(ascii: "0") {
            byte = bytes.next()
        } else {
            while isDigit(byte) { byte = bytes.next() }
        }
        if byte == UInt8(ascii: ".") {
            byte = bytes.next()
            guard isDigit(byte) else { return false }
            while isDigit(byte) { byte = bytes.next() }
        }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            byte = bytes.next()
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { byte = bytes.next() }
            guard isDigit(byte) else { return false }
            while isDigit(byte) { byte = bytes.next() }
        }
        return byte == nil
    }
}

extension JSONValue {
    /// "an object", "a string", … for error messages.
    var timRESTTypeName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number(let text): "the number \(text)"
        case .bool(let bool): bool ? "true" : "false"
        case .null: "null"
        }
    }
}
