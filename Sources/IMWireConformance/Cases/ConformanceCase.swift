/// One conformance test: a request for the testee and what must come back.
public struct ConformanceCase: Sendable {
    /// `Required|Recommended.<Input>.<Case>.<Output>` (see ``TestName``).
    public let name: String
    /// The manifest case it comes from.
    public let fixture: String
    /// What is sent (its `testName` is ``name``).
    public let request: ConformanceRequest
    /// What must come back.
    public let expectation: Expectation

    /// The case's level, from the first segment of its name.
    public var level: TestName.Level {
        name.hasPrefix(TestName.Level.recommended.rawValue + ".") ? .recommended : .required
    }

    /// A case named `name`; the request's `testName` is set to it.
    public init(name: String, fixture: String, request: ConformanceRequest, expectation: Expectation) {
        self.name = name
        self.fixture = fixture
        var request = request
        request.testName = name
        self.request = request
        self.expectation = expectation
    }
}

/// What a testee must answer to pass a case.
public enum Expectation: Sendable, Hashable {
    /// `binary_payload` that means the same message as these canonical bytes: both are decoded with
    /// IMWire's binary decoder, encoded canonically, and their unknown fields put in normal form
    /// (``SchemaWireWalker/normalizingUnknownFields(_:schema:)``), then compared byte for byte. Field
    /// order, map entry order, varint padding, NaN payloads and the order of unknown fields with
    /// different numbers are free; every value, every unknown field's number, wire type and
    /// content, and the order of unknown fields with the same number must match.
    case binary([UInt8])
    /// `binary_payload`, byte for byte equal to these canonical bytes (IMWire's canonical form:
    /// fields in number order, map entries by key, unknown fields as read, after the known ones).
    case canonicalBinary([UInt8])
    /// `json_payload` that means the same message as this canonical JSON: both are decoded with
    /// IMWire's JSON decoder and the results compared by their canonical binary encoding, so key
    /// order, whitespace, number and string spelling are free, but every value and every string's
    /// bytes must match (Docs/conformance.md: "compared as parsed messages").
    case json([UInt8])
    /// `tim_rest_payload` that means the same message as this canonical tim-rest JSON: both are
    /// decoded with IMWire's tim-rest decoder and compared like ``json(_:)``.
    case timRest([UInt8])
    /// `parse_error`, with any text.
    case parseError
    /// `parse_error` whose text starts with this IMWire error code (`truncated: …`).
    case parseErrorCode(String)
    /// `serialize_error`, with any text (an output format that cannot carry the message).
    case serializeError
    /// `serialize_error` whose text starts with this IMWire error code (`not_representable: …`).
    case serializeErrorCode(String)
    /// `validation_error` whose code list (before the first `:`) holds exactly these codes, in any
    /// order (duplicates ignored).
    case validationError(codes: [String])
    /// What the wrapped expectation asks for, or `parse_error` with any text: for an input that a
    /// correct runtime may read or refuse (a known field with another wire type, manifest
    /// `parse_error_allowed`).
    indirect case orParseError(Expectation)
}
