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

    @inline(__always)
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

    private mutating func expectLiteral(_ literal: StaticString) throws(IMWireError) {
        let start = position
        let length = literal.utf8CodeUnitCount
        guard count - position >= length,
              memcmp(base + position, literal.utf8Start, length) == 0 else {
            throw syntaxError("expected \(literal)", at: start)
        }
        position += length
    }

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
    private mutating func scanString() throws(IMWireError) -> ScannedString {
        let quote = position
        position += 1
        let start = position
        var nonASCII = false
        while position < count {
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                let end = position
                position += 1
                if nonASCII { try validateUTF8(from: start, to: end) }
                return .raw(start: start, end: end)
            }
            if byte == UInt8(ascii: "\\") { return .unescaped(try scanEscapedString(quote: quote, from: start)) }
            if byte < 0x20 { throw syntaxError("control character inside a string (escape it)") }
            if byte >= 0x80 { nonASCII = true }
            position += 1
        }
        throw syntaxError("unterminated string starting", at: quote)
    }

    private func validateUTF8(from start: Int, to end: Int) throws(IMWireError) {
        let bytes = UnsafeBufferPointer(start: base + start, count: end - start)
        if String(validating: bytes, as: UTF8.self) == nil {
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
                if String(validating: out, as: UTF8.self) == nil {
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

    /// Reads an object at `position` into `message`, merging.
    private mutating func readObject<M: ProtoMessage>(_ message: inout M) throws(IMWireError) {
        position += 1  // '{'
        var seen: UInt64 = 0
        var seenOneof: (name: String, member: String)? = nil
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a key string") }
            let keyOffset = position
            let key = try scanString()
            let schema = M.schema
            let fieldIndex = withBytes(key) { bytes in Self.fieldIndex(in: schema, named: bytes) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after a key")
            skipWhitespace()
            if let fieldIndex {
                let field = schema.fields[fieldIndex]
                let bit: UInt64 = fieldIndex < 64 ? 1 << UInt64(fieldIndex) : 0
                if seen & bit != 0 {
                    throw IMWireError(code: .duplicateKey, reason: "field \(field.name) appears twice (key at offset \(keyOffset))", offset: keyOffset)
                }
                seen |= bit
                if let oneof = field.oneof {
                    if let previous = seenOneof, previous.name == oneof {
                        throw IMWireError(
                            code: .oneofConflict,
                            reason: "oneof \(oneof) has both \(previous.member) and \(field.name) (key at offset \(keyOffset))",
                            offset: keyOffset)
                    }
                    seenOneof = (oneof, field.name)
                }
                if try !consumeNull() {
                    fieldName = field.name
                    _ = try message.decodeField(number: field.number, from: &self)
                }
            } else if ignoreUnknownFields {
                try skipValue()
            } else {
                throw IMWireError(
                    code: .unknownField,
                    reason: "\(M.schema.fullName) has no field \"\(makeString(key))\" (key at offset \(keyOffset))",
                    offset: keyOffset)
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { throw syntaxError("trailing comma before '}'") }
            case UInt8(ascii: "}"):
                position += 1
                return
            default:
                throw syntaxError("expected ',' or '}' in an object")
            }
        }
    }

    /// Finds a field by its JSON name or its proto name.
    private static func fieldIndex(in schema: MessageSchema, named key: UnsafeBufferPointer<UInt8>) -> Int? {
        for (index, field) in schema.fields.enumerated() {
            if Self.equal(field.jsonNameUTF8, key) || Self.equal(field.nameUTF8, key) { return index }
        }
        return nil
    }

    @inline(__always)
    private static func equal(_ name: [UInt8], _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == key.count else { return false }
        return name.withUnsafeBufferPointer { memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }
    }

    /// Skips any JSON value (for ignored unknown fields), checking it is well-formed.
    private mutating func skipValue() throws(IMWireError) {
        switch peek() {
        case UInt8(ascii: "\"")?:
            _ = try scanString()
        case UInt8(ascii: "{")?:
            try enter()
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { position += 1; depth -= 1; return }
            var keys: [[UInt8]] = []
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a key string") }
                let keyOffset = position
                let key = withBytes(try scanString()) { Array($0) }
                if keys.contains(key) {
                    throw IMWireError(code: .duplicateKey, reason: "key \"\(String(decoding: key, as: UTF8.self))\" appears twice (at offset \(keyOffset))", offset: keyOffset)
                }
                keys.append(key)
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "':' after a key")
                skipWhitespace()
                try skipValue()
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if peek() == UInt8(ascii: "}") { throw syntaxError("trailing comma before '}'") }
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}' in an object")
                break
            }
            depth -= 1
        case UInt8(ascii: "[")?:
            try enter()
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { position += 1; depth -= 1; return }
            while true {
                skipWhitespace()
                try skipValue()
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if peek() == UInt8(ascii: "]") { throw syntaxError("trailing comma before ']'") }
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']' in an array")
                break
            }
            depth -= 1
        case UInt8(ascii: "t")?: try expectLiteral("true")
        case UInt8(ascii: "f")?: try expectLiteral("false")
        case UInt8(ascii: "n")?: try expectLiteral("null")
        default: _ = try scanNumber()
        }
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
        guard peek() == UInt8(ascii: "[") else {
            throw valueError(.invalidValue, "expected an array", at: position)
        }
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            if peek() == UInt8(ascii: "n") {
                throw valueError(.invalidValue, "null is not allowed inside an array", at: position)
            }
            try element(&self)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { throw syntaxError("trailing comma before ']'") }
            case UInt8(ascii: "]"):
                position += 1
                return
            default:
                throw syntaxError("expected ',' or ']' in an array")
            }
        }
    }

    // MARK: - Values

    private mutating func readStringValue() throws(IMWireError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw valueError(.invalidValue, "expected a string", at: position) }
        return makeString(try scanString())
    }

    private mutating func readBytesValue() throws(IMWireError) -> [UInt8] {
        guard peek() == UInt8(ascii: "\"") else { throw valueError(.invalidValue, "expected a base64 string", at: position) }
        let start = position
        let scanned = try scanString()
        guard let bytes = withBytes(scanned, { Base64.decode($0) }) else {
            throw valueError(.invalidBase64, "string at offset \(start) is not base64", at: start)
        }
        return bytes
    }

    /// An integer field's value: a JSON number or a string holding one.
    private mutating func readInteger() throws(IMWireError) -> (magnitude: UInt64, negative: Bool, offset: Int) {
        let offset = position
        if peek() == UInt8(ascii: "\"") {
            let scanned = try scanString()
            // The string must hold exactly one JSON number.
            guard case .raw(let start, let end) = scanned, end > start else {
                throw valueError(.invalidNumber, "string at offset \(offset) is not a number", at: offset)
            }
            var inner = self
            inner.position = start
            let token: NumberToken
            do {
                token = try inner.scanNumber()
            } catch {
                throw valueError(.invalidNumber, "string at offset \(offset) is not a number", at: offset)
            }
            guard token.end == end else { throw valueError(.invalidNumber, "string at offset \(offset) is not a number", at: offset) }
            let value = try integerValue(token, base: base)
            return (value.magnitude, value.negative, offset)
        }
        guard let byte = peek(), byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
            throw valueError(.invalidValue, "expected an integer", at: offset)
        }
        let token = try scanNumber()
        let value = try integerValue(token, base: base)
        return (value.magnitude, value.negative, offset)
    }

    private mutating func readDouble() throws(IMWireError) -> Double {
        let offset = position
        var token: NumberToken
        if peek() == UInt8(ascii: "\"") {
            let scanned = try scanString()
            guard case .raw(let start, let end) = scanned else {
                throw valueError(.invalidNumber, "string at offset \(offset) is not a number", at: offset)
            }
            let text = UnsafeBufferPointer(start: base + start, count: end - start)
            if text.elementsEqual("NaN".utf8) { return .nan }
            if text.elementsEqual("Infinity".utf8) { return .infinity }
            if text.elementsEqual("-Infinity".utf8) { return -.infinity }
            var inner = self
            inner.position = start
            do {
                token = try inner.scanNumber()
            } catch {
                throw valueError(.invalidNumber, "string at offset \(offset) is not a number", at: offset)
            }
            guard token.end == end else { throw valueError(.invalidNumber, "string at offset \(offset) is not a number", at: offset) }
        } else {
            guard let byte = peek(), byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
                throw valueError(.invalidValue, "expected a number", at: offset)
            }
            token = try scanNumber()
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + token.start, count: token.end - token.start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw valueError(.numberOutOfRange, "\(numberText(token)) is out of the range of a double", at: offset)
        }
        return value
    }

    // MARK: - FieldDecoder

    package mutating func decodeString(_ value: inout String) throws(IMWireError) -> Bool {
        value = try readStringValue()
        return true
    }

    package mutating func decodeBytes(_ value: inout [UInt8]) throws(IMWireError) -> Bool {
        value = try readBytesValue()
        return true
    }

    package mutating func decodeUInt64(_ value: inout UInt64) throws(IMWireError) -> Bool {
        let number = try readInteger()
        if number.negative, number.magnitude != 0 {
            throw valueError(.numberOutOfRange, "uint64 cannot be negative", at: number.offset)
        }
        value = number.magnitude
        return true
    }

    package mutating func decodeUInt32(_ value: inout UInt32) throws(IMWireError) -> Bool {
        let number = try readInteger()
        guard !number.negative || number.magnitude == 0, number.magnitude <= UInt64(UInt32.max) else {
            throw valueError(.numberOutOfRange, "value is out of the range of uint32", at: number.offset)
        }
        value = UInt32(number.magnitude)
        return true
    }

    package mutating func decodeInt32(_ value: inout Int32) throws(IMWireError) -> Bool {
        value = try readInt32()
        return true
    }

    private mutating func readInt32() throws(IMWireError) -> Int32 {
        let number = try readInteger()
        if number.negative {
            guard number.magnitude <= UInt64(Int32.max) + 1 else {
                throw valueError(.numberOutOfRange, "value is out of the range of int32", at: number.offset)
            }
            return Int32(truncatingIfNeeded: 0 &- Int64(number.magnitude))
        }
        guard number.magnitude <= UInt64(Int32.max) else {
            throw valueError(.numberOutOfRange, "value is out of the range of int32", at: number.offset)
        }
        return Int32(number.magnitude)
    }

    package mutating func decodeBool(_ value: inout Bool) throws(IMWireError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            value = true
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            value = false
        default:
            throw valueError(.invalidValue, "expected true or false", at: position)
        }
        return true
    }

    package mutating func decodeDouble(_ value: inout Double) throws(IMWireError) -> Bool {
        value = try readDouble()
        return true
    }

    package mutating func decodeEnum<E: ProtoEnum>(_ value: inout E) throws(IMWireError) -> Bool {
        if peek() == UInt8(ascii: "\"") {
            let offset = position
            let scanned = try scanString()
            let number: Int32? = withBytes(scanned) { bytes in
                E.schema.values.first { $0.name.utf8.elementsEqual(bytes) }?.number
            }
            if let number {
                value = E(rawValue: number)
            } else if !ignoreUnknownFields {
                throw valueError(.invalidValue, "\"\(makeString(scanned))\" is not a value of \(E.schema.fullName)", at: offset)
            }
            return true
        }
        value = E(rawValue: try readInt32())
        return true
    }

    package mutating func decodeMessage<M: ProtoMessage>(_ value: inout M) throws(IMWireError) -> Bool {
        guard peek() == UInt8(ascii: "{") else {
            throw valueError(.invalidValue, "expected an object", at: position)
        }
        try enter()
        try readObject(&value)
        depth -= 1
        return true
    }

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

    package mutating func decodeStringToBytesMap(_ value: inout StringBytesMap) throws(IMWireError) -> Bool {
        guard peek() == UInt8(ascii: "{") else {
            throw valueError(.invalidValue, "expected an object", at: position)
        }
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return true
        }
        while true {
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
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { throw syntaxError("trailing comma before '}'") }
            case UInt8(ascii: "}"):
                position += 1
                return true
            default:
                throw syntaxError("expected ',' or '}' in an object")
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
