/// Reads proto3 JSON straight from UTF-8 bytes in one pass — no Foundation, no Codable, no
/// intermediate tree — driven by the same per-type field tables as the binary decoder, on the
/// lexical layer both JSON dialects share (``JSONScanner``).
///
/// Accepts lowerCamelCase and original field names, 64-bit integers as numbers or strings (any
/// integer as a string, exponent forms when integral), enums by name or number, standard and
/// URL-safe base64 with or without padding, `null` as absent. Rejects, with the byte offset:
/// malformed JSON (including trailing commas and data after the value), duplicate keys, two members
/// of one oneof, unknown keys (unless ignored), invalid UTF-8, lone surrogate escapes, out-of-range
/// numbers, fractions in integer fields, nesting past the depth limit or past what the thread's
/// stack holds.
package struct JSONReader: FieldDecoder {
    private var scanner: JSONScanner
    private var depth = 1
    private let maxDepth: Int
    private let ignoreUnknownFields: Bool
    /// The field whose value is being read (its schema and index), for messages.
    private unowned(unsafe) var fieldSchema: MessageSchema?
    private var fieldIndex = 0
    private var fieldName: String { fieldSchema?.fields[fieldIndex].name ?? "" }
    private var stackGuard = StackGuard()
    /// Where skipped keys go when the caller asked for a report (``decode(_:from:options:report:)``);
    /// `nil` otherwise. Touched only on the skip path.
    private let skips: UnsafeMutablePointer<[JSONSkip]>?

    package static func decode<M: ProtoMessage>(
        _ type: M.Type, from buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions
    ) throws(IMWireError) -> M {
        try decode(type, from: buffer, options: options, skips: nil)
    }

    /// Decodes as ``decode(_:from:options:)`` and replaces `report`'s content with the keys and enum
    /// names skipped (only with ``JSONDecodingOptions/ignoreUnknownFields``), their paths found by
    /// a second walk of the input that runs only when something was skipped.
    package static func decode<M: ProtoMessage>(
        _ type: M.Type, from buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions, report: inout DecodingReport
    ) throws(IMWireError) -> M {
        var skips: [JSONSkip] = []
        let message = try withUnsafeMutablePointer(to: &skips) { (pointer) throws(IMWireError) in
            try decode(type, from: buffer, options: options, skips: pointer)
        }
        report = DecodingReport(skippedKeys: JSONSkip.resolve(skips, in: buffer))
        return message
    }

    private static func decode<M: ProtoMessage>(
        _ type: M.Type, from buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions,
        skips: UnsafeMutablePointer<[JSONSkip]>?
    ) throws(IMWireError) -> M {
        guard buffer.count <= options.maxInputSize else {
            throw IMWireError(
                code: .inputTooLarge,
                reason: "input of \(counted(buffer.count, "byte")) is larger than the limit of \(counted(options.maxInputSize, "byte"))",
                offset: 0)
        }
        var reader = JSONReader(buffer, options: options, skips: skips)
        var message = M()
        reader.scanner.skipWhitespace()
        guard reader.scanner.peek() == UInt8(ascii: "{") else {
            guard reader.scanner.count > 0 else {
                throw IMWireError(code: .jsonSyntax, reason: "the input is empty; expected a JSON object", offset: 0)
            }
            throw reader.scanner.notAnObjectError()
        }
        try reader.readObject(&message)
        reader.scanner.skipWhitespace()
        guard reader.scanner.position == reader.scanner.count else {
            throw reader.scanner.syntaxError("unexpected data after the JSON object")
        }
        return message
    }

    private init(_ buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions, skips: UnsafeMutablePointer<[JSONSkip]>?) {
        scanner = JSONScanner(buffer)
        maxDepth = options.maxDepth
        ignoreUnknownFields = options.ignoreUnknownFields
        self.skips = skips
    }

    // MARK: - Errors

    private func valueError(_ code: IMWireError.Code, _ reason: String, at offset: Int) -> IMWireError {
        IMWireError(code: code, reason: "field \(fieldName): \(reason)", offset: offset)
    }

    /// A scanner error about a value, with the field's name in front.
    private func valueError(_ error: IMWireError) -> IMWireError {
        valueError(error.code, error.reason, at: error.offset ?? scanner.position)
    }

    // MARK: - Nesting

    @inline(never)
    private mutating func enter() throws(IMWireError) {
        guard depth < maxDepth else {
            throw IMWireError(
                code: .depthLimitExceeded, reason: "nesting exceeds the limit of \(counted(maxDepth, "level"))",
                offset: scanner.position)
        }
        depth += 1
        try stackGuard.check(depth: depth, offset: scanner.position)
    }

    // MARK: - Objects

    /// What ``readObject(_:)`` remembers about the members it has read.
    private struct ObjectState {
        /// Field indices given (a key, possibly `null`).
        var seen = FieldIndexSet()
        /// Field indices of oneof members given a value (not `null`).
        var oneofMembers = FieldIndexSet()
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
        guard try scanner.openContainer() else { return }
        repeat {
            if case .field(let number) = try readMemberKey(M.self, state: &state) {
                _ = try message.decodeField(number: number, from: &self)
            }
        } while try scanner.nextMember(closing: UInt8(ascii: "}"))
    }

    /// Reads a member's key and `:`, checks duplicates and oneofs, and handles `null` and ignored
    /// unknown fields.
    @inline(never)
    private mutating func readMemberKey<M: ProtoMessage>(_ type: M.Type, state: inout ObjectState) throws(IMWireError) -> Member {
        let (key, keyOffset) = try scanner.scanKey()
        let schema = M.schema
        guard let fieldIndex = scanner.withBytes(key, { bytes in schema.fieldIndex(named: bytes) }) else {
            try skipUnknownMember(key, at: keyOffset, of: schema, state: &state)
            return .handled
        }
        guard state.seen.insert(fieldIndex) else {
            throw IMWireError(code: .duplicateKey, reason: "field \(schema.fields[fieldIndex].name) appears twice", offset: keyOffset)
        }
        // `null` leaves a field unset, a oneof member too: `{"receiver": null, "groupId": "g"}`
        // sets only the group (Google's Required OneofFieldNullFirst / NullSecond).
        if try scanner.consumeNull() { return .handled }
        let oneof = schema.oneofIDs[fieldIndex]
        if oneof >= 0 {
            for otherIndex in state.oneofMembers where schema.oneofIDs[otherIndex] == oneof {
                let (field, other) = (schema.fields[fieldIndex], schema.fields[otherIndex])
                throw IMWireError(
                    code: .oneofConflict,
                    reason: "oneof \(field.oneof ?? "") has both \(other.name) and \(field.name)",
                    offset: keyOffset)
            }
            _ = state.oneofMembers.insert(fieldIndex)
        }
        fieldSchema = schema
        self.fieldIndex = fieldIndex
        return .field(number: schema.numbers[fieldIndex])
    }

    /// An unknown key: `unknown_field`, or with ``JSONDecodingOptions/ignoreUnknownFields`` its
    /// value is checked and skipped (and recorded when a report was asked for).
    @inline(never)
    private mutating func skipUnknownMember(
        _ key: JSONScanner.ScannedString, at keyOffset: Int, of schema: MessageSchema, state: inout ObjectState
    ) throws(IMWireError) {
        guard ignoreUnknownFields else {
            throw IMWireError(code: .unknownField, reason: JSONSkip.unknownKey(scanner.makeString(key), in: schema).detail, offset: keyOffset)
        }
        guard state.unknownKeys.insert(scanner.withBytes(key) { Array($0) }).inserted else {
            throw IMWireError(code: .duplicateKey, reason: "key \"\(scanner.makeString(key))\" appears twice", offset: keyOffset)
        }
        var discard = JSONScanner.DiscardingSink()
        try scanner.walkValue(depth: depth, maxDepth: maxDepth, into: &discard)
        if let skips {
            var skip = JSONSkip.unknownKey(scanner.makeString(key), in: schema)
            skip.offset = keyOffset
            skips.pointee.append(skip)
        }
    }

    // MARK: - Arrays

    private mutating func readArray(_ element: (inout JSONReader) throws(IMWireError) -> Void) throws(IMWireError) {
        guard scanner.peek() == UInt8(ascii: "[") else { throw mismatch("an array") }
        guard try scanner.openContainer() else { return }
        repeat {
            scanner.skipWhitespace()
            if scanner.peek() == UInt8(ascii: "n") {
                throw valueError(.invalidValue, "null is not allowed inside an array", at: scanner.position)
            }
            try element(&self)
        } while try scanner.nextMember(closing: UInt8(ascii: "]"))
    }

    // MARK: - Values

    /// The error for a value of the wrong type: `json_syntax` when the byte starts no JSON value
    /// at all, else `invalid_value`.
    @inline(never)
    private func mismatch(_ expected: String) -> IMWireError {
        switch scanner.peek() ?? 0 {
        case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "t"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return valueError(.invalidValue, "expected \(expected)", at: scanner.position)
        default:
            return scanner.syntaxError("expected a JSON value")
        }
    }

    private mutating func readStringValue() throws(IMWireError) -> String {
        guard scanner.peek() == UInt8(ascii: "\"") else { throw mismatch("a string") }
        return scanner.makeString(try scanner.scanString())
    }

    private mutating func readBytesValue() throws(IMWireError) -> [UInt8] {
        guard scanner.peek() == UInt8(ascii: "\"") else { throw mismatch("a base64 string") }
        let start = scanner.position
        let scanned = try scanner.scanString()
        guard let bytes = scanner.withBytes(scanned, { Base64.decode($0) }) else {
            throw valueError(.invalidBase64, "string is not base64", at: start)
        }
        return bytes
    }

    /// A number written inside a string: the whole string must be one JSON number (escapes
    /// allowed, as any JSON string may use them). `body` gets a scanner over the string's bytes;
    /// its errors are anchored at the string in the real input, with the field's name.
    private func withNumberInString<R>(
        _ scanned: JSONScanner.ScannedString, offset: Int, _ body: (JSONScanner, JSONScanner.NumberToken) throws(IMWireError) -> R
    ) throws(IMWireError) -> R {
        let result: Result<R?, IMWireError> = scanner.withBytes(scanned) { bytes in
            do throws(IMWireError) {
                return .success(try JSONScanner.withNumber(in: bytes, body))
            } catch {
                return .failure(valueError(error.code, error.reason, at: offset))
            }
        }
        guard let value = try result.get() else {
            throw valueError(.invalidNumber, "string is not a number", at: offset)
        }
        return value
    }

    /// An integer field's value: a JSON number or a string holding one.
    private mutating func readInteger() throws(IMWireError) -> (magnitude: UInt64, negative: Bool, offset: Int) {
        let offset = scanner.position
        if scanner.peek() == UInt8(ascii: "\"") {
            let scanned = try scanner.scanString()
            let value = try withNumberInString(scanned, offset: offset) { (inner, token) throws(IMWireError) in
                try inner.integerValue(token)
            }
            return (value.magnitude, value.negative, offset)
        }
        guard let byte = scanner.peek(), byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
            throw mismatch("an integer")
        }
        let token = try scanner.scanNumber()
        do {
            let value = try scanner.integerValue(token)
            return (value.magnitude, value.negative, offset)
        } catch {
            throw valueError(error)
        }
    }

    private mutating func readDouble() throws(IMWireError) -> Double {
        let offset = scanner.position
        if scanner.peek() == UInt8(ascii: "\"") {
            let scanned = try scanner.scanString()
            let special: Double? = scanner.withBytes(scanned) { text in
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
        guard let byte = scanner.peek(), byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
            throw mismatch("a number")
        }
        let token = try scanner.scanNumber()
        do {
            return try scanner.doubleValue(token)
        } catch {
            throw valueError(error)
        }
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
        switch scanner.peek() {
        case UInt8(ascii: "t"):
            try scanner.expectLiteral("true")
            value = true
        case UInt8(ascii: "f"):
            try scanner.expectLiteral("false")
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
        guard scanner.peek() == UInt8(ascii: "\"") else {
            value = E(rawValue: try readInt32())
            return true
        }
        let offset = scanner.position
        let scanned = try scanner.scanString()
        if let number = scanner.withBytes(scanned, { bytes in E.schema.number(named: bytes) }) {
            value = E(rawValue: number)
            return true
        }
        // A number in a string ("1"), as Python accepts (a Recommended leniency).
        let numeric: (magnitude: UInt64, negative: Bool)? = try? withNumberInString(scanned, offset: offset) {
            (inner, token) throws(IMWireError) in try inner.integerValue(token)
        }
        if let numeric {
            value = E(rawValue: try int32(numeric.magnitude, negative: numeric.negative, offset: offset))
        } else {
            try skipUnknownEnumName(scanner.makeString(scanned), of: E.schema, at: offset)
        }
        return true
    }

    /// An enum name the schema does not know: `invalid_value`, or with
    /// ``JSONDecodingOptions/ignoreUnknownFields`` read as absent (and recorded when a report was
    /// asked for).
    @inline(never)
    private func skipUnknownEnumName(_ name: String, of schema: EnumSchema, at offset: Int) throws(IMWireError) {
        if ignoreUnknownFields, skips == nil { return }
        let suggestion = KeySuggestion.best(for: name, among: schema.values.map(\.name))
        let detail = "\"\(name)\" is not a value of \(schema.fullName)"
        guard ignoreUnknownFields else { throw valueError(.invalidValue, detail + KeySuggestion.clause(suggestion), at: offset) }
        skips?.pointee.append(JSONSkip(
            reason: .unknownValue, offset: offset, suggestion: suggestion,
            detail: "field \(fieldName): \(detail) and reads as the field's default" + KeySuggestion.clause(suggestion)))
    }

    package mutating func decodeMessage<M: ProtoMessage>(_ value: inout M) throws(IMWireError) -> Bool {
        guard scanner.peek() == UInt8(ascii: "{") else { throw mismatch("an object") }
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
        guard scanner.peek() == UInt8(ascii: "{") else { throw mismatch("an object") }
        guard try scanner.openContainer() else { return true }
        repeat {
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: "\"") else { throw scanner.syntaxError("expected a key string") }
            let keyOffset = scanner.position
            let key = scanner.makeString(try scanner.scanString())
            scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"), "':' after a key")
            scanner.skipWhitespace()
            if value[key] != nil {
                throw IMWireError(code: .duplicateKey, reason: "map key \"\(key)\" appears twice", offset: keyOffset)
            }
            if scanner.peek() == UInt8(ascii: "n") {
                throw valueError(.invalidValue, "a map value cannot be null", at: scanner.position)
            }
            value[key] = try readBytesValue()
        } while try scanner.nextMember(closing: UInt8(ascii: "}"))
        return true
    }

}
