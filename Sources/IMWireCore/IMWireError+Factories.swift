// The only place an `IMWireError` is built. Each situation has one factory: its reason is written
// once, the location (offset, path, record) is where that situation puts it, and the factory is
// `@inline(never)` (swift-asn1's `ASN1Error` pattern), so the string building stays out of the
// decoders' and encoders' hot paths; a call site passes only what it already has. A situation met
// in one place only gets its code's general factory, which takes the reason. The initialiser is
// private to this file, so the compiler refuses an error built anywhere else; a test checks that
// every code has a factory.

/// An error from decoding, encoding or converting a message.
///
/// Modelled on swift-asn1's `ASN1Error`: a stable ``code`` that programs switch on, a human
/// ``reason`` that says what was expected and what was found, and where it happened — a byte
/// ``offset`` into the input for wire-format errors, a field ``path`` such as
/// `elems[1].image.images[0].size` for errors about a value. Two errors are equal when their codes
/// are equal, so a test compares an error's ``code``.
///
/// One reference in size (its fields live in one immutable object), so a `throws(IMWireError)`
/// function returns its error in a register and a decoder's hot path carries no large error value.
public struct IMWireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The fields, in one immutable object: the error is one reference wide.
    private final class Storage: Sendable {
        let code: Code
        let reason: String
        let offset: Int?
        let path: String?
        let recordIndex: Int?

        init(code: Code, reason: String, offset: Int?, path: String?, recordIndex: Int?) {
            self.code = code
            self.reason = reason
            self.offset = offset
            self.path = path
            self.recordIndex = recordIndex
        }
    }

    private let storage: Storage

    /// What went wrong, stable across versions.
    public var code: Code { storage.code }
    /// A sentence for people: what was expected and what was found.
    public var reason: String { storage.reason }
    /// Byte offset into the input where the problem was found, for wire-format errors (in a
    /// stream, from the start of the stream).
    public var offset: Int? { storage.offset }
    /// Field path such as `elems[0].text.text`, for errors about a value.
    public var path: String? { storage.path }
    /// In a stream of messages (length-delimited binary, JSON lines), the 0-based index of the
    /// record the error is about.
    public var recordIndex: Int? { storage.recordIndex }

    /// Private: every error is built by a factory below, in this file, so each code's reasons are
    /// written in one place and the compiler refuses an error built anywhere else.
    private init(code: Code, reason: String, offset: Int? = nil, path: String? = nil, recordIndex: Int? = nil) {
        storage = Storage(code: code, reason: reason, offset: offset, path: path, recordIndex: recordIndex)
    }

    /// `CODE: reason (at byte N)` / `(at PATH)` / `(record 3, at byte N)` — the form the CLI prints after `error: `.
    public var description: String {
        var text = "\(code.name): \(reason)"
        var place: [String] = []
        if let recordIndex { place.append("record \(recordIndex)") }
        if let path { place.append("at \(path)") } else if let offset { place.append("at byte \(offset)") }
        if !place.isEmpty { text += " (" + place.joined(separator: ", ") + ")" }
        return text
    }

    public static func == (lhs: IMWireError, rhs: IMWireError) -> Bool { lhs.code == rhs.code }

    /// An error of `code` and nothing else, to compare with: errors are equal when their codes are
    /// (the package's tests: `#expect(throws: IMWireError.matching(.truncated))`).
    @usableFromInline package static func matching(_ code: Code) -> IMWireError { IMWireError(code: code, reason: "") }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension IMWireError {
    // MARK: - truncated

    /// A binary input (or the enclosing sub-message) ends inside a tag, a varint, a fixed-width
    /// value or a length-delimited value that starts at `offset`.
    @inline(never)
    @usableFromInline package static func truncated(inInput: Bool, inside what: String, start offset: Int, end: Int) -> IMWireError {
        IMWireError(
            code: .truncated,
            reason: "\(inInput ? "input" : "enclosing message") ends inside \(what), \(counted(end - offset, "byte")) after its start",
            offset: offset)
    }

    /// A stream ends `where` (inside a record, after part of a length prefix).
    @inline(never)
    @usableFromInline package static func streamTruncated(_ where: String, offset: Int, recordIndex: Int?) -> IMWireError {
        IMWireError(code: .truncated, reason: "the stream ends \(`where`)", offset: offset, recordIndex: recordIndex)
    }

    // MARK: - varint_too_long

    /// A varint whose tenth byte still has its continuation bit, or sets bits above 64.
    @inline(never)
    @usableFromInline package static func varintTooLong(offset: Int) -> IMWireError {
        IMWireError(code: .varintTooLong, reason: "varint runs past 10 bytes", offset: offset)
    }

    /// A tag (a 32-bit varint) written in more than 5 bytes.
    @inline(never)
    @usableFromInline package static func tagTooLong(size: Int, offset: Int) -> IMWireError {
        IMWireError(code: .varintTooLong, reason: "tag takes \(counted(size, "byte")); a tag is at most 5", offset: offset)
    }

    // A stream record's reason says "the record": its recordIndex says which one, and the CLI
    // prints it in front ("record 3: … the record 3 …" would say it twice).

    /// A stream record's length prefix runs past 10 bytes.
    @inline(never)
    @usableFromInline package static func recordPrefixTooLong(offset: Int, recordIndex: Int?) -> IMWireError {
        IMWireError(
            code: .varintTooLong, reason: "the length prefix of the record runs past 10 bytes",
            offset: offset, recordIndex: recordIndex)
    }

    // MARK: - invalid_field_number, invalid_wire_type

    @inline(never)
    @usableFromInline package static func invalidFieldNumber(_ number: UInt64, highest: Int, offset: Int) -> IMWireError {
        IMWireError(
            code: .invalidFieldNumber, reason: "tag has field number \(number); valid numbers are 1...\(highest)",
            offset: offset)
    }

    @inline(never)
    @usableFromInline package static func invalidWireType(_ wireType: UInt8, field: UInt64, offset: Int) -> IMWireError {
        IMWireError(
            code: .invalidWireType, reason: "tag for field \(field) has wire type \(wireType); valid wire types are 0...5",
            offset: offset)
    }

    // MARK: - malformed_group

    /// An end-group tag for `field` outside any group (`group` nil) or closing another group.
    @inline(never)
    @usableFromInline package static func malformedGroup(endTagFor field: Int, closing group: Int?, offset: Int) -> IMWireError {
        let reason = if let group {
            "end-group tag for field \(field) closes group \(group)"
        } else {
            "end-group tag for field \(field) without a matching start-group"
        }
        return IMWireError(code: .malformedGroup, reason: reason, offset: offset)
    }

    /// A group still open when the input (or its enclosing message) ends.
    @inline(never)
    @usableFromInline package static func malformedGroup(unclosed group: Int, inInput: Bool, offset: Int) -> IMWireError {
        IMWireError(
            code: .malformedGroup,
            reason: "group \(group) is not closed before \(inInput ? "the input" : "its enclosing message") ends", offset: offset)
    }

    // MARK: - length_out_of_bounds

    /// A length prefix claiming more than the `remaining` bytes of the input or enclosing message.
    @inline(never)
    @usableFromInline package static func lengthOutOfBounds(_ length: UInt64, remaining: Int, inInput: Bool, offset: Int) -> IMWireError {
        IMWireError(
            code: .lengthOutOfBounds,
            reason: "length \(length) runs past the end of \(inInput ? "input" : "the enclosing message") (\(counted(remaining, "byte")) left)",
            offset: offset)
    }

    /// A stream record's prefix claiming more than a delimited record may hold, `limit` bytes (`nil`:
    /// more than 2^32).
    @inline(never)
    @usableFromInline package static func recordLengthOutOfBounds(_ length: UInt64?, limit: Int, offset: Int, recordIndex: Int?) -> IMWireError {
        IMWireError(
            code: .lengthOutOfBounds,
            reason: "the record claims \(length.map { counted($0, "byte") } ?? "more than 2^32 bytes"); a delimited record is at most \(counted(limit, "byte"))",
            offset: offset, recordIndex: recordIndex)
    }

    // MARK: - invalid_utf8

    /// A binary string field's bytes `start..<start + length` with a bad byte at `bad`.
    @inline(never)
    @usableFromInline package static func invalidUTF8(stringLength: Int, start: Int, bad: Int, badByte: UInt8) -> IMWireError {
        IMWireError(
            code: .invalidUTF8,
            reason: "string of \(counted(stringLength, "byte")) is not valid UTF-8 (bad byte 0x\(String(badByte, radix: 16)), \(counted(bad - start, "byte")) into it)",
            offset: bad)
    }

    /// A JSON string whose text starts at `textStart` (the byte after its opening quote), with a
    /// bad byte at `bad`.
    @inline(never)
    @usableFromInline package static func invalidUTF8(jsonTextAt textStart: Int, bad: Int, badByte: UInt8) -> IMWireError {
        IMWireError(
            code: .invalidUTF8,
            reason: "string is not valid UTF-8 (bad byte 0x\(String(badByte, radix: 16)), \(counted(bad - textStart + 1, "byte")) after its opening quote)",
            offset: bad)
    }

    /// A JSON string whose escapes decode to text that is not UTF-8 (the offset is its quote).
    @inline(never)
    @usableFromInline package static func invalidUTF8(jsonStringAt quote: Int) -> IMWireError {
        IMWireError(code: .invalidUTF8, reason: "string is not valid UTF-8", offset: quote)
    }

    // MARK: - depth_limit_exceeded

    /// What a depth limit counts, for the one sentence every decoder and encoder says.
    @usableFromInline package enum Nesting {
        /// Binary sub-messages while decoding.
        case messages
        /// Binary groups while decoding.
        case groups
        /// JSON arrays and objects.
        case json
        /// Message levels of tim-rest JSON.
        case timREST
        /// Messages while encoding.
        case encodedMessages
    }

    /// Nesting deeper than `limit` allows.
    @inline(never)
    @usableFromInline package static func depthLimitExceeded(_ nesting: Nesting, limit: Int, offset: Int? = nil, path: String? = nil) -> IMWireError {
        let reason = switch nesting {
        case .messages: "message nesting exceeds the limit of \(counted(limit, "level"))"
        case .groups: "group nesting exceeds the limit of \(counted(limit, "level"))"
        case .json: "nesting exceeds the limit of \(counted(limit, "level"))"
        case .timREST: "nesting exceeds the limit of \(counted(limit, "message level"))"
        case .encodedMessages: "message nesting exceeds the encoder's limit of \(counted(limit, "level"))"
        }
        return IMWireError(code: .depthLimitExceeded, reason: reason, offset: offset, path: path)
    }

    /// tim-rest text nested past the JSON depth its message limit allows: said in the terms the caller set.
    @inline(never)
    @usableFromInline package static func timRESTDepthLimitExceeded(limit: Int, jsonDepth: Int, offset: Int?) -> IMWireError {
        IMWireError(
            code: .depthLimitExceeded,
            reason: "nesting exceeds the depth limit of \(counted(limit, "message level"))"
                + " (within it, tim-rest JSON may nest \(jsonDepth) arrays and objects)",
            offset: offset)
    }

    /// A `maxDepth` of 0 or less: not even the top-level message fits.
    @inline(never)
    @usableFromInline package static func depthLimitAdmitsNoMessage(_ limit: Int) -> IMWireError {
        IMWireError(code: .depthLimitExceeded, reason: "the depth limit \(limit) admits no message", offset: 0)
    }

    /// Nesting the thread's remaining stack cannot hold, below the configured limit.
    @inline(never)
    @usableFromInline package static func stackExhausted(depth: Int, offset: Int?, path: String?) -> IMWireError {
        IMWireError(
            code: .depthLimitExceeded,
            reason: "nesting of \(counted(depth, "level")) needs more stack than this thread has left; decode on a thread with a larger stack or lower the depth limit",
            offset: offset, path: path)
    }

    @inline(never)
    @usableFromInline package static func depthLimitExceeded(_ reason: String) -> IMWireError {
        IMWireError(code: .depthLimitExceeded, reason: reason)
    }

    // MARK: - input_too_large

    /// An input of `size` bytes over `maxInputSize` (`nil`: a reader stopped at the byte after the
    /// limit, which is where the error is).
    @inline(never)
    @usableFromInline package static func inputTooLarge(size: Int?, limit: Int) -> IMWireError {
        IMWireError(
            code: .inputTooLarge,
            reason: "input \(size.map { "of \(counted($0, "byte")) " } ?? "")is larger than the limit of \(counted(limit, "byte"))",
            offset: size == nil ? limit : 0)
    }

    /// An input beyond the 32-bit offsets every reader keeps (4 GiB, protobuf's own limit).
    @inline(never)
    @usableFromInline package static func inputBeyondFourGiB(size: Int) -> IMWireError {
        IMWireError(
            code: .inputTooLarge,
            reason: "input of \(counted(size, "byte")) is larger than the largest message of \(counted(Int(UInt32.max), "byte"))",
            offset: 0)
    }

    /// A message view that would need more than `limit` words (2^32: a list keeps its entries'
    /// indices in 32 bits), where the decoder was at `offset`.
    @inline(never)
    @usableFromInline package static func viewTooLarge(limit: Int, offset: Int) -> IMWireError {
        IMWireError(
            code: .inputTooLarge,
            reason: "the message view of this input needs more than \(counted(limit, "word")) of 8 bytes; decode it into a message instead",
            offset: offset)
    }

    /// A line of a stream (`exactly` `length` bytes long, or at least that) over the limit per record.
    @inline(never)
    @usableFromInline package static func lineTooLong(_ length: Int, exactly: Bool, limit: Int, offset: Int, recordIndex: Int?) -> IMWireError {
        IMWireError(
            code: .inputTooLarge,
            reason: "line of \(exactly ? "" : "at least ")\(counted(length, "byte")) is longer than the limit of \(counted(limit, "byte")) per record",
            offset: offset, recordIndex: recordIndex)
    }

    /// A stream record whose prefix claims more than the limit per record.
    @inline(never)
    @usableFromInline package static func recordTooLarge(_ length: UInt64, limit: Int, offset: Int, recordIndex: Int?) -> IMWireError {
        IMWireError(
            code: .inputTooLarge,
            reason: "the record claims \(counted(length, "byte")), more than the limit of \(counted(limit, "byte")) per record",
            offset: offset, recordIndex: recordIndex)
    }

    // MARK: - json_syntax

    @inline(never)
    @usableFromInline package static func jsonSyntax(_ reason: String, offset: Int) -> IMWireError {
        IMWireError(code: .jsonSyntax, reason: reason, offset: offset)
    }

    /// An input that is empty or only whitespace where a JSON `value` (an object, a value) was expected.
    @inline(never)
    @usableFromInline package static func emptyJSON(expected value: String) -> IMWireError {
        IMWireError(code: .jsonSyntax, reason: "the input is empty; expected \(value)", offset: 0)
    }

    /// A string whose closing quote never comes; `quote` is the offset of its opening one.
    @inline(never)
    @usableFromInline package static func unterminatedString(quote: Int) -> IMWireError {
        IMWireError(code: .jsonSyntax, reason: "unterminated string: the input ends before its closing quote", offset: quote)
    }

    // MARK: - duplicate_key

    /// What a duplicate key is: a key of an object (quoted in the reason), a map key (quoted), or a
    /// message field, under either of its JSON names (named as the schema names it, unquoted).
    @usableFromInline package enum DuplicateKeyKind { case key, mapKey, field }

    /// A JSON object (or map) that holds `key` twice.
    @inline(never)
    @usableFromInline package static func duplicateKey(_ key: String, _ kind: DuplicateKeyKind = .key, offset: Int) -> IMWireError {
        let reason = switch kind {
        case .key: "key \"\(key)\" appears twice"
        case .mapKey: "map key \"\(key)\" appears twice"
        case .field: "field \(key) appears twice"
        }
        return IMWireError(code: .duplicateKey, reason: reason, offset: offset)
    }

    /// A duplicate the caller describes (the TUIKit writer's member names), at a path.
    @inline(never)
    @usableFromInline package static func duplicateKey(_ reason: String, path: String) -> IMWireError {
        IMWireError(code: .duplicateKey, reason: reason, path: path)
    }

    // MARK: - oneof_conflict, unknown_field

    @inline(never)
    @usableFromInline package static func oneofConflict(_ reason: String, offset: Int? = nil, path: String? = nil) -> IMWireError {
        IMWireError(code: .oneofConflict, reason: reason, offset: offset, path: path)
    }

    @inline(never)
    @usableFromInline package static func unknownField(_ reason: String, offset: Int? = nil, path: String? = nil) -> IMWireError {
        IMWireError(code: .unknownField, reason: reason, offset: offset, path: path)
    }

    // MARK: - invalid_escape, invalid_number, number_out_of_range, invalid_base64, invalid_value

    @inline(never)
    @usableFromInline package static func invalidEscape(_ reason: String, offset: Int) -> IMWireError {
        IMWireError(code: .invalidEscape, reason: reason, offset: offset)
    }

    @inline(never)
    @usableFromInline package static func invalidNumber(_ reason: String, offset: Int? = nil, path: String? = nil) -> IMWireError {
        IMWireError(code: .invalidNumber, reason: reason, offset: offset, path: path)
    }

    /// A number, as the input wrote it (`1.5`, or a tim-rest key and its text), that is not an integer
    /// where one is needed.
    @inline(never)
    @usableFromInline package static func notAnInteger(_ number: String, offset: Int? = nil, path: String? = nil) -> IMWireError {
        invalidNumber("\(number) is not an integer", offset: offset, path: path)
    }

    /// A number, as the input wrote it, beyond what a double holds.
    @inline(never)
    @usableFromInline package static func beyondDouble(_ number: String, offset: Int? = nil, path: String? = nil) -> IMWireError {
        numberOutOfRange("\(number) is out of the range of a double", offset: offset, path: path)
    }

    @inline(never)
    @usableFromInline package static func numberOutOfRange(_ reason: String, offset: Int? = nil, path: String? = nil) -> IMWireError {
        IMWireError(code: .numberOutOfRange, reason: reason, offset: offset, path: path)
    }

    /// The proto3 JSON bytes field `field` holding a string that is not base64.
    @inline(never)
    @usableFromInline package static func invalidBase64(field: String, offset: Int) -> IMWireError {
        IMWireError(code: .invalidBase64, reason: "string is not base64", offset: offset).aboutField(field)
    }

    @inline(never)
    @usableFromInline package static func invalidValue(_ reason: String, offset: Int? = nil, path: String? = nil) -> IMWireError {
        IMWireError(code: .invalidValue, reason: reason, offset: offset, path: path)
    }

    /// A TUIKit payload, read or written, whose `businessID` is the empty string.
    @inline(never)
    @usableFromInline package static func emptyTUIKitBusinessID() -> IMWireError {
        invalidValue(emptyTUIKitBusinessIDReason, path: "businessID")
    }

    /// What every refusal of an empty `businessID` says: the reader's, the writer's and the `tuikit`
    /// profile's (which reports it as a violation, not an error).
    @usableFromInline package static let emptyTUIKitBusinessIDReason = "businessID is empty"

    // MARK: - missing_field, unknown_msg_type, not_representable

    @inline(never)
    @usableFromInline package static func missingField(_ reason: String, offset: Int? = nil, path: String? = nil) -> IMWireError {
        IMWireError(code: .missingField, reason: reason, offset: offset, path: path)
    }

    @inline(never)
    @usableFromInline package static func unknownMsgType(_ reason: String, path: String?) -> IMWireError {
        IMWireError(code: .unknownMsgType, reason: reason, path: path)
    }

    @inline(never)
    @usableFromInline package static func notRepresentable(_ reason: String, path: String? = nil) -> IMWireError {
        IMWireError(code: .notRepresentable, reason: reason, path: path)
    }

    // MARK: - An error moved or reworded

    /// This error at byte `offset` instead of where it was (its path dropped).
    @inline(never)
    @usableFromInline package func at(offset: Int?) -> IMWireError {
        IMWireError(code: code, reason: reason, offset: offset)
    }

    /// This error as one about the value of the proto3 JSON field `field`: its name in front of the
    /// reason, the code and the offset kept.
    @inline(never)
    @usableFromInline package func aboutField(_ field: String) -> IMWireError {
        IMWireError(code: code, reason: "field \(field): \(reason)", offset: offset)
    }

    /// This error, found at an offset inside a record's body, as an error about the stream or
    /// buffer holding the record: the offset made relative to the stream (the record's own offset
    /// when the error had none), the record index added.
    @inline(never)
    @usableFromInline package func inRecord(_ index: Int?, recordOffset: Int, bodyOffset: Int) -> IMWireError {
        IMWireError(
            code: code, reason: reason, offset: offset.map { bodyOffset + $0 } ?? recordOffset, path: path,
            recordIndex: index)
    }
}
