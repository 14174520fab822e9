import IMWireCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lexical layer of both JSON dialects, proto3 JSON (``JSONReader``) and Tencent's REST JSON
/// (``JSONTape``, read by the tim-rest decoder): a cursor over borrowed UTF-8 bytes that scans
/// strings (escapes and UTF-8 checked, unescaped only when there are escapes), numbers (checked
/// against the JSON grammar, parsed exactly once by whoever needs the value), literals and
/// punctuation, and walks whole values without recursion.
///
/// Every error is an ``IMWireError`` with the byte offset where the problem is.
@usableFromInline package struct JSONScanner {
    @usableFromInline package let base: UnsafePointer<UInt8>
    @usableFromInline package let count: Int
    @usableFromInline package var position = 0
    /// The unescaped bytes of every string with escapes scanned so far, one after the other (a
    /// ``ScannedString`` of such a string names its range here).
    @usableFromInline package var unescaped: [UInt8] = []

    @inlinable
    package init(_ buffer: UnsafeBufferPointer<UInt8>) {
        base = buffer.readableBase
        count = buffer.count
    }

    // MARK: - Errors

    @inline(never)
    @usableFromInline package func syntaxError(_ reason: String, at offset: Int? = nil) -> IMWireError {
        // [unsafe: json-scanner] `base[at]` after `at < count`.
        let at = offset ?? position
        let found = at < count ? describeByte(base[at]) : "the end of input"
        return .jsonSyntax("\(reason), found \(found)", offset: at)
    }

    /// The error for a document whose value at `position` is not the object expected: names a
    /// UTF-8 byte-order mark before the text, or the JSON value found (`null`, an array, …).
    @inline(never)
    @usableFromInline package func notAnObjectError() -> IMWireError {
        if let bom = byteOrderMarkError() { return bom }
        let found: String
        switch peek() {
        case UInt8(ascii: "n")?: found = "null"
        case UInt8(ascii: "t")?: found = "true"
        case UInt8(ascii: "f")?: found = "false"
        case UInt8(ascii: "\"")?: found = "a string"
        case UInt8(ascii: "[")?: found = "an array"
        case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            found = "a number"
        default:
            return syntaxError("expected a JSON object")
        }
        return .jsonSyntax("expected a JSON object, found \(found)", offset: position)
    }

    /// `json_syntax` at byte 0 when the input starts with a UTF-8 byte-order mark (EF BB BF): JSON
    /// text has none (RFC 8259, section 8.1), and a reader that skipped it would accept text
    /// other JSON parsers refuse. `nil` for any other input.
    @inlinable
    package func byteOrderMarkError() -> IMWireError? {
        // [unsafe: json-scanner] three bytes after `count >= 3`.
        guard count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF else { return nil }
        return .jsonSyntax(
            "the input starts with a UTF-8 byte-order mark (EF BB BF), which JSON text must not have (RFC 8259, section 8.1); remove it",
            offset: 0)
    }

    @inlinable
    package func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    // MARK: - Punctuation and literals

    @inline(__always)
    @inlinable
    package func peek() -> UInt8? {
        // [unsafe: json-scanner] `base[position]` after `position < count`.
        position < count ? base[position] : nil
    }

    @inline(__always)
    @inlinable
    package mutating func skipWhitespace() {
        // [unsafe: json-scanner] `base[position]` after `position < count`.
        while position < count {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    @inline(never)
    @usableFromInline package mutating func expect(_ byte: UInt8, _ what: String) throws(IMWireError) {
        // [unsafe: json-scanner] `base[position]` after `position < count`.
        guard position < count, base[position] == byte else { throw syntaxError("expected \(what)") }
        position += 1
    }

    /// Consumes `null` if it is next.
    @inlinable
    package mutating func consumeNull() throws(IMWireError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try expectLiteral("null")
        return true
    }

    @inline(never)
    @usableFromInline package mutating func expectLiteral(_ literal: StaticString) throws(IMWireError) {
        // [unsafe: json-scanner] the literal's `length` bytes after `count - position >= length`.
        let start = position
        let length = literal.utf8CodeUnitCount
        guard count - position >= length,
              memcmp(base + position, literal.utf8Start, length) == 0 else {
            throw syntaxError("expected \(literal)", at: start)
        }
        position += length
    }

    /// After `{` or `[` at `position`: consumes it and any whitespace; returns `false` (having
    /// consumed the closing bracket) for an empty container.
    @inline(never)
    @usableFromInline package mutating func openContainer() throws(IMWireError) -> Bool {
        // [unsafe: json-scanner] every caller peeked the bracket at `position` (so `position < count`) before
        // calling; the assert holds it.
        assert(position < count, "openContainer() without a bracket at the position")
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
    @usableFromInline package mutating func nextMember(closing: UInt8) throws(IMWireError) -> Bool {
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

    /// Inside an object, at a member: its key string and `:`, leaving `position` on the value.
    @inline(never)
    @usableFromInline package mutating func scanKey() throws(IMWireError) -> (key: ScannedString, offset: Int) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a key string") }
        let offset = position
        let key = try scanString()
        skipWhitespace()
        try expect(UInt8(ascii: ":"), "':' after a key")
        skipWhitespace()
        return (key, offset)
    }

    // MARK: - Strings

    /// A scanned string: the range of its bytes, between the quotes in the input when it has no
    /// escapes, else in the scanner's ``JSONScanner/unescaped`` bytes. (A plain value: passing one
    /// around costs no reference counting.)
    @usableFromInline package struct ScannedString {
        @usableFromInline package let start: Int
        @usableFromInline package let end: Int
        @usableFromInline package let isUnescaped: Bool
        /// Whether every byte is ASCII, where the scan knows it (a string without escapes).
        @usableFromInline package var isASCII = false

        @inlinable
        package init(start: Int, end: Int, isUnescaped: Bool, isASCII: Bool = false) {
            self.start = start
            self.end = end
            self.isUnescaped = isUnescaped
            self.isASCII = isASCII
        }
    }

    /// Scans a string at `position` (which holds `"`), checking escapes and UTF-8.
    @inline(never)
    @usableFromInline package mutating func scanString() throws(IMWireError) -> ScannedString {
        // [unsafe: json-scanner] eight-byte loads after `count - at >= 8`, single bytes after `at < count`;
        // the string's range ends at its closing quote, inside the input.
        let quote = position
        let start = quote + 1
        // A local cursor: `position` lives in memory behind `self`, this one in a register.
        var at = start
        let base = self.base
        let count = self.count
        var nonASCII: UInt8 = 0
        while at < count {
            // Eight bytes at a time up to the first quote, backslash or control character, which
            // the byte-by-byte step below then handles (as it does the last few bytes).
            while count - at >= 8 {
                let word = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)
                let special = JSONEscapeScan.mask(word)
                if special == 0 {
                    if word & 0x8080_8080_8080_8080 != 0 { nonASCII = 0x80 }
                    at += 8
                    continue
                }
                let ordinary = special.trailingZeroBitCount &>> 3
                // The bytes before the special one: a mask of their high bits.
                if word & 0x8080_8080_8080_8080 & (special &- 1) != 0 { nonASCII = 0x80 }
                at += ordinary
                break
            }
            guard at < count else { break }
            let byte = base[at]
            if byte == UInt8(ascii: "\"") {
                position = at + 1
                if nonASCII != 0 { try validateUTF8(from: start, to: at) }
                return ScannedString(start: start, end: at, isUnescaped: false, isASCII: nonASCII == 0)
            }
            if byte == UInt8(ascii: "\\") {
                position = at
                return try scanEscapedString(quote: quote, from: start)
            }
            if byte < 0x20 {
                position = at
                throw syntaxError("control character inside a string (escape it)")
            }
            nonASCII |= byte & 0x80
            at += 1
        }
        position = at
        throw .unterminatedString(quote: quote)
    }

    @inlinable
    func validateUTF8(from start: Int, to end: Int) throws(IMWireError) {
        // [unsafe: json-scanner] `start...end` is a scanned string inside the input; `bad` is below `end` for
        // an invalid string (``WireCursor/invalidUTF8(_:at:)`` argues the same).
        let bytes = UnsafeBufferPointer(start: base + start, count: end - start)
        if !UTF8Validation.isValid(bytes) {
            let bad = start + UTF8Validation.firstInvalidIndex(bytes)
            throw .invalidUTF8(jsonTextAt: start, bad: bad, badByte: base[bad])
        }
    }

    /// The slow path: a string with escapes. `position` is at the first backslash. The unescaped
    /// bytes go to the end of ``unescaped``.
    @inlinable
    mutating func scanEscapedString(quote: Int, from start: Int) throws(IMWireError) -> ScannedString {
        // [unsafe: json-scanner] bytes read after `position < count` (or `count - position >= 6`, `count -
        // end >= 8` for wider reads); copied runs are `position..<end` with `end <= count`; the rebased slice
        // is `outStart..<out.count` of `out`.
        let outStart = unescaped.count
        // Moved out while it is written (uniquely referenced: appends stay in place), put back after.
        var out: [UInt8] = []
        swap(&out, &unescaped)
        defer { swap(&out, &unescaped) }
        // Room at once for what is left of the input, up to 16 KiB (a string's unescaped bytes are never
        // more than its raw ones), instead of growing by doubling from the first escape through a
        // long text; at least doubled when it grows, so a document's strings stay linear to unescape.
        let needed = outStart + Swift.min(count - start, 16 * 1024)
        if out.capacity < needed { out.reserveCapacity(Swift.max(needed, 2 * out.capacity)) }
        out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: position - start))
        while position < count {
            let byte = base[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                if !out.withUnsafeBufferPointer({ UTF8Validation.isValid(UnsafeBufferPointer(rebasing: $0[outStart...])) }) {
                    throw .invalidUTF8(jsonStringAt: quote)
                }
                return ScannedString(start: outStart, end: out.count, isUnescaped: true)
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
                            throw .invalidEscape("\\u escape is a lone high surrogate", offset: escape)
                        }
                        position += 2
                        let low = try readHex4(escape: position - 2)
                        guard low >= 0xDC00, low <= 0xDFFF else {
                            throw .invalidEscape("\\u escape is a high surrogate not followed by a low one", offset: escape)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00, scalar <= 0xDFFF {
                        throw .invalidEscape("\\u escape is a lone low surrogate", offset: escape)
                    }
                    Self.appendUTF8(scalar, to: &out)
                default:
                    throw .invalidEscape("unknown escape \\\(describeByte(letter))", offset: escape)
                }
            default:
                if byte < 0x20 { throw syntaxError("control character inside a string (escape it)") }
                // The run of ordinary bytes up to the next quote, backslash or control character,
                // found eight at a time and copied at once.
                var end = position + 1
                while count - end >= 8 {
                    let special = JSONEscapeScan.mask(UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self))
                    if special != 0 {
                        end += special.trailingZeroBitCount &>> 3
                        break
                    }
                    end += 8
                }
                while end < count, base[end] >= 0x20, base[end] != UInt8(ascii: "\""), base[end] != UInt8(ascii: "\\") { end += 1 }
                out.append(contentsOf: UnsafeBufferPointer(start: base + position, count: end - position))
                position = end
            }
        }
        throw .unterminatedString(quote: quote)
    }

    @inlinable
    mutating func readHex4(escape: Int) throws(IMWireError) -> UInt32 {
        // [unsafe: json-scanner] `base[position]` after `position < count`.
        var value: UInt32 = 0
        for _ in 0..<4 {
            // Past the end counts as a byte that is no hex digit.
            let byte = position < count ? base[position] : 0
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw .invalidEscape("\\u escape needs four hex digits", offset: escape)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    @inlinable
    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
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

    /// The string's value, already checked as UTF-8.
    @inline(never)
    @usableFromInline package func makeString(_ scanned: ScannedString) -> String {
        // Already validated (or ASCII): decoding cannot repair anything here.
        withBytes(scanned) { String(decoding: $0, as: UTF8.self) }
    }

    /// A scanned string's value as a `String`: its bytes were checked as UTF-8 by the scan, so they
    /// are copied once and not checked again. `smallStrings`: ``SmallString/isAvailable``, which a
    /// reader reads once, not per string.
    @inline(__always)
    @inlinable
    package func validatedString(_ scanned: ScannedString, smallStrings: Bool) -> String {
        // [unsafe: json-scanner] a scanned string's range is inside the input or the unescaped bytes.
        if scanned.end == scanned.start { return "" }
        if !scanned.isUnescaped {
            return UTF8Validation.string(
                validated: UnsafeBufferPointer(start: base + scanned.start, count: scanned.end &- scanned.start),
                isASCII: scanned.isASCII, smallStrings: smallStrings)
        }
        return unescaped.withUnsafeBufferPointer { all in
            UTF8Validation.string(
                validated: UnsafeBufferPointer(rebasing: all[scanned.start..<scanned.end]), isASCII: false, smallStrings: smallStrings)
        }
    }

    /// Forgets the unescaped bytes of the strings scanned so far, keeping their room: for a reader
    /// that has copied out every such string it will read.
    @inlinable
    package mutating func discardUnescaped() {
        unescaped.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the string's value bytes.
    @inline(__always)
    @inlinable
    package func withBytes<R>(_ scanned: ScannedString, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // [unsafe: json-scanner] a scanned string's range is inside the input (unescaped: inside
        // ``unescaped``, which only grows until ``discardUnescaped()``, after which no earlier scanned string
        // is read).
        if scanned.isUnescaped {
            return unescaped.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[scanned.start..<scanned.end])) }
        }
        return body(UnsafeBufferPointer(start: base + scanned.start, count: scanned.end - scanned.start))
    }

    // MARK: - Numbers

    /// A scanned JSON number: its sign, the digits before and after the point and the exponent.
    @usableFromInline package struct NumberToken {
        @usableFromInline package var start: Int
        @usableFromInline package var end: Int
        @usableFromInline package var negative: Bool
        @usableFromInline package var integerDigits: Range<Int>
        @usableFromInline package var fractionDigits: Range<Int>
        /// The exponent, clamped to ±1_000_000_000 (any larger is out of every range anyway).
        @usableFromInline package var exponent: Int
    }

    /// Scans a number per the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inline(never)
    @usableFromInline package mutating func scanNumber() throws(IMWireError) -> NumberToken {
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

    /// A whole string that must be one JSON number (escapes allowed, as in any JSON string): a
    /// scanner over its bytes and the token, or `nil`.
    @inlinable
    package static func withNumber<R>(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (JSONScanner, NumberToken) throws(IMWireError) -> R
    ) throws(IMWireError) -> R? {
        var inner = JSONScanner(bytes)
        guard bytes.count > 0, let token = try? inner.scanNumber(), token.end == bytes.count else { return nil }
        return try body(inner, token)
    }

    /// The exact integer a number token denotes (no floating point: "1.5e1" is 15, "1e2" is 100,
    /// "1.5" is not an integer): the magnitude and the sign. `invalid_number` for a fraction,
    /// `number_out_of_range` for a magnitude above `UInt64.max`; the reason starts with the number.
    @inlinable
    package func integerValue(_ token: NumberToken) throws(IMWireError) -> (magnitude: UInt64, negative: Bool) {
        // [unsafe: json-scanner] a number token's digit ranges were scanned inside the input.
        let integerCount = token.integerDigits.count
        if token.fractionDigits.isEmpty, token.exponent == 0, integerCount <= 19 {
            // The common case, a plain integer of up to 19 digits: it cannot overflow.
            var magnitude: UInt64 = 0
            for position in token.integerDigits { magnitude = magnitude &* 10 &+ UInt64(base[position] &- UInt8(ascii: "0")) }
            return (magnitude, token.negative)
        }
        let digitCount = integerCount + token.fractionDigits.count
        func digit(_ index: Int) -> UInt8 {
            // [unsafe: json-scanner] `index < integerCount + fractionCount` (the callers' loops), which maps
            // into the token's digit ranges.
            let position = index < integerCount
                ? token.integerDigits.lowerBound + index
                : token.fractionDigits.lowerBound + index - integerCount
            return base[position] &- UInt8(ascii: "0")
        }
        var first = 0
        while first < digitCount, digit(first) == 0 { first += 1 }
        if first == digitCount { return (0, token.negative) }
        var end = digitCount
        while digit(end - 1) == 0 { end -= 1 }
        // value = digits[first..<end] × 10^scale
        let scale = token.exponent - token.fractionDigits.count + (digitCount - end)
        if scale < 0 {
            throw .notAnInteger(numberText(token), offset: token.start)
        }
        var magnitude: UInt64 = 0
        // More than 20 digits cannot fit: refused before a loop as long as the exponent.
        var overflow = end - first + scale > 20
        if !overflow {
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
        }
        if overflow {
            throw .numberOutOfRange("\(numberText(token)) is out of range", offset: token.start)
        }
        return (magnitude, token.negative)
    }

    /// The double a number token denotes; `number_out_of_range` when it overflows.
    @inlinable
    package func doubleValue(_ token: NumberToken) throws(IMWireError) -> Double {
        // [unsafe: json-scanner] the token's `start..<end` was scanned inside the input.
        let text = String(decoding: UnsafeBufferPointer(start: base + token.start, count: token.end - token.start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw .beyondDouble(numberText(token), offset: token.start)
        }
        return value
    }

    /// The number as written, shortened to 40 characters, for messages.
    @inlinable
    package func numberText(_ token: NumberToken) -> String {
        // [unsafe: json-scanner] at most the token's `end - start` bytes from its start.
        let length = min(token.end - token.start, 40)
        let text = String(decoding: UnsafeBufferPointer(start: base + token.start, count: length), as: UTF8.self)
        return token.end - token.start > 40 ? text + "…" : text
    }

    // MARK: - Whole values

    /// What ``walkValue(depth:maxDepth:into:)`` reports, token by token, in document order.
    @usableFromInline package protocol Sink {
        /// `{` or `[` at `offset`.
        @inlinable
        mutating func open(object: Bool, at offset: Int)
        /// The matching `}` or `]`, after `members` members or elements.
        @inlinable
        mutating func close(members: Int)
        /// A key, then its value.
        @inlinable
        mutating func key(_ key: ScannedString, at offset: Int)
        mutating func string(_ string: ScannedString, at offset: Int)
        @inlinable
        mutating func number(_ token: NumberToken)
        /// `true`, `false` or `null` (`nil`).
        @inlinable
        mutating func literal(_ value: Bool?, at offset: Int)
    }

    /// Walks one JSON value at `position` without recursion — an explicit stack of open
    /// containers — checking it is well-formed and free of duplicate keys, and that containers nest
    /// no deeper than `maxDepth` (counting from `depth`, the level of the value's container).
    /// Linear in the value's size whatever its shape: keys are compared by their bytes, through a
    /// hashed set once an object has more than a few.
    @inlinable
    package mutating func walkValue<S: Sink>(depth: Int, maxDepth: Int, into sink: inout S) throws(IMWireError) {
        var open: [OpenContainer] = []
        while true {
            // A value.
            let offset = position
            switch peek() {
            case UInt8(ascii: "\"")?:
                sink.string(try scanString(), at: offset)
            case let bracket? where bracket == UInt8(ascii: "{") || bracket == UInt8(ascii: "["):
                guard depth + open.count < maxDepth else {
                    throw .depthLimitExceeded(.json, limit: maxDepth, offset: position)
                }
                let isObject = bracket == UInt8(ascii: "{")
                sink.open(object: isObject, at: offset)
                if try openContainer() {
                    open.append(OpenContainer(isObject: isObject))
                    if isObject { try walkKey(&open[open.count - 1], into: &sink) }
                    continue
                }
                sink.close(members: 0)
            case UInt8(ascii: "t")?:
                try expectLiteral("true")
                sink.literal(true, at: offset)
            case UInt8(ascii: "f")?:
                try expectLiteral("false")
                sink.literal(false, at: offset)
            case UInt8(ascii: "n")?:
                try expectLiteral("null")
                sink.literal(nil, at: offset)
            default:
                sink.number(try scanNumber())
            }
            // After a value: close every container that ends here, then go on to the next value.
            while !open.isEmpty {
                let last = open.count - 1
                open[last].members += 1
                if try nextMember(closing: open[last].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    if open[last].isObject { try walkKey(&open[last], into: &sink) }
                    break
                }
                sink.close(members: open[last].members)
                open.removeLast()
            }
            if open.isEmpty { return }
        }
    }

    /// An object or array ``walkValue(depth:maxDepth:into:)`` is inside.
    @usableFromInline struct OpenContainer {
        @usableFromInline let isObject: Bool
        @usableFromInline var members = 0
        /// The keys so far, while they are few (compared one by one), …
        @usableFromInline var fewKeys: [ScannedString] = []
        /// … then all of them, hashed.
        @usableFromInline var manyKeys: Set<[UInt8]>? = nil

        @inlinable
        init(isObject: Bool) { self.isObject = isObject }
    }

    /// Inside an object: a key (rejecting a duplicate) and its `:`.
    @inlinable
    mutating func walkKey<S: Sink>(_ container: inout OpenContainer, into sink: inout S) throws(IMWireError) {
        let (key, offset) = try scanKey()
        if var keys = container.manyKeys {
            container.manyKeys = nil  // uniquely referenced while it grows
            let inserted = withBytes(key) { keys.insert(Array($0)).inserted }
            container.manyKeys = keys
            if !inserted { throw duplicateKey(key, at: offset) }
        } else {
            for earlier in container.fewKeys where withBytes(earlier, { a in withBytes(key) { b in a.elementsEqual(b) } }) {
                throw duplicateKey(key, at: offset)
            }
            container.fewKeys.append(key)
            if container.fewKeys.count > 8 {
                var keys = Set<[UInt8]>()
                for earlier in container.fewKeys { withBytes(earlier) { _ = keys.insert(Array($0)) } }
                container.manyKeys = keys
                container.fewKeys = []
            }
        }
        sink.key(key, at: offset)
    }

    @inlinable
    func duplicateKey(_ key: ScannedString, at offset: Int) -> IMWireError {
        .duplicateKey(makeString(key), offset: offset)
    }
}

extension JSONScanner {
    /// A ``Sink`` that keeps nothing: for values that are only checked and skipped.
    @usableFromInline package struct DiscardingSink: Sink {
        @inlinable
        package init() {}
        @inlinable
        package mutating func open(object: Bool, at offset: Int) {}
        @inlinable
        package mutating func close(members: Int) {}
        @inlinable
        package mutating func key(_ key: ScannedString, at offset: Int) {}
        @inlinable
        package mutating func string(_ string: ScannedString, at offset: Int) {}
        @inlinable
        package mutating func number(_ token: NumberToken) {}
        @inlinable
        package mutating func literal(_ value: Bool?, at offset: Int) {}
    }
}
