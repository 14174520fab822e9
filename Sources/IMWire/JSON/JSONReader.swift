/// Reads proto3 JSON (SPEC §2.2) straight from UTF-8 bytes in one pass — no Foundation, no
/// Codable, no intermediate tree — driven by the same per-type field tables as the binary decoder.
///
/// Accepts lowerCamelCase and original field names, 64-bit integers as numbers or strings (any
/// integer as a string, exponent forms when integral), enums by name or number, standard and
/// URL-safe base64 with or without padding, `null` as absent. Rejects, with the byte offset:
/// malformed JSON (including trailing commas and data after the value), duplicate keys, two members
/// of one oneof, unknown keys (unless ignored), invalid UTF-8, lone surrogate escapes, out-of-range
/// numbers, fractions in integer fields, nesting past the depth limit.
package struct JSONReader: FieldDecoder {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var position = 0
    private var depth = 1
    private let maxDepth: Int
    private let ignoreUnknownFields: Bool
    /// The field whose value is being read, for messages.
    private var fieldName = ""

    package static func decode<M: ProtoMessage>(
        _ type: M.Type, from buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions
    ) throws(IMWireError) -> M {
        guard buffer.count <= options.maxInputSize else {
            throw IMWireError(
                code: .inputTooLarge,
                reason: "input of \(buffer.count) bytes is larger than the limit of \(options.maxInputSize) bytes",
                offset: 0)
        }
        var reader = JSONReader(buffer, options: options)
        var message = M()
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: "{") else {
            throw reader.syntaxError(reader.position == reader.count ? "expected a JSON object, found the end of input" : "expected a JSON object")
        }
        try reader.readObject(&message)
        reader.skipWhitespace()
        guard reader.position == reader.count else {
            throw reader.syntaxError("unexpected data after the JSON object")
        }
        return message
    }

    private init(_ buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions) {
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 0x10)!
        count = buffer.count
        maxDepth = options.maxDepth
        ignoreUnknownFields = options.ignoreUnknownFields
    }

    // MARK: - Errors

    @inline(never)
    private func syntaxError(_ reason: String, at offset: Int? = nil) -> IMWireError {
        let at = offset ?? position
        let found = at < count ? describeByte(base[at]) : "end of input"
        return IMWireError(code: .jsonSyntax, reason: "\(reason) at offset \(at) (found \(found))", offset: at)
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private func valueError(_ code: IMWireError.Code, _ reason: String, at offset: Int) -> IMWireError {
        IMWireError(code: code, reason: "field \(fieldName): \(reason)", offset: offset)
    }

    // MARK: - Scanning

    @inline(__always)
    private func peek() -> UInt8? {
        position < count ? base[position] : nil
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < count {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    @inline(never)
    private mutating func expect(_ byte: UInt8, _ what: String) throws(IMWireError) {
        guard position < count, base[position] == byte else { throw syntaxError("expected \(what)") }
        position += 1
    }

    /// Consumes `null` if it is next.
    private mutating func consumeNull() throws(IMWireError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try expectLiteral("null")
        return true
    }

    @inline(never)
    private mutating func expectLiteral(_ literal: StaticString) throws(IMWireError) {
        let start = position
        let length = literal.utf8CodeUnitCount
        guard count - position >= length,
              memcmp(base + position, literal.utf8Start, length) == 0 else {
            throw syntaxError("expected \(literal)", at: start)
        }
        position += length
    }

    @inline(never)
    private mutating func enter() throws(IMWireError) {
        guard depth < maxDepth else {
            throw IMWireError(
                code: .depthLimitExceeded, reason: "nesting exceeds the limit of \(maxDepth) levels at offset \(position)",
                offset: position)
        }
        depth += 1
    }

    /// A scanned string: the raw bytes between the quotes when it has no escapes, else the
    /// unescaped bytes.
    private enum ScannedString {
        case raw(start: Int, end: Int)
        case unescaped([UInt8])
    }

    /// Scans a string at `position` (which holds `"`), checking escapes and UTF-8.
    @inline(never)
    private mutating func scanString() throws(IMWireError) -> ScannedString {
        let quote = position
        let start = quote + 1
        // A local cursor: `position` lives in memory behind `self`, this one in a register.
        var at = start
        let base = self.base
        let count = self.count
        var nonASCII: UInt8 = 0
        while at < count {
            // Past the first 16 bytes (keys and IDs end sooner), eight bytes at a time while none
            // is a quote, a backslash or a control character.
            while at - start >= 16, count - at >= 8 {
                let word = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)
                if JSONWriter.mayNeedEscaping(word) { break }
                if word & 0x8080_8080_8080_8080 != 0 { nonASCII = 0x80 }
                at += 8
            }
            guard at < count else { break }
            let byte = base[at]
            if byte == UInt8(ascii: "\"") {
                position = at + 1
                if nonASCII != 0 { try validateUTF8(from: start, to: at) }
                return .raw(start: start, end: at)
            }
            if byte == UInt8(ascii: "\\") {
                position = at
                return .unescaped(try scanEscapedString(quote: quote, from: start))
            }
            if byte < 0x20 {
                position = at
                throw syntaxError("control character inside a string (escape it)")
            }
            nonASCII |= byte & 0x80
            at += 1
        }
        position = at
        throw syntaxError("unterminated string starting", at: quote)
    }

    private func validateUTF8(from start: Int, to end: Int) throws(IMWireError) {
        let bytes = UnsafeBufferPointer(start: base + start, count: end - start)
        if !UTF8Validation.isValid(bytes) {
            let bad = start + UTF8Validation.firstInvalidIndex(bytes)
            throw IMWireError(code: .invalidUTF8, reason: "string at offset \(start - 1) is not valid UTF-8 (byte 0x\(String(base[bad], radix: 16)) at offset \(bad))", offset: bad)
        }
    }

    /// The slow path: a string with escapes. `position` is at the first backslash.
    private mutating func scanEscapedString(quote: Int, from start: Int) throws(IMWireError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(position - start + 16)
        out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: position - start))
        while position < count {
            let byte = base[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                if !out.withUnsafeBufferPointer({ UTF8Validation.isValid($0) }) {
                    throw IMWireError(code: .invalidUTF8, reason: "string at offset \(quote) is not valid UTF-8", offset: quote)
                }
                return out
            case UInt8(ascii: "\\"):
                let escape = position
                position += 1
                guard position < count else { break }
                let letter = base[position]
                position += 1
                switch letter {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4(escape: escape)
                    if scalar >= 0xD800, scalar <= 0xDBFF {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard count - position >= 6, base[position] == UInt8(ascii: "\\"), base[position + 1] == UInt8(ascii: "u") else {
                            throw IMWireError(code: .invalidEscape, reason: "\\u escape at offset \(escape) is a lone high surrogate", offset: escape)
                        }
                        position += 2
                        let low = try readHex4(escape: position - 2)
                        guard low >= 0xDC00, low <= 0xDFFF else {
                            throw IMWireError(code: .invalidEscape, reason: "\\u escape at offset \(escape) is a high surrogate not followed by a low one", offset: escape)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00, scalar <= 0xDFFF {
                        throw IMWireError(code: .invalidEscape, reason: "\\u escape at offset \(escape) is a lone low surrogate", offset: escape)
                    }
                    appendUTF8(scalar, to: &out)
                default:
                    throw IMWireError(code: .invalidEscape, reason: "unknown escape \\\(describeByte(letter)) at offset \(escape)", offset: escape)
                }
            default:
                if byte < 0x20 { throw syntaxError("control character inside a string (escape it)") }
                out.append(byte)
                position += 1
            }
        }
        throw syntaxError("unterminated string starting", at: quote)
    }

    private mutating func readHex4(escape: Int) throws(IMWireError) -> UInt32 {
        guard count - position >= 4 else {
            throw IMWireError(code: .invalidEscape, reason: "\\u escape at offset \(escape) needs four hex digits", offset: escape)
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = base[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw IMWireError(code: .invalidEscape, reason: "\\u escape at offset \(escape) needs four hex digits", offset: escape)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    @inline(never)
    private func makeString(_ scanned: ScannedString) -> String {
        switch scanned {
        case .raw(let start, let end):
            // Already validated (or ASCII): decoding cannot repair anything here.
            return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
        case .unescaped(let bytes):
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private func withBytes<R>(_ scanned: ScannedString, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch scanned {
        case .raw(let start, let end): body(UnsafeBufferPointer(start: base + start, count: end - start))
        case .unescaped(let bytes): bytes.withUnsafeBufferPointer(body)
        }
    }

    /// A scanned JSON number: its sign, the digits before and after the point and the exponent.
    private struct NumberToken {
        var start: Int
        var end: Int
        var negative: Bool
        var integerDigits: Range<Int>
        var fractionDigits: Range<Int>
        /// The exponent, clamped to ±1_000_000_000 (any larger is out of every range anyway).
        var exponent: Int
    }

    /// Scans a number per the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inline(never)
    private mutating func scanNumber() throws(IMWireError) -> NumberToken {
        let start = position
        var negative = false
        if peek() == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        let integerStart = position
        guard let first = peek(), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw syntaxError("expected a digit", at: position)
        }
        position += 1
        if first != UInt8(ascii: "0") {
            while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        }
        let integerDigits = integerStart..<position
        var fractionDigits = position..<position
        if peek() == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
            guard position > fractionStart else { throw syntaxError("expected a digit after '.'") }
            fractionDigits = fractionStart..<position
        }
        var exponent = 0
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            position += 1
            var exponentNegative = false
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                position += 1
            }
            let exponentStart = position
            while let digit = peek(), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
                if exponent < 1_000_000_000 { exponent = exponent * 10 + Int(digit - UInt8(ascii: "0")) }
                position += 1
            }
            guard position > exponentStart else { throw syntaxError("expected a digit in the exponent") }
            exponent = min(exponent, 1_000_000_000)
            if exponentNegative { exponent = -exponent }
        }
        return NumberToken(
            start: start, end: position, negative: negative, integerDigits: integerDigits,
            fractionDigits: fractionDigits, exponent: exponent)
    }

    /// The exact integer a number token denotes (no floating point: "1.5e1" is 15, "1e2" is 100,
    /// "1.5" is not an integer). Returns the magnitude and the sign; a magnitude above `UInt64.max`
    /// is `number_out_of_range`.
    private func integerValue(_ token: NumberToken, base pointer: UnsafePointer<UInt8>) throws(IMWireError) -> (magnitude: UInt64, negative: Bool) {
        let integerCount = token.integerDigits.count
        let digitCount = integerCount + token.fractionDigits.count
        func digit(_ index: Int) -> UInt8 {
            let position = index < integerCount
                ? token.integerDigits.lowerBound + index
                : token.fractionDigits.lowerBound + index - integerCount
            return pointer[position] &- UInt8(ascii: "0")
        }
        var first = 0
        while first < digitCount, digit(first) == 0 { first += 1 }
        if first == digitCount { return (0, token.negative) }
        var end = digitCount
        while digit(end - 1) == 0 { end -= 1 }
        // value = digits[first..<end] × 10^scale
        let scale = token.exponent - token.fractionDigits.count + (digitCount - end)
        if scale < 0 {
            throw valueError(.invalidNumber, "\(numberText(token)) is not an integer", at: token.start)
        }
        guard end - first + scale <= 20 else {
            throw valueError(.numberOutOfRange, "\(numberText(token)) is out of range", at: token.start)
        }
        var magnitude: UInt64 = 0
        var overflow = false
        for index in first..<end {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit(index)))
            overflow = overflow || o1 || o2
            magnitude = sum
        }
        for _ in 0..<scale {
            let (times10, o) = magnitude.multipliedReportingOverflow(by: 10)
            overflow = overflow || o
            magnitude = times10
        }
        if overflow {
            throw valueError(.numberOutOfRange, "\(numberText(token)) is out of range", at: token.start)
        }
        return (magnitude, token.negative)
    }

    private func numberText(_ token: NumberToken) -> String {
        let length = min(token.end - token.start, 40)
        let text = String(decoding: UnsafeBufferPointer(start: base + token.start, count: length), as: UTF8.self)
        return token.end - token.start > 40 ? text + "…" : text
    }

    // MARK: - Objects

    /// What ``readObject(_:)`` remembers about the members it has read.
    private struct ObjectState {
        /// Bit i: field index i has been given (a key, possibly `null`).
        var seen: UInt64 = 0
        /// Bit i: field index i, a oneof member, has been given a value (not `null`).
        var oneofMembers: UInt64 = 0
        /// Unknown keys skipped so far (only with ignoreUnknownFields), for duplicate detection.
        var unknownKeys: Set<[UInt8]> = []
    }

    /// A member whose key ``readMemberKey(_:state:)`` has read.
    private enum Member {
        /// A field with a value to decode, the reader positioned on the value.
        case field(number: Int)
        /// Done already: `null`, or an ignored unknown field.
        case handled
    }

    /// Reads an object at `position` into `message`, merging. This frame sits on the recursive
    /// path (one per message level), so the work per member lives in non-inlined helpers.
    private mutating func readObject<M: ProtoMessage>(_ message: inout M) throws(IMWireError) {
        var state = ObjectState()
        guard try openContainer() else { return }
        repeat {
            if case .field(let number) = try readMemberKey(M.self, state: &state) {
                _ = try message.decodeField(number: number, from: &self)
            }
        } while try nextMember(closing: UInt8(ascii: "}"))
    }

    /// After `{` or `[` at `position`: consumes it and any whitespace; returns `false` (having
    /// consumed the closing bracket) for an empty container.
    @inline(never)
    private mutating func openContainer() throws(IMWireError) -> Bool {
        let closing: UInt8 = base[position] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        position += 1
        skipWhitespace()
        if peek() == closing {
            position += 1
            return false
        }
        return true
    }

    /// After a member or element: consumes `,` (returning `true`) or the closing bracket
    /// (returning `false`); rejects anything else and trailing commas.
    @inline(never)
    private mutating func nextMember(closing: UInt8) throws(IMWireError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace()
            if peek() == closing { throw syntaxError("trailing comma before '\(Character(Unicode.Scalar(closing)))'") }
            return true
        case closing:
            position += 1
            return false
        default:
            throw syntaxError(closing == UInt8(ascii: "}") ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
        }
    }

    /// Reads a member's key and `:`, checks duplicates and oneofs, and handles `null` and ignored
    /// unknown fields.
    @inline(never)
    private mutating func readMemberKey<M: ProtoMessage>(_ type: M.Type, state: inout ObjectState) throws(IMWireError) -> Member {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a key string") }
        let keyOffset = position
        let key = try scanString()
        let schema = M.schema
        let fieldIndex = withBytes(key) { bytes in schema.fieldIndex(named: bytes) }
        skipWhitespace()
        try expect(UInt8(ascii: ":"), "':' after a key")
        skipWhitespace()
        guard let fieldIndex else {
            guard ignoreUnknownFields else {
                throw IMWireError(
                    code: .unknownField,
                    reason: "\(schema.fullName) has no field \"\(makeString(key))\" (key at offset \(keyOffset))",
                    offset: keyOffset)
            }
            guard state.unknownKeys.insert(withBytes(key) { Array($0) }).inserted else {
                throw IMWireError(code: .duplicateKey, reason: "key \"\(makeString(key))\" appears twice (at offset \(keyOffset))", offset: keyOffset)
            }
            try skipValue()
            return .handled
        }
        let field = schema.fields[fieldIndex]
        let bit: UInt64 = fieldIndex < 64 ? 1 << UInt64(fieldIndex) : 0
        if state.seen & bit != 0 {
            throw IMWireError(code: .duplicateKey, reason: "field \(field.name) appears twice (key at offset \(keyOffset))", offset: keyOffset)
        }
        state.seen |= bit
        // `null` leaves a field unset, a oneof member too: `{"receiver": null, "groupId": "g"}`
        // sets only the group (Google's Required OneofFieldNullFirst / NullSecond).
        if try consumeNull() { return .handled }
        if let oneof = field.oneof {
            var others = state.oneofMembers
            while others != 0 {
                let other = schema.fields[others.trailingZeroBitCount]
                if other.oneof == oneof {
                    throw IMWireError(
                        code: .oneofConflict,
                        reason: "oneof \(oneof) has both \(other.name) and \(field.name) (key at offset \(keyOffset))",
                        offset: keyOffset)
                }
                others &= others - 1
            }
            state.oneofMembers |= bit
        }
        fieldName = field.name
        return .field(number: field.number)
    }

    /// Skips any JSON value (for ignored unknown fields), checking it is well-formed and free of
    /// duplicate keys. Iterative — an explicit stack of open containers, so no recursion — and
    /// still bounded by the depth limit.
    private mutating func skipValue() throws(IMWireError) {
        // Open containers, innermost last (true: an object), and each open object's keys so far.
        var open: [Bool] = []
        var keySets: [Set<[UInt8]>] = []
        while true {
            // A value.
            switch peek() {
            case UInt8(ascii: "\"")?:
                _ = try scanString()
            case UInt8(ascii: "{")?:
                try enter()
                if try openContainer() {
                    open.append(true)
                    var keys: Set<[UInt8]> = []
                    try skipKey(into: &keys)
                    keySets.append(keys)
                    continue
                }
                depth -= 1
            case UInt8(ascii: "[")?:
                try enter()
                if try openContainer() {
                    open.append(false)
                    continue
                }
                depth -= 1
            case UInt8(ascii: "t")?: try expectLiteral("true")
            case UInt8(ascii: "f")?: try expectLiteral("false")
            case UInt8(ascii: "n")?: try expectLiteral("null")
            default: _ = try scanNumber()
            }
            // After a value: close every container that ends here, then go on to the next value.
            while let isObject = open.last {
                if try nextMember(closing: isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    if isObject {
                        // Taken out and put back, so the set is uniquely referenced (no copy).
                        var keys = keySets.removeLast()
                        try skipKey(into: &keys)
                        keySets.append(keys)
                    }
                    break
                }
                open.removeLast()
                if isObject { keySets.removeLast() }
                depth -= 1
            }
            if open.isEmpty { return }
        }
    }

    /// Inside a skipped object: reads a key (rejecting a duplicate) and its `:`.
    private mutating func skipKey(into keys: inout Set<[UInt8]>) throws(IMWireError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a key string") }
        let keyOffset = position
        let key = withBytes(try scanString()) { Array($0) }
        guard keys.insert(key).inserted else {
            throw IMWireError(code: .duplicateKey, reason: "key \"\(String(decoding: key, as: UTF8.self))\" appears twice (at offset \(keyOffset))", offset: keyOffset)
        }
        skipWhitespace()
        try expect(UInt8(ascii: ":"), "':' after a key")
        skipWhitespace()
    }

    // MARK: - Generic values (for dialects without a proto schema, such as tim-rest)

    /// Parses a whole JSON document into a ``JSONValue`` tree: one value, whitespace around it,
    /// nothing after. Same lexical rules and limits as the proto3 reader (UTF-8, escapes, depth,
    /// duplicate keys rejected).
    package static func parseValue(_ buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions) throws(IMWireError) -> JSONValue {
        guard buffer.count <= options.maxInputSize else {
            throw IMWireError(
                code: .inputTooLarge,
                reason: "input of \(buffer.count) bytes is larger than the limit of \(options.maxInputSize) bytes",
                offset: 0)
        }
        var reader = JSONReader(buffer, options: options)
        reader.depth = 0
        reader.skipWhitespace()
        let value = try reader.readValue()
        reader.skipWhitespace()
        guard reader.position == reader.count else {
            throw reader.syntaxError("unexpected data after the JSON value")
        }
        return value
    }

    private mutating func readValue() throws(IMWireError) -> JSONValue {
        switch peek() {
        case UInt8(ascii: "\"")?:
            return .string(makeString(try scanString()))
        case UInt8(ascii: "{")?:
            try enter()
            position += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a key string") }
                let keyOffset = position
                let key = makeString(try scanString())
                if members.contains(where: { $0.key.utf8.elementsEqual(key.utf8) }) {
                    throw IMWireError(code: .duplicateKey, reason: "key \"\(key)\" appears twice (at offset \(keyOffset))", offset: keyOffset)
                }
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "':' after a key")
                skipWhitespace()
                members.append((key, try readValue()))
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if peek() == UInt8(ascii: "}") { throw syntaxError("trailing comma before '}'") }
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}' in an object")
                depth -= 1
                return .object(members)
            }
        case UInt8(ascii: "[")?:
            try enter()
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try readValue())
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if peek() == UInt8(ascii: "]") { throw syntaxError("trailing comma before ']'") }
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']' in an array")
                depth -= 1
                return .array(elements)
            }
        case UInt8(ascii: "t")?:
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f")?:
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n")?:
            try expectLiteral("null")
            return .null
        default:
            let token = try scanNumber()
            let text = String(decoding: UnsafeBufferPointer(start: base + token.start, count: token.end - token.start), as: UTF8.self)
            return .number(text)
        }
    }

    // MARK: - Arrays

    private mutating func readArray(_ element: (inout JSONReader) throws(IMWireError) -> Void) throws(IMWireError) {
        guard peek() == UInt8(ascii: "[") else { throw mismatch("an array") }
        guard try openContainer() else { return }
        repeat {
            skipWhitespace()
            if peek() == UInt8(ascii: "n") {
                throw valueError(.invalidValue, "null is not allowed inside an array", at: position)
            }
            try element(&self)
        } while try nextMember(closing: UInt8(ascii: "]"))
    }

    // MARK: - Values

    /// The error for a value of the wrong type: `json_syntax` when the byte starts no JSON value
    /// at all, else `invalid_value`.
    @inline(never)
    private func mismatch(_ expected: String) -> IMWireError {
        switch peek() ?? 0 {
        case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "t"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return valueError(.invalidValue, "expected \(expected)", at: position)
        default:
            return syntaxError("expected a JSON value")
        }
    }

    private mutating func readStringValue() throws(IMWireError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw mismatch("a string") }
        return makeString(try scanString())
    }

    private mutating func readBytesValue() throws(IMWireError) -> [UInt8] {
        guard peek() == UInt8(ascii: "\"") else { throw mismatch("a base64 string") }
        let start = position
        let scanned = try scanString()
        guard let bytes = withBytes(scanned, { Base64.decode($0) }) else {
            throw valueError(.invalidBase64, "string at offset \(start) is not base64", at: start)
        }
        return bytes
    }

    /// A number written inside a string: the whole string must be one JSON number (escapes
    /// allowed, as any JSON string may use them). Calls `body` with a reader positioned on it.
    private func withNumberInString<R>(
        _ scanned: ScannedString, offset: Int, _ body: (inout JSONReader, NumberToken) throws(IMWireError) -> R
    ) throws(IMWireError) -> R {
        let result: Result<R, IMWireError> = withBytes(scanned) { bytes in
            var inner = JSONReader(bytes, options: JSONDecodingOptions(maxDepth: maxDepth))
            inner.fieldName = fieldName
            guard let token = try? inner.scanNumber(), token.end == bytes.count, bytes.count > 0 else {
                return .failure(valueError(.invalidNumber, "string at offset \(offset) is not a number", at: offset))
            }
            do throws(IMWireError) {
                return .success(try body(&inner, token))
            } catch {
                // Re-anchor the error at the string in the real input.
                return .failure(IMWireError(code: error.code, reason: error.reason, offset: offset))
            }
        }
        return try result.get()
    }

    /// An integer field's value: a JSON number or a string holding one.
    private mutating func readInteger() throws(IMWireError) -> (magnitude: UInt64, negative: Bool, offset: Int) {
        let offset = position
        if peek() == UInt8(ascii: "\"") {
            let scanned = try scanString()
            let value = try withNumberInString(scanned, offset: offset) { (inner, token) throws(IMWireError) in
                try inner.integerValue(token, base: inner.base)
            }
            return (value.magnitude, value.negative, offset)
        }
        guard let byte = peek(), byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
            throw mismatch("an integer")
        }
        let token = try scanNumber()
        let value = try integerValue(token, base: base)
        return (value.magnitude, value.negative, offset)
    }

    private mutating func readDouble() throws(IMWireError) -> Double {
        let offset = position
        if peek() == UInt8(ascii: "\"") {
            let scanned = try scanString()
            let special: Double? = withBytes(scanned) { text in
                if text.elementsEqual("NaN".utf8) { return .nan }
                if text.elementsEqual("Infinity".utf8) { return .infinity }
                if text.elementsEqual("-Infinity".utf8) { return -.infinity }
                return nil
            }
            if let special { return special }
            return try withNumberInString(scanned, offset: offset) { (inner, token) throws(IMWireError) in
                try inner.doubleValue(token)
            }
        }
        guard let byte = peek(), byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
            throw mismatch("a number")
        }
        let token = try scanNumber()
        return try doubleValue(token)
    }

    private func doubleValue(_ token: NumberToken) throws(IMWireError) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: base + token.start, count: token.end - token.start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw valueError(.numberOutOfRange, "\(numberText(token)) is out of the range of a double", at: token.start)
        }
        return value
    }

    // MARK: - FieldDecoder
    //
    // The scalar readers are not inlined: each message type's decodeField frame sits on the
    // recursive path, and inlining every reader into it made each nesting level cost ~2 KiB of stack.

    @inline(never)
    package mutating func decodeString(_ value: inout String) throws(IMWireError) -> Bool {
        value = try readStringValue()
        return true
    }

    @inline(never)
    package mutating func decodeBytes(_ value: inout [UInt8]) throws(IMWireError) -> Bool {
        value = try readBytesValue()
        return true
    }

    @inline(never)
    package mutating func decodeUInt64(_ value: inout UInt64) throws(IMWireError) -> Bool {
        let number = try readInteger()
        if number.negative, number.magnitude != 0 {
            throw valueError(.numberOutOfRange, "uint64 cannot be negative", at: number.offset)
        }
        value = number.magnitude
        return true
    }

    @inline(never)
    package mutating func decodeUInt32(_ value: inout UInt32) throws(IMWireError) -> Bool {
        let number = try readInteger()
        guard !number.negative || number.magnitude == 0, number.magnitude <= UInt64(UInt32.max) else {
            throw valueError(.numberOutOfRange, "value is out of the range of uint32", at: number.offset)
        }
        value = UInt32(number.magnitude)
        return true
    }

    @inline(never)
    package mutating func decodeInt32(_ value: inout Int32) throws(IMWireError) -> Bool {
        value = try readInt32()
        return true
    }

    private mutating func readInt32() throws(IMWireError) -> Int32 {
        let number = try readInteger()
        return try int32(number.magnitude, negative: number.negative, offset: number.offset)
    }

    private func int32(_ magnitude: UInt64, negative: Bool, offset: Int) throws(IMWireError) -> Int32 {
        if negative {
            guard magnitude <= UInt64(Int32.max) + 1 else {
                throw valueError(.numberOutOfRange, "value is out of the range of int32", at: offset)
            }
            return Int32(truncatingIfNeeded: 0 &- Int64(magnitude))
        }
        guard magnitude <= UInt64(Int32.max) else {
            throw valueError(.numberOutOfRange, "value is out of the range of int32", at: offset)
        }
        return Int32(magnitude)
    }

    @inline(never)
    package mutating func decodeBool(_ value: inout Bool) throws(IMWireError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            value = true
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            value = false
        default:
            throw mismatch("true or false")
        }
        return true
    }

    @inline(never)
    package mutating func decodeDouble(_ value: inout Double) throws(IMWireError) -> Bool {
        value = try readDouble()
        return true
    }

    @inline(never)
    package mutating func decodeEnum<E: ProtoEnum>(_ value: inout E) throws(IMWireError) -> Bool {
        guard peek() == UInt8(ascii: "\"") else {
            value = E(rawValue: try readInt32())
            return true
        }
        let offset = position
        let scanned = try scanString()
        if let number = withBytes(scanned, { bytes in E.schema.number(named: bytes) }) {
            value = E(rawValue: number)
            return true
        }
        // A number in a string ("1"), as the C++ and Python parsers accept.
        let numeric: (magnitude: UInt64, negative: Bool)? = try? withNumberInString(scanned, offset: offset) {
            (inner, token) throws(IMWireError) in try inner.integerValue(token, base: inner.base)
        }
        if let numeric {
            value = E(rawValue: try int32(numeric.magnitude, negative: numeric.negative, offset: offset))
        } else if !ignoreUnknownFields {
            throw valueError(.invalidValue, "\"\(makeString(scanned))\" is not a value of \(E.schema.fullName)", at: offset)
        }
        return true
    }

    package mutating func decodeMessage<M: ProtoMessage>(_ value: inout M) throws(IMWireError) -> Bool {
        guard peek() == UInt8(ascii: "{") else { throw mismatch("an object") }
        try enter()
        try readObject(&value)
        depth -= 1
        return true
    }

    @inline(never)
    package mutating func decodeRepeatedString(_ value: inout [String]) throws(IMWireError) -> Bool {
        try readArray { (reader) throws(IMWireError) in value.append(try reader.readStringValue()) }
        return true
    }

    package mutating func decodeRepeatedMessage<M: ProtoMessage>(_ value: inout [M]) throws(IMWireError) -> Bool {
        try readArray { (reader) throws(IMWireError) in
            value.append(M())
            _ = try reader.decodeMessage(&value[value.count - 1])
        }
        return true
    }

    @inline(never)
    package mutating func decodeStringToBytesMap(_ value: inout StringBytesMap) throws(IMWireError) -> Bool {
        guard peek() == UInt8(ascii: "{") else { throw mismatch("an object") }
        guard try openContainer() else { return true }
        repeat {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a key string") }
            let keyOffset = position
            let key = makeString(try scanString())
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after a key")
            skipWhitespace()
            if value[key] != nil {
                throw IMWireError(code: .duplicateKey, reason: "map key \"\(key)\" appears twice (at offset \(keyOffset))", offset: keyOffset)
            }
            if peek() == UInt8(ascii: "n") {
                throw valueError(.invalidValue, "a map value cannot be null", at: position)
            }
            value[key] = try readBytesValue()
        } while try nextMember(closing: UInt8(ascii: "}"))
        return true
    }

}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
