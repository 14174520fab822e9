import IMWireCore
import IMWireJSONText

/// Reads proto3 JSON straight from UTF-8 bytes into the model's values in one pass — no Foundation,
/// no Codable, no intermediate tree — on the lexical layer both JSON dialects share
/// (``JSONScanner``). Each generated type reads its own members (`_decodeJSON`: one `switch` over
/// its field indices) with the reads below; this reader finds the keys, checks duplicates and
/// oneofs, and reads each value. A string is made once, from the input's bytes when it has no escape
/// (its UTF-8 already checked by the scanner), from its unescaped bytes otherwise.
///
/// Accepts lowerCamelCase and original field names, 64-bit integers as numbers or strings (any
/// integer as a string, exponent forms when integral), enums by name or number, standard and
/// URL-safe base64 with or without padding, `null` as absent. Rejects, with the byte offset:
/// malformed JSON (including trailing commas and data after the value), duplicate keys, two members
/// of one oneof, unknown keys (unless ignored), invalid UTF-8, lone surrogate escapes, out-of-range
/// numbers, fractions in integer fields, nesting past the depth limit or past what the thread's
/// stack holds.
@usableFromInline package struct JSONReader {
    // The reader's state is its own: another destination (the JSON view) reads through the methods
    // of "Reading into another destination" below.
    @usableFromInline var scanner: JSONScanner
    @usableFromInline var depth = 1
    let maxDepth: Int
    private let ignoreUnknownFields: Bool
    /// The field whose value is being read (its type's names and its index), for error messages: a
    /// pointer, so that noting it per member costs no reference counting (the schema is read only
    /// when an error is made).
    @usableFromInline var fieldNames: UnsafeMutablePointer<JSONFieldNames>?
    @usableFromInline var fieldIndex = 0
    var fieldName: String { fieldNames?.pointee.schema.fields[fieldIndex].name ?? "" }
    private var stackGuard = StackGuard()
    /// The JSON names of every type of the schema file, indexed by ``ProtoMessage/_typeIndex``.
    @usableFromInline let names: UnsafeMutablePointer<JSONFieldNames>
    /// Where skipped keys go when the caller asked for a report (``decode(_:from:options:report:)``);
    /// `nil` otherwise. Touched only on the skip path.
    private let skips: UnsafeMutablePointer<[JSONSkip]>?
    /// ``SmallString/isAvailable``, read once per decode.
    private let smallStrings = SmallString.isAvailable

    @usableFromInline package static func decode<M: JSONFieldReading>(
        _ type: M.Type, from buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions
    ) throws(IMWireError) -> M {
        try decode(type, from: buffer, options: options, skips: nil)
    }

    /// Decodes as ``decode(_:from:options:)`` and replaces `report`'s content with the keys and enum
    /// names skipped (only with ``JSONDecodingOptions/ignoreUnknownFields``), their paths found by
    /// a second walk of the input that runs only when something was skipped.
    @usableFromInline package static func decode<M: JSONFieldReading>(
        _ type: M.Type, from buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions, report: inout DecodingReport
    ) throws(IMWireError) -> M {
        var skips: [JSONSkip] = []
        let message = try withUnsafeMutablePointer(to: &skips) { (pointer) throws(IMWireError) in
            try decode(type, from: buffer, options: options, skips: pointer)
        }
        report = DecodingReport(skippedKeys: JSONSkip.resolve(skips, in: buffer))
        return message
    }

    private static func decode<M: JSONFieldReading>(
        _ type: M.Type, from buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions,
        skips: UnsafeMutablePointer<[JSONSkip]>?
    ) throws(IMWireError) -> M {
        try checkSize(buffer, options)
        var reader = JSONReader(buffer, options: options, names: JSONNameTable.of(M.self).types, skips: skips)
        return try reader.readDocument(M.self)
    }

    /// Refuses an input over ``JSONDecodingOptions/maxInputSize``.
    @usableFromInline package static func checkSize(_ buffer: UnsafeBufferPointer<UInt8>, _ options: JSONDecodingOptions) throws(IMWireError) {
        guard buffer.count <= options.maxInputSize else {
            throw .inputTooLarge(size: buffer.count, limit: options.maxInputSize)
        }
    }

    /// The whole input: one object, and nothing after it but whitespace.
    private mutating func readDocument<M: JSONFieldReading>(_ type: M.Type) throws(IMWireError) -> M {
        try startDocument()
        var message = M()
        try readObject(&message)
        try finishDocument()
        return message
    }

    /// Moves to the document's object, which must be all there is.
    @usableFromInline package mutating func startDocument() throws(IMWireError) {
        scanner.skipWhitespace()
        guard scanner.peek() == UInt8(ascii: "{") else {
            guard scanner.count > 0 else {
                throw .emptyJSON(expected: "a JSON object")
            }
            throw scanner.notAnObjectError()
        }
    }

    /// After the document's object: nothing but whitespace.
    @usableFromInline package mutating func finishDocument() throws(IMWireError) {
        scanner.skipWhitespace()
        guard scanner.position == scanner.count else {
            throw scanner.syntaxError("unexpected data after the JSON object")
        }
    }

    @usableFromInline package init(
        _ buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions, names: UnsafeMutablePointer<JSONFieldNames>,
        skips: UnsafeMutablePointer<[JSONSkip]>?
    ) {
        self.skips = skips
        scanner = JSONScanner(buffer)
        maxDepth = options.maxDepth
        ignoreUnknownFields = options.ignoreUnknownFields
        self.names = names
    }

    // MARK: - Errors

    /// An error about the value being read (built by its code's factory), with the field's name in
    /// front; at the scanner's position when it has no offset of its own.
    func valueError(_ error: IMWireError) -> IMWireError {
        error.at(offset: error.offset ?? scanner.position).aboutField(fieldName)
    }

    // MARK: - Nesting

    @inline(never)
    mutating func enter() throws(IMWireError) {
        guard depth < maxDepth else {
            throw .depthLimitExceeded(.json, limit: maxDepth, offset: scanner.position)
        }
        depth += 1
        try stackGuard.check(depth: depth, offset: scanner.position)
    }

    // MARK: - Objects

    /// What ``readObject(_:)`` remembers about the members it has read.
    @usableFromInline package struct ObjectState {
        /// Field indices given (a key, possibly `null`).
        var seen = FieldIndexSet()
        /// Field indices of oneof members given a value (not `null`).
        var oneofMembers = FieldIndexSet()
        /// Unknown keys skipped so far (only with ignoreUnknownFields), for duplicate detection.
        var unknownKeys: Set<[UInt8]> = []
        /// The field index the next key is predicted to have: one past the last key's field.
        var next = 0

        @usableFromInline package init() {}
    }

    /// Reads an object at `position` into `message`, member by member (the type reads each value:
    /// `_decodeJSON`). This frame sits on the recursive path (one per message level), so the work
    /// per key lives in non-inlined helpers.
    private mutating func readObject<M: JSONFieldReading>(_ message: inout M) throws(IMWireError) {
        // [unsafe: json-names] `M._typeIndex` indexes the name table of `M`'s schema file
        // (``JSONNameTable/of(_:)``).
        var state = ObjectState()
        let names = names + M._typeIndex
        guard try scanner.openContainer() else { return }
        repeat {
            let index = try readMemberKey(names, state: &state)
            if index >= 0 { try message._decodeJSON(field: index, &self) }
        } while try scanner.nextMember(closing: UInt8(ascii: "}"))
    }

    /// Reads a member's key and `:`, checks duplicates and oneofs, and handles `null` and ignored
    /// unknown fields (returning -1); returns the field index of a member with a value to read.
    @inline(never)
    @usableFromInline package mutating func readMemberKey(_ names: UnsafeMutablePointer<JSONFieldNames>, state: inout ObjectState) throws(IMWireError) -> Int {
        // [unsafe: json-names] a field index from the prediction or the lookup is below the type's
        // `fieldCount`, the length of `oneofIDs`.
        scanner.skipWhitespace()
        let keyOffset = scanner.position
        let fieldIndex: Int
        if let predicted = predictedKey(names, from: state.next) {
            fieldIndex = predicted
        } else {
            fieldIndex = try scanMemberKey(names, state: &state)
            if fieldIndex < 0 { return -1 }
        }
        state.next = fieldIndex &+ 1
        guard state.seen.insert(fieldIndex) else {
            throw duplicateKey(names, fieldIndex, at: keyOffset)
        }
        // `null` leaves a field unset, a oneof member too: `{"receiver": null, "groupId": "g"}`
        // sets only the group (Google's Required OneofFieldNullFirst / NullSecond).
        if try scanner.consumeNull() { return -1 }
        if names.pointee.oneofIDs[fieldIndex] >= 0 {
            try checkOneof(names, fieldIndex, at: keyOffset, state: &state)
        }
        fieldNames = names
        self.fieldIndex = fieldIndex
        return fieldIndex
    }

    @inline(never)
    private func duplicateKey(_ names: UnsafeMutablePointer<JSONFieldNames>, _ fieldIndex: Int, at keyOffset: Int) -> IMWireError {
        // [unsafe: json-names] `fieldIndex` is below `fieldCount`.
        .duplicateKey(names.pointee.schema.fields[fieldIndex].name, .field, offset: keyOffset)
    }

    /// The common case: the key at `position` is `"jsonName":` of field `from` or of a field after
    /// it (a writer puts fields in number order, leaving out the absent ones). Compares the input
    /// with those keys' bytes; on a match moves past the `:` and returns the field index. `nil`
    /// (nothing consumed) for any other key — a proto name, an escape, whitespace before the `:`,
    /// another order, an unknown key — which ``scanMemberKey(_:state:)`` then reads.
    @inline(__always)
    private mutating func predictedKey(_ names: UnsafeMutablePointer<JSONFieldNames>, from: Int) -> Int? {
        // [unsafe: json-names] two input bytes after `left > 2`, a key's bytes after `key.count <= left`;
        // `input[1] < 0x80` indexes the 128 entries of `firstByByte`; a chain's indices are below
        // `fieldCount` and end at ``JSONFieldNames/noField``. [unsafe: json-scanner] `input` is `position` of
        // the input.
        let keys = names.pointee.keys
        let input = scanner.base + scanner.position
        let left = scanner.count &- scanner.position
        guard left > 2, input[0] == UInt8(ascii: "\""), input[1] < 0x80 else { return nil }
        // Only the fields whose names start with the key's first byte, from `from` on: a chain of a
        // few, where a walk over every field after `from` would stop at each absent one.
        var index = Int(names.pointee.firstByByte[Int(input[1])])
        while index < from { index = Int(names.pointee.nextBySameByte[index]) }
        while index != Int(JSONFieldNames.noField) {
            let key = keys[index]
            if key.count <= left, JSONFieldNames.equal(UnsafeRawPointer(key.baseAddress!), UnsafeRawPointer(input), key.count) {
                scanner.position &+= key.count
                scanner.skipWhitespace()
                return index
            }
            index = Int(names.pointee.nextBySameByte[index])
        }
        return nil
    }

    /// A key the prediction missed: scanned as any string and looked up by name. Returns its field
    /// index, or -1 for an unknown key skipped (with ``JSONDecodingOptions/ignoreUnknownFields``).
    @inline(never)
    private mutating func scanMemberKey(_ names: UnsafeMutablePointer<JSONFieldNames>, state: inout ObjectState) throws(IMWireError) -> Int {
        // [unsafe: json-names] the lookup returns a field index below `fieldCount`.
        let (key, keyOffset) = try scanner.scanKey()
        guard let fieldIndex = scanner.withBytes(key, { bytes in names.pointee.fieldIndex(named: bytes) }) else {
            try skipUnknownMember(key, at: keyOffset, of: names.pointee.schema, state: &state)
            return -1
        }
        return fieldIndex
    }

    /// An unknown key: `unknown_field`, or with ``JSONDecodingOptions/ignoreUnknownFields`` its
    /// value is checked and skipped (and recorded when a report was asked for).
    @inline(never)
    private mutating func skipUnknownMember(
        _ key: JSONScanner.ScannedString, at keyOffset: Int, of schema: MessageSchema, state: inout ObjectState
    ) throws(IMWireError) {
        // [unsafe: json-skips] `skips` points at the caller's array for the whole decode
        // (``JSONReader/decode(_:from:options:report:)``), nothing else holds it.
        guard ignoreUnknownFields else {
            throw .unknownField(JSONSkip.unknownKey(scanner.makeString(key), in: schema).detail, offset: keyOffset)
        }
        guard state.unknownKeys.insert(scanner.withBytes(key) { Array($0) }).inserted else {
            throw .duplicateKey(scanner.makeString(key), offset: keyOffset)
        }
        var discard = JSONScanner.DiscardingSink()
        try scanner.walkValue(depth: depth, maxDepth: maxDepth, into: &discard)
        if let skips {
            var skip = JSONSkip.unknownKey(scanner.makeString(key), in: schema)
            skip.offset = keyOffset
            skips.pointee.append(skip)
        }
    }

    /// A oneof member with a value: an error if another member of its oneof has one.
    @inline(never)
    private func checkOneof(
        _ names: UnsafeMutablePointer<JSONFieldNames>, _ fieldIndex: Int, at keyOffset: Int, state: inout ObjectState
    ) throws(IMWireError) {
        // [unsafe: json-names] field indices (the key's, and those in `oneofMembers`) are below `fieldCount`.
        let oneofIDs = names.pointee.oneofIDs
        let oneof = oneofIDs[fieldIndex]
        for otherIndex in state.oneofMembers where oneofIDs[otherIndex] == oneof {
            let schema = names.pointee.schema
            let (field, other) = (schema.fields[fieldIndex], schema.fields[otherIndex])
            throw .oneofConflict("oneof \(field.oneof ?? "") has both \(other.name) and \(field.name)", offset: keyOffset)
        }
        _ = state.oneofMembers.insert(fieldIndex)
    }

    /// A message value: an object, read into a new value.
    @usableFromInline package mutating func readMessage<M: JSONFieldReading>(_ type: M.Type) throws(IMWireError) -> M {
        try enterMessage()
        var message = M()
        try readObject(&message)
        depth -= 1
        return message
    }

    /// Checks that a message value is an object and enters it (one more level of nesting); the
    /// caller reads it and leaves (`depth -= 1`).
    @inline(__always)
    @usableFromInline package mutating func enterMessage() throws(IMWireError) {
        guard scanner.peek() == UInt8(ascii: "{") else { throw wrongType("an object") }
        try enter()
    }

    // MARK: - Reading into another destination

    // What a walk that writes somewhere other than a model value (the JSON view's words) calls, so
    // that it reads every key, nesting level and value with the reader's own code and never its
    // state: an object is `openObject`, then `readMemberKey` and the member's value until
    // `nextMember` is `false`; a message value `enterMessage`, its object, `leaveMessage`.

    /// The offset in the input of the next byte to read.
    @inlinable @inline(__always)
    package var position: Int { scanner.position }

    /// The JSON names of the type at `typeIndex` of the reader's schema file.
    @inlinable @inline(__always)
    package func names(ofType typeIndex: Int) -> UnsafeMutablePointer<JSONFieldNames> {
        // [unsafe: json-names] `typeIndex` is a type of the reader's schema file, whose table has an
        // entry per type.
        names + typeIndex
    }

    /// Opens the object at `position` (its `{` checked by ``enterMessage()`` or ``startDocument()``);
    /// `false` when it is empty (and closed).
    @inlinable @inline(__always)
    package mutating func openObject() throws(IMWireError) -> Bool { try scanner.openContainer() }

    /// After a member's value: `true` when another member follows.
    @inlinable @inline(__always)
    package mutating func nextMember() throws(IMWireError) -> Bool { try scanner.nextMember(closing: UInt8(ascii: "}")) }

    /// Leaves a message value entered with ``enterMessage()``.
    @inlinable @inline(__always)
    package mutating func leaveMessage() { depth -= 1 }

    /// The value of the enum field whose key ``readMemberKey(_:state:)`` read last.
    package mutating func readEnumOfCurrentField() throws(IMWireError) -> Int32? {
        guard case .enumeration(let schema) = fieldNames?.pointee.schema.fields[fieldIndex].kind else {
            preconditionFailure("an enum field without its enum's schema")
        }
        return try readEnum(schema)
    }

    /// Calls `body` with the value of a string scanned by ``scanStringValue()`` (or a map key), then
    /// lets the buffer of unescaped text go, so no earlier string is read after it.
    @inlinable @inline(__always)
    package mutating func consumeString<R>(_ scanned: JSONScanner.ScannedString, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let result = scanner.withBytes(scanned, body)
        scanner.discardUnescaped()
        return result
    }

    /// ``readBase64(_:)`` for a destination that keeps the decoded bytes itself: the buffer of
    /// unescaped text is let go afterwards.
    @inlinable @inline(__always)
    package mutating func consumeBase64<Decoded>(_ decode: (_ encoded: UnsafeBufferPointer<UInt8>, _ textOffset: Int) -> Decoded?) throws(IMWireError) -> Decoded {
        let decoded = try readBase64(decode)
        scanner.discardUnescaped()
        return decoded
    }

    // MARK: - Arrays and maps

    /// Opens an array at `position`; `false` when it is empty (and closed).
    @usableFromInline package mutating func openArray() throws(IMWireError) -> Bool {
        guard scanner.peek() == UInt8(ascii: "[") else { throw wrongType("an array") }
        guard try scanner.openContainer() else { return false }
        try checkElement()
        return true
    }

    /// After an element: `true` when another one follows (checked not to be `null`).
    @inline(__always)
    @usableFromInline package mutating func nextElement() throws(IMWireError) -> Bool {
        guard try scanner.nextMember(closing: UInt8(ascii: "]")) else { return false }
        try checkElement()
        return true
    }

    @inline(__always)
    private mutating func checkElement() throws(IMWireError) {
        scanner.skipWhitespace()
        if scanner.peek() == UInt8(ascii: "n") {
            throw valueError(.invalidValue("null is not allowed inside an array", offset: scanner.position))
        }
    }

    /// A repeated message field: an array of objects, appended to `messages`.
    @usableFromInline package mutating func readRepeatedMessages<M: JSONFieldReading>(into messages: inout [M]) throws(IMWireError) {
        guard try openArray() else { return }
        repeat {
            messages.append(try readMessage(M.self))
        } while try nextElement()
    }

    /// A repeated string field: an array of strings, appended to `strings`.
    @usableFromInline package mutating func readRepeatedStrings(into strings: inout [String]) throws(IMWireError) {
        guard try openArray() else { return }
        repeat {
            strings.append(try readString())
        } while try nextElement()
    }

    /// A `map<string, bytes>`: an object of base64 strings.
    @inline(never)
    @usableFromInline package mutating func readMap(into map: inout StringBytesMap) throws(IMWireError) {
        try readMapEntries { (reader, key, _) throws(IMWireError) in
            let keyString = reader.string(key)
            map.appendDecoded(key: keyString, value: try reader.readBytes())
        }
        map.finishDecoding()
    }

    /// The entries of a `map<string, bytes>` object: checks the syntax, refuses a repeated key and a
    /// `null` value, and calls `entry` with each key (and the offset of its opening quote) with the
    /// scanner at the value, which `entry` reads.
    @inline(__always)
    @usableFromInline package mutating func readMapEntries(
        _ entry: (inout JSONReader, JSONScanner.ScannedString, _ keyOffset: Int) throws(IMWireError) -> Void
    ) throws(IMWireError) {
        guard scanner.peek() == UInt8(ascii: "{") else { throw wrongType("an object") }
        guard try scanner.openContainer() else { return }
        var keys: Set<[UInt8]> = []
        repeat {
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: "\"") else { throw scanner.syntaxError("expected a key string") }
            let keyOffset = scanner.position
            let key = try scanner.scanString()
            scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"), "':' after a key")
            scanner.skipWhitespace()
            guard keys.insert(scanner.withBytes(key) { Array($0) }).inserted else {
                throw .duplicateKey(scanner.makeString(key), .mapKey, offset: keyOffset)
            }
            if scanner.peek() == UInt8(ascii: "n") {
                throw valueError(.invalidValue("a map value cannot be null", offset: scanner.position))
            }
            try entry(&self, key, keyOffset)
        } while try scanner.nextMember(closing: UInt8(ascii: "}"))
    }

    // MARK: - Values

    /// The error for a value of the wrong type: `json_syntax` when the byte starts no JSON value
    /// at all, else `invalid_value`.
    @inline(never)
    func wrongType(_ expected: String) -> IMWireError {
        switch scanner.peek() ?? 0 {
        case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "t"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return valueError(.invalidValue("expected \(expected)", offset: scanner.position))
        default:
            return scanner.syntaxError("expected a JSON value")
        }
    }

    @inline(never)
    @usableFromInline package mutating func readString() throws(IMWireError) -> String {
        // Scanned first: `string(_:)` reads the unescaped bytes the scan may add to.
        let scanned = try scanStringValue()
        return string(scanned)
    }

    /// A string field's value, scanned (escapes and UTF-8 checked).
    @inline(__always)
    @usableFromInline package mutating func scanStringValue() throws(IMWireError) -> JSONScanner.ScannedString {
        guard scanner.peek() == UInt8(ascii: "\"") else { throw wrongType("a string") }
        return try scanner.scanString()
    }

    /// A scanned string's value as a `String`: its bytes were checked as UTF-8 by the scanner, so
    /// they are copied once and not checked again.
    @inline(__always)
    func string(_ scanned: JSONScanner.ScannedString) -> String {
        scanner.validatedString(scanned, smallStrings: smallStrings)
    }

    @inline(never)
    @usableFromInline package mutating func readBytes() throws(IMWireError) -> [UInt8] {
        try readBase64 { encoded, _ in Base64.decode(encoded) }
    }

    /// A bytes field's value: a base64 string, its text (unescaped) handed to `decode` with the
    /// offset in the input where the text starts (after the opening quote); `decode` returns `nil`
    /// for text that is not base64. `decode` runs only once the whole string has been scanned, so
    /// that offset and the text's length lie inside the input.
    @inline(__always)
    @usableFromInline package mutating func readBase64<Decoded>(_ decode: (_ encoded: UnsafeBufferPointer<UInt8>, _ textOffset: Int) -> Decoded?) throws(IMWireError) -> Decoded {
        guard scanner.peek() == UInt8(ascii: "\"") else { throw wrongType("a base64 string") }
        let start = scanner.position
        let scanned = try scanner.scanString()
        guard let decoded = scanner.withBytes(scanned, { encoded in decode(encoded, start &+ 1) }) else {
            throw .invalidBase64(field: fieldName, offset: start)
        }
        return decoded
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
                return .failure(valueError(error.at(offset: offset)))
            }
        }
        guard let value = try result.get() else {
            throw valueError(.invalidNumber("string is not a number", offset: offset))
        }
        return value
    }

    /// An integer field's value: a JSON number or a string holding one.
    private mutating func readInteger() throws(IMWireError) -> (magnitude: UInt64, negative: Bool, offset: Int) {
        let offset = scanner.position
        if let magnitude = plainInteger() { return (magnitude, false, offset) }
        if scanner.peek() == UInt8(ascii: "\"") {
            let scanned = try scanner.scanString()
            let value = try withNumberInString(scanned, offset: offset) { (inner, token) throws(IMWireError) in
                try inner.integerValue(token)
            }
            return (value.magnitude, value.negative, offset)
        }
        guard let byte = scanner.peek(), byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
            throw wrongType("an integer")
        }
        let token = try scanner.scanNumber()
        do {
            let value = try scanner.integerValue(token)
            return (value.magnitude, value.negative, offset)
        } catch {
            throw valueError(error)
        }
    }

    /// The common forms, read in one pass and nothing else: up to 19 digits without a leading zero
    /// (the form every writer gives a non-negative integer), bare or quoted (proto3's 64-bit
    /// integers), where the number ends. `nil`, with nothing consumed, for anything else — a sign,
    /// a fraction, an exponent, an escape, a leading zero, 20 digits — which the scanner then reads
    /// with every check of the grammar.
    @inline(__always)
    private mutating func plainInteger() -> UInt64? {
        // [unsafe: json-scanner] `base[at]` after `at < end` (`end` is the input's count).
        let base = scanner.base
        let end = scanner.count
        var at = scanner.position
        guard at < end else { return nil }
        let quoted = base[at] == UInt8(ascii: "\"")
        if quoted { at &+= 1 }
        let first = at
        var magnitude: UInt64 = 0
        while at < end, at &- first < 20 {
            let digit = base[at] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            magnitude = magnitude &* 10 &+ UInt64(digit)
            at &+= 1
        }
        let count = at &- first
        guard count > 0, count < 20, base[first] != UInt8(ascii: "0") || count == 1 else { return nil }
        if quoted {
            guard at < end, base[at] == UInt8(ascii: "\"") else { return nil }
            at &+= 1
        } else if at < end {
            let next = base[at]
            guard next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e") else { return nil }
        }
        scanner.position = at
        return magnitude
    }

    @inline(never)
    @usableFromInline package mutating func readUInt64() throws(IMWireError) -> UInt64 {
        let number = try readInteger()
        if number.negative, number.magnitude != 0 {
            throw valueError(.numberOutOfRange("uint64 cannot be negative", offset: number.offset))
        }
        return number.magnitude
    }

    @inline(never)
    @usableFromInline package mutating func readUInt32() throws(IMWireError) -> UInt32 {
        let number = try readInteger()
        guard !number.negative || number.magnitude == 0, number.magnitude <= UInt64(UInt32.max) else {
            throw valueError(.numberOutOfRange("value is out of the range of uint32", offset: number.offset))
        }
        return UInt32(number.magnitude)
    }

    @inline(never)
    @usableFromInline package mutating func readInt32() throws(IMWireError) -> Int32 {
        let number = try readInteger()
        return try int32(number.magnitude, negative: number.negative, offset: number.offset)
    }

    private func int32(_ magnitude: UInt64, negative: Bool, offset: Int) throws(IMWireError) -> Int32 {
        // Int32.min's magnitude is one more than Int32.max's.
        guard magnitude <= UInt64(Int32.max) + (negative ? 1 : 0) else {
            throw valueError(.numberOutOfRange("value is out of the range of int32", offset: offset))
        }
        return negative ? Int32(truncatingIfNeeded: 0 &- Int64(magnitude)) : Int32(magnitude)
    }

    @inline(never)
    @usableFromInline package mutating func readBool() throws(IMWireError) -> Bool {
        switch scanner.peek() {
        case UInt8(ascii: "t"):
            try scanner.expectLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try scanner.expectLiteral("false")
            return false
        default:
            throw wrongType("true or false")
        }
    }

    @inline(never)
    @usableFromInline package mutating func readDouble() throws(IMWireError) -> Double {
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
            throw wrongType("a number")
        }
        let token = try scanner.scanNumber()
        do {
            return try scanner.doubleValue(token)
        } catch {
            throw valueError(error)
        }
    }

    /// An enum by name, or by number (a JSON number, or a string holding one, as Python accepts: a
    /// Recommended leniency); `nil` for a name the schema does not know when unknown names are ignored.
    @inline(__always)
    @usableFromInline package mutating func readEnum<E: ProtoEnum>(_ type: E.Type) throws(IMWireError) -> E? {
        try readEnum(E.schema).map(E.init(rawValue:))
    }

    @inline(never)
    @usableFromInline package mutating func readEnum(_ schema: EnumSchema) throws(IMWireError) -> Int32? {
        guard scanner.peek() == UInt8(ascii: "\"") else { return try readInt32() }
        let offset = scanner.position
        let scanned = try scanner.scanString()
        if let number = scanner.withBytes(scanned, { bytes in schema.number(named: bytes) }) { return number }
        let numeric: (magnitude: UInt64, negative: Bool)? = try? withNumberInString(scanned, offset: offset) {
            (inner, token) throws(IMWireError) in try inner.integerValue(token)
        }
        if let numeric { return try int32(numeric.magnitude, negative: numeric.negative, offset: offset) }
        try skipUnknownEnumName(scanner.makeString(scanned), of: schema, at: offset)
        return nil
    }

    /// An enum name the schema does not know: `invalid_value`, or with
    /// ``JSONDecodingOptions/ignoreUnknownFields`` read as absent (and recorded when a report was
    /// asked for).
    @inline(never)
    private func skipUnknownEnumName(_ name: String, of schema: EnumSchema, at offset: Int) throws(IMWireError) {
        if ignoreUnknownFields, skips == nil { return }
        let suggestion = KeySuggestion.best(for: name, among: schema.values.map(\.name))
        let detail = "\"\(name)\" is not a value of \(schema.fullName)"
        guard ignoreUnknownFields else { throw valueError(.invalidValue(detail + KeySuggestion.clause(suggestion), offset: offset)) }
        skips?.pointee.append(JSONSkip(
            reason: .unknownValue, offset: offset, suggestion: suggestion,
            detail: "field \(fieldName): \(detail) and reads as the field's default" + KeySuggestion.clause(suggestion)))
    }
}
