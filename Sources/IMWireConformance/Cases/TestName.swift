/// The segments of a conformance test name, `Required|Recommended.<Input>.<Case>.<Output>` (Google's
/// protobuf conformance scheme): `Required.BinaryInput.elem_text_all_fields.JsonOutput`.
///
/// - Level: `Required` — what proto3 and the `imwire.v1` schema demand of every correct
///   implementation: a correct protobuf runtime passes, at most with documented options set (a
///   recursion limit raised so that 100 merger layers decode). `Recommended` — IMWire's stricter
///   choices: exact error codes, canonical bytes, rejecting input past a depth limit, and the JSON
///   strictness classes Google's suite also rates Recommended. Recommended failures are warnings
///   unless the run enforces them (Docs/conformance.md, "Levels").
/// - Input: the payload member of the request (`BinaryInput`, `JsonInput`, `TimRestInput`).
/// - Case: the fixture's name in `Fixtures/manifest.json` (lower_snake_case, no dots).
/// - Output: what is checked — the requested output format compared as a parsed message
///   (`BinaryOutput`, `JsonOutput`, `TimRestOutput`) or byte for byte (`CanonicalBinaryOutput`), a
///   rejection of the input (`ParseError`, `ParseErrorCode`) or of the output format
///   (`SerializeError`, `SerializeErrorCode`), or a validation outcome (`Validation`).
public enum TestName {
    /// The first segment: whether the contract demands it.
    public enum Level: String, Sendable, CaseIterable {
        case required = "Required"
        case recommended = "Recommended"
    }

    /// The second segment: the format of the input.
    public enum Input: String, Sendable, CaseIterable {
        case binary = "BinaryInput"
        case json = "JsonInput"
        case timRest = "TimRestInput"
    }

    /// The last segment: what is checked.
    public enum Output: String, Sendable, CaseIterable {
        case binary = "BinaryOutput"
        case canonicalBinary = "CanonicalBinaryOutput"
        case json = "JsonOutput"
        case timRest = "TimRestOutput"
        case parseError = "ParseError"
        case parseErrorCode = "ParseErrorCode"
        case serializeError = "SerializeError"
        case serializeErrorCode = "SerializeErrorCode"
        case validation = "Validation"
    }

    /// `Level.Input.Case.Output`.
    public static func make(_ level: Level, _ input: Input, _ fixture: String, _ output: Output) -> String {
        "\(level.rawValue).\(input.rawValue).\(fixture).\(output.rawValue)"
    }

    /// The four segments, in order.
    enum Segment: Int { case level, input, `case`, output }

    /// `name` with its segment `segment` replaced by `text` (a name with fewer segments comes back
    /// unchanged past its end).
    static func replacing(_ segment: Segment, of name: String, with text: String) -> String {
        var segments = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segment.rawValue < segments.count else { return name }
        segments[segment.rawValue] = text
        return segments.joined(separator: ".")
    }
}

/// A pattern over test names: dot-separated segments where `*` matches exactly one whole segment
/// (`Recommended.BinaryInput.*.ParseErrorCode`). Used by expected-failure files (which need all four
/// segments) and by `--filter` (where fewer segments match as a prefix: `Required.JsonInput`).
public struct TestNamePattern: Hashable, Sendable, CustomStringConvertible {
    /// The segments; `nil` is `*`.
    public let segments: [String?]
    /// Names with more segments than the pattern match too (a `--filter` prefix).
    public let matchesPrefix: Bool

    /// Parses `text`. Throws for an empty pattern or an empty segment (`a..b`).
    public init(_ text: String, matchesPrefix: Bool = false) throws(ConformanceSetupError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !text.isEmpty, !parts.contains(where: \.isEmpty) else {
            throw ConformanceSetupError("invalid test name pattern \"\(text)\": empty segment")
        }
        guard !parts.contains(where: { $0 != "*" && $0.contains("*") }) else {
            throw ConformanceSetupError("invalid test name pattern \"\(text)\": `*` stands for a whole segment")
        }
        segments = parts.map { $0 == "*" ? nil : $0 }
        self.matchesPrefix = matchesPrefix
    }

    /// Whether `name` matches: segment by segment, `*` matching any one segment.
    public func matches(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == segments.count || (matchesPrefix && parts.count > segments.count) else { return false }
        for (segment, part) in zip(segments, parts) {
            if let segment, segment != part { return false }
        }
        return true
    }

    /// Whether the pattern has a `*`.
    public var hasWildcard: Bool { segments.contains(nil) }

    /// The pattern as written.
    public var description: String { segments.map { $0 ?? "*" }.joined(separator: ".") }
}
