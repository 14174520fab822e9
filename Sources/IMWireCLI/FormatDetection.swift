import IMWire

/// How `validate` and `convert` find the input format when `--format` / `--from` is not given, and
/// the hints a decode error gets. A format is chosen only when the input leaves no doubt, because
/// reading a document in the wrong JSON dialect does not fail — it drops every key of the other
/// one:
///
/// - JSON text (after ASCII whitespace `{` or `[`, no control byte but tab, line feed and carriage
///   return: JSON allows no other, and a binary message has tag and length bytes below 0x20) is
///   tim-rest when it is an array (a bare `MsgBody`), and otherwise decided by the keys of the
///   top-level object: proto3 JSON when every key that is a field of `imwire.v1.Message` (or differs
///   from one only by case or underscores) is on that side and none is a tim-rest key, tim-rest the
///   other way round. An object with keys of both, or with keys of neither, is a usage error
///   (`format_not_detected`, status 2) that names the keys and the `--from` to pass; `{}` is the
///   empty proto3 JSON message.
/// - A JSON value that is not an object or array (`null`, `"text"`, `12`) is read as proto3 JSON, so
///   that the error says what it is.
/// - Anything else is binary, empty input too (the empty message).
///
/// A UTF-8 byte-order mark is left out when the keys are looked at; the decode then refuses it
/// and the error names it.
enum FormatDetection {
    /// The format of `bytes`, or the `format_not_detected` usage failure. `option` is the option
    /// that names a format (`--from`, `--format`).
    static func detect(_ bytes: [UInt8], option: String) throws(CLIFailure) -> Format {
        switch classify(bytes) {
        case .format(let format):
            return format
        case .undecided(let keys):
            throw CLIFailure(message: "format_not_detected: \(keys.explanation(option: option))", status: 2)
        }
    }

    /// The format `bytes` are without doubt, if any: for hints.
    static func likelyFormat(_ bytes: [UInt8]) -> Format? {
        if case .format(let format) = classify(bytes) { return format }
        return nil
    }

    /// What to add to a decode error's line: what the input is when it is no message at all (a
    /// byte-order mark, `null`, compressed data, …); else the format it was read as when it was
    /// detected, or the format it looks like when `option` named another one.
    static func hint(for bytes: [UInt8], readAs format: Format, detected: Bool, option: String) -> String? {
        if let what = NonMessage.describe(bytes, readAs: format, option: option) { return what }
        if detected {
            return "read as \(format.rawValue), detected from the input; \(option) names the format"
        }
        // An empty (or blank) input looks like nothing: its error says it is empty.
        guard bytes.contains(where: { !isJSONWhitespace($0) }),
              let likely = likelyFormat(bytes), likely != format else { return nil }
        return "the input looks like \(likely.rawValue), not \(format.rawValue): try \(option) \(likely.rawValue)"
    }

    // MARK: - Classification

    private enum Classification {
        case format(Format)
        case undecided(KeyVotes)
    }

    private static func classify(_ bytes: [UInt8]) -> Classification {
        let text = NonMessage.withoutUTF8ByteOrderMark(bytes)
        guard let first = text.first(where: { !isJSONWhitespace($0) }) else { return .format(.binary) }
        let isJSONText = !text.contains(where: { $0 < 0x20 && !isJSONWhitespace($0) })
        if isJSONText, first == UInt8(ascii: "[") { return .format(.timRest) }
        if isJSONText, first == UInt8(ascii: "{") { return classifyObject(text) }
        if NonMessage.jsonScalar(text) != nil { return .format(.json) }
        return .format(.binary)
    }

    /// An object by its top-level keys; malformed JSON by the old rule (a `"MsgBody"` or `"MsgType"`
    /// anywhere is tim-rest), so that its syntax error comes from the likelier reader.
    private static func classifyObject(_ text: ArraySlice<UInt8>) -> Classification {
        let keys = text.withUnsafeBufferPointer { buffer -> [String]? in
            guard let tape = try? JSONTape(buffer, maxDepth: .max), tape[0].kind == .object else { return nil }
            return tape.members(of: 0).map { tape.string($0.key) }
        }
        guard let keys else {
            let timRESTKeys = [Array(#""MsgBody""#.utf8), Array(#""MsgType""#.utf8)]
            return .format(timRESTKeys.contains(where: { text.contains(subsequence: $0) }) ? .timRest : .json)
        }
        let votes = KeyVotes(keys)
        switch (votes.json.isEmpty, votes.timREST.isEmpty) {
        case (false, true): return .format(.json)
        case (true, false): return .format(.timRest)
        case (true, true) where keys.isEmpty: return .format(.json)
        default: return .undecided(votes)
        }
    }

    /// The top-level keys of an object, by dialect: a key is a dialect's when it is one of its keys,
    /// or — being neither dialect's — differs from one of its keys only by ASCII case or
    /// underscores (a misspelling still says which dialect was meant).
    private struct KeyVotes {
        var json: [String] = []
        var timREST: [String] = []
        var neither: [String] = []

        private static let jsonKeys = Set(Message.schema.fields.flatMap { [$0.name, $0.jsonName] })
        private static let foldedJSONKeys = Set(jsonKeys.map(KeySuggestion.fold))
        private static let foldedTIMRESTKeys = Set(TIMRESTRootKeys.all.map(KeySuggestion.fold))

        init(_ keys: [String]) {
            for key in keys {
                let isJSON = Self.jsonKeys.contains(key)
                let isTIMREST = TIMRESTRootKeys.all.contains(key)
                let folded = KeySuggestion.fold(key)
                let likeJSON = isJSON || (!isTIMREST && Self.foldedJSONKeys.contains(folded))
                let likeTIMREST = isTIMREST || (!isJSON && Self.foldedTIMRESTKeys.contains(folded))
                switch (likeJSON, likeTIMREST) {
                case (true, false): json.append(key)
                case (false, true): timREST.append(key)
                default: neither.append(key)
                }
            }
        }

        /// The usage error's sentence: the keys of each side and of neither, and what to pass.
        func explanation(option: String) -> String {
            var parts: [String] = []
            if !json.isEmpty { parts.append("proto3 JSON fields \(Self.list(json))") }
            if !timREST.isEmpty { parts.append("tim-rest keys \(Self.list(timREST))") }
            let found = parts.isEmpty ? "no key of either" : parts.joined(separator: " and ")
            let undecided = neither.isEmpty ? "" : "; \(Self.list(neither)) decided nothing"
            let skipped = json.isEmpty || timREST.isEmpty
                ? "\(option) json --ignore-unknown-fields or \(option) tim-rest, whose warnings name the keys it skips"
                : "\(option) json (tim-rest keys are then unknown fields) or \(option) tim-rest (proto3 JSON fields are then skipped, with a warning each)"
            return "cannot tell whether the input is proto3 JSON or tim-rest: it has \(found)\(undecided); pass \(skipped)"
        }

        /// `"a", "b" and 3 more`.
        private static func list(_ keys: [String]) -> String {
            let shown = keys.prefix(6).map { "\"\($0)\"" }.joined(separator: ", ")
            return keys.count > 6 ? "\(shown) and \(keys.count - 6) more" : shown
        }
    }
}

/// Inputs that are no message in any format, recognised so that an error can say what they are
/// rather than how the bytes fail to parse.
enum NonMessage {
    /// A sentence about `bytes` if they are one of the common non-messages, for a decode error's
    /// line; `nil` otherwise. `format` is what the input was read as.
    static func describe(_ bytes: [UInt8], readAs format: Format, option: String) -> String? {
        // Read as JSON, the error names the byte-order mark itself.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]), format == .binary {
            return "the input is text with a UTF-8 byte-order mark (EF BB BF), which JSON must not have: remove it"
        }
        if let encoding = utf16Or32(bytes) {
            return "the input is \(encoding) text; IMWire reads JSON as UTF-8: convert it first (iconv -f \(encoding) -t UTF-8)"
        }
        if let scalar = jsonScalar(bytes[...]) {
            if scalar == Self.encodedTwice {
                return "the input is a JSON string that holds JSON text (encoded twice?): decode the string first (jq -r .)"
            }
            return "the input is \(scalar), not a message: a message is a JSON object (proto3 JSON or tim-rest), a tim-rest MsgBody array or binary protobuf"
        }
        if bytes.starts(with: [0x1F, 0x8B]) {
            return "the input is gzip-compressed: decompress it first (gunzip)"
        }
        let text = String(decoding: bytes.prefix(16), as: UTF8.self)
        if ["POST ", "PUT ", "GET ", "HTTP/"].contains(where: text.hasPrefix) {
            return "the input is an HTTP message with its headers: pass only the body"
        }
        if format != .binary, holdsSeveralJSONValues(bytes) {
            return "the input holds more than one JSON value: for one message per line use convert --stream \(option) \(format.rawValue)"
        }
        if format == .binary, let encoding = binaryAsText(bytes) {
            return "the input looks like \(encoding) text, not binary bytes: \(encoding == "hex" ? "convert it (xxd -r -p)" : "decode it (base64 -d)") first"
        }
        return nil
    }

    /// `bytes` without a leading UTF-8 byte-order mark.
    static func withoutUTF8ByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }

    /// What ``jsonScalar(_:)`` calls a string that holds JSON text.
    private static let encodedTwice = "a JSON string holding JSON text"

    /// `the JSON value null`, `a JSON string`, … when `text` is one JSON value that is neither an
    /// object nor an array; a string that holds JSON text is named as such (encoded twice).
    static func jsonScalar(_ text: ArraySlice<UInt8>) -> String? {
        text.withUnsafeBufferPointer { buffer -> String? in
            guard let tape = try? JSONTape(buffer, maxDepth: 1) else { return nil }
            switch tape[0].kind {
            case .object, .array: return nil
            case .null: return "the JSON value null"
            case .true: return "the JSON value true"
            case .false: return "the JSON value false"
            case .number: return "the JSON number \(tape.string(0))"
            case .string:
                let inner = tape.string(0).utf8.drop { isJSONWhitespace($0) }
                if let first = inner.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                    return encodedTwice
                }
                return "a JSON string"
            }
        }
    }

    /// `UTF-16LE`, `UTF-16BE`, `UTF-32LE`, `UTF-32BE` for text with such a byte-order mark, or
    /// UTF-16 JSON without one (`{` or `[` next to a zero byte).
    private static func utf16Or32(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32LE" }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return "UTF-32BE" }
        if bytes.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        if bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        guard bytes.count >= 4 else { return nil }
        let brackets: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "[")]
        if brackets.contains(bytes[0]), bytes[1] == 0, bytes[3] == 0 { return "UTF-16LE" }
        if bytes[0] == 0, brackets.contains(bytes[1]), bytes[2] == 0 { return "UTF-16BE" }
        return nil
    }

    /// Whether a second JSON value follows the first (JSON lines given as one message).
    private static func holdsSeveralJSONValues(_ bytes: [UInt8]) -> Bool {
        let lines = bytes.split(separator: UInt8(ascii: "\n")).filter { $0.contains { !isJSONWhitespace($0) } }
        guard lines.count > 1 else { return false }
        return lines.prefix(2).allSatisfy { line in
            line.withUnsafeBufferPointer { (try? JSONTape($0, maxDepth: .max)) != nil }
        }
    }

    /// `hex` or `base64` when the bytes are nothing but such text (and long enough to tell).
    private static func binaryAsText(_ bytes: [UInt8]) -> String? {
        let text = bytes.filter { !isJSONWhitespace($0) }
        guard text.count >= 8 else { return nil }
        let hexDigits = Set("0123456789abcdefABCDEF".utf8)
        if text.count % 2 == 0, text.allSatisfy(hexDigits.contains) { return "hex" }
        let base64 = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_".utf8)
        if text.allSatisfy(base64.contains) { return "base64" }
        return nil
    }
}

/// JSON's whitespace: space, line feed, carriage return, tab.
func isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

extension Collection where Element == UInt8, Index == Int {
    /// Whether `needle` occurs in these bytes (linear in practice: the needles are short keys).
    fileprivate func contains(subsequence needle: [UInt8]) -> Bool {
        guard let head = needle.first, needle.count <= count else { return false }
        var index = startIndex
        while let found = self[index...].firstIndex(of: head), found + needle.count <= endIndex {
            if self[found..<(found + needle.count)].elementsEqual(needle) { return true }
            index = found + 1
        }
        return false
    }
}
