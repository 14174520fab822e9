import IMWire

/// The conformance cases derived from a fixture manifest. The cases come from the golden fixtures
/// alone; nothing is computed by the codec under test.
///
/// Each manifest case has a level, Required unless it says `"level": "recommended"` (with its
/// `level_note`): the level of the tests that decide whether the input is accepted and what it
/// means. The tests of IMWire's own choices — exact error codes, canonical bytes — are Recommended
/// whatever the case's level. `L` below is the case's level.
///
/// | manifest kind | tests (names `<Level>.<Input>.NAME.<Output>`) |
/// |---|---|
/// | `valid` | `L.BinaryInput.NAME.BinaryOutput`: `input` (or `binpb`) → the message of `binpb`. `L.BinaryInput.NAME.JsonOutput`: → `json`. `L.JsonInput.NAME.BinaryOutput`: `json` → `binpb` (without its unknown fields when `has_unknown_fields`: JSON cannot carry them). `L.JsonInput.NAME.JsonOutput`: `json` → `json`. `Recommended.BinaryInput.NAME.CanonicalBinaryOutput` and `Recommended.JsonInput.NAME.CanonicalBinaryOutput`: the same bytes as `binpb`. With `parse_error_allowed`, `L.BinaryInput.NAME.BinaryOutput` and `.JsonOutput` also pass on a `parse_error`, and `Recommended.BinaryInput.NAME.BinaryOutput` and `.JsonOutput` (same names, the other level) want the message. |
/// | `noncanonical_binary` | `L.BinaryInput.NAME.BinaryOutput` and `.JsonOutput`: `input` → `binpb` / `json`; `Recommended.BinaryInput.NAME.CanonicalBinaryOutput`. |
/// | `invalid_binary` | `L.BinaryInput.NAME.ParseError`: any `parse_error`. `Recommended.BinaryInput.NAME.ParseErrorCode`: a `parse_error` that starts with the manifest's `error` code. |
/// | `json_accept` | `L.JsonInput.NAME.BinaryOutput` and `.JsonOutput`: `input` → `binpb` / `json`; `Recommended.JsonInput.NAME.CanonicalBinaryOutput`. |
/// | `json_reject` | `L.JsonInput.NAME.ParseError`: any `parse_error`. `Recommended.JsonInput.NAME.ParseErrorCode`: one that starts with `error`. |
/// | `tim_rest` | `L.TimRestInput.NAME.BinaryOutput`, `.JsonOutput`, `.TimRestOutput`: `input` → `binpb` / `json` / the canonical `tim_rest`. `L.BinaryInput.NAME.TimRestOutput`: `binpb` → `tim_rest`. `Recommended.TimRestInput.NAME.CanonicalBinaryOutput`. |
/// | `tim_rest_reject` | `L.TimRestInput.NAME.ParseError`, `Recommended.TimRestInput.NAME.ParseErrorCode`. |
/// | `tim_rest_export_reject` | `L.BinaryInput.NAME.SerializeError`: `binpb` asked for as tim-rest gives any `serialize_error`; `Recommended.BinaryInput.NAME.SerializeErrorCode`: one that starts with `error`. |
/// | `limit` | `L.BinaryInput.NAME.Validation` (and `L.JsonInput.NAME.Validation` when the case has `json`): validated with the case's `profile`; `validation_error` with exactly `expected_codes`, or, when there are none, the message of `binpb`. |
///
/// Outputs are compared as parsed messages (``Expectation``): binary by its message with unknown
/// fields by content, JSON and tim-rest by the message they decode to. There is no test of unknown
/// fields in JSON output: the proto3 JSON mapping has no place for them, so the `JsonOutput` tests of
/// cases with unknown fields expect them dropped, like every JSON implementation does. JSON cases
/// whose `options` ignore unknown fields set the request's `json_ignore_unknown_fields`; cases with
/// other options, and manifest kinds this version does not know, are not run and are counted in
/// ``notes``.
public struct ConformanceSuite: Sendable {
    /// Every case, in manifest order, then by input and output.
    public var cases: [ConformanceCase]
    /// What was left out, one sentence each.
    public var notes: [String]
    /// Set while the cases of an entry whose options ignore unknown JSON fields are added.
    private var ignoreUnknownFields = false

    /// A suite of `cases`.
    public init(cases: [ConformanceCase], notes: [String] = []) {
        self.cases = cases
        self.notes = notes
    }

    /// Reads `DIRECTORY/manifest.json` and derives the cases.
    public static func load(fixturesDirectory: String) throws(ConformanceSetupError) -> ConformanceSuite {
        try derive(from: FixtureManifest.load(directory: fixturesDirectory))
    }

    /// Derives the cases of every manifest entry.
    public static func derive(from manifest: FixtureManifest) throws(ConformanceSetupError) -> ConformanceSuite {
        var suite = ConformanceSuite(cases: [])
        var unknownKinds: [String: Int] = [:]
        var withOptions = 0
        for entry in manifest.entries {
            if entry.objectKeys.contains("options") {
                // The protocol carries one decoder option, json_ignore_unknown_fields.
                guard entry.flagObjects["options"] == ["ignore_unknown_fields": true], entry.kind.hasPrefix("json_") else {
                    withOptions += 1
                    continue
                }
                suite.ignoreUnknownFields = true
                defer { suite.ignoreUnknownFields = false }
                switch entry.kind {
                case "json_accept": try suite.addJSONAccept(entry, manifest)
                default: try suite.addJSONReject(entry, manifest)
                }
                continue
            }
            switch entry.kind {
            case "valid": try suite.addValid(entry, manifest)
            case "noncanonical_binary": try suite.addNoncanonical(entry, manifest)
            case "invalid_binary": try suite.addInvalid(entry, manifest)
            case "json_accept": try suite.addJSONAccept(entry, manifest)
            case "json_reject": try suite.addJSONReject(entry, manifest)
            case "limit": try suite.addLimit(entry, manifest)
            case "tim_rest": try suite.addTIMREST(entry, manifest)
            case "tim_rest_reject": try suite.addTIMRESTReject(entry, manifest)
            case "tim_rest_export_reject": try suite.addTIMRESTExportReject(entry, manifest)
            default: unknownKinds[entry.kind, default: 0] += 1
            }
        }
        if withOptions > 0 {
            suite.notes.append("\(withOptions) manifest case(s) with decoder options other than ignore_unknown_fields are not run: the protocol cannot pass them to a testee")
        }
        for (kind, count) in unknownKinds.sorted(by: { $0.key < $1.key }) {
            suite.notes.append("\(count) manifest case(s) of kind \"\(kind)\" are not run: this runner does not know that kind yet")
        }
        return suite
    }

    /// The level of `entry`'s acceptance and meaning tests (also the level of the generative mode's
    /// classes that follow a golden case, ``ExploreLevels``).
    static func level(of entry: FixtureManifest.Entry) throws(ConformanceSetupError) -> TestName.Level {
        switch entry.strings["level"] {
        case nil, "required": return .required
        case "recommended": return .recommended
        case let other?: throw ConformanceSetupError("manifest case \(entry.name) has an unknown level \"\(other)\"")
        }
    }

    private mutating func add(
        _ level: TestName.Level, _ input: TestName.Input, _ entry: FixtureManifest.Entry, _ output: TestName.Output,
        payload: [UInt8], format: WireFormat, profile: String = "", expect expectation: Expectation
    ) {
        let request = ConformanceRequest(
            payload: input == .binary ? .binaryPayload(payload) : input == .json ? .jsonPayload(payload) : .timRestPayload(payload),
            requestedOutputFormat: format,
            validationProfile: profile,
            jsonIgnoreUnknownFields: ignoreUnknownFields)
        cases.append(ConformanceCase(
            name: TestName.make(level, input, entry.name, output), fixture: entry.name, request: request,
            expectation: expectation))
    }

    private func file(_ entry: FixtureManifest.Entry, _ key: String, _ manifest: FixtureManifest) throws(ConformanceSetupError) -> [UInt8] {
        guard let path = entry.strings[key] else {
            throw ConformanceSetupError("manifest case \(entry.name) (\(entry.kind)) has no \"\(key)\"")
        }
        return try manifest.bytes(path)
    }

    private mutating func addValid(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let level = try Self.level(of: entry)
        let canonical = try file(entry, "binpb", manifest)
        let json = try file(entry, "json", manifest)
        let input = entry.strings["input"] != nil ? try file(entry, "input", manifest) : canonical
        var fromJSON = canonical
        if entry.flags["has_unknown_fields"] == true {
            guard let stripped = SchemaWireWalker.strippingUnknownFields(canonical, schema: Message.schema) else {
                throw ConformanceSetupError("manifest case \(entry.name): binpb is not a well-formed imwire.v1.Message")
            }
            fromJSON = stripped
        }
        if entry.flags["parse_error_allowed"] == true && level == .required {
            // A correct runtime may refuse the binary input: Required accepts either answer,
            // Recommended wants the message (Docs/conformance.md, "Principles").
            add(level, .binary, entry, .binary, payload: input, format: .binary, expect: .orParseError(.binary(canonical)))
            add(level, .binary, entry, .json, payload: input, format: .json, expect: .orParseError(.json(json)))
            add(.recommended, .binary, entry, .binary, payload: input, format: .binary, expect: .binary(canonical))
            add(.recommended, .binary, entry, .json, payload: input, format: .json, expect: .json(json))
            add(.recommended, .binary, entry, .canonicalBinary, payload: input, format: .binary, expect: .canonicalBinary(canonical))
        } else {
            addBinaryOutput(level, .binary, entry, payload: input, canonical: canonical)
            add(level, .binary, entry, .json, payload: input, format: .json, expect: .json(json))
        }
        addBinaryOutput(level, .json, entry, payload: json, canonical: fromJSON)
        add(level, .json, entry, .json, payload: json, format: .json, expect: .json(json))
    }

    /// `L.<Input>.NAME.BinaryOutput` (the message) and `Recommended.<Input>.NAME.CanonicalBinaryOutput`
    /// (the bytes), from one input.
    private mutating func addBinaryOutput(
        _ level: TestName.Level, _ input: TestName.Input, _ entry: FixtureManifest.Entry, payload: [UInt8], canonical: [UInt8]
    ) {
        add(level, input, entry, .binary, payload: payload, format: .binary, expect: .binary(canonical))
        add(.recommended, input, entry, .canonicalBinary, payload: payload, format: .binary, expect: .canonicalBinary(canonical))
    }

    private mutating func addNoncanonical(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let level = try Self.level(of: entry)
        let input = try file(entry, "input", manifest)
        addBinaryOutput(level, .binary, entry, payload: input, canonical: try file(entry, "binpb", manifest))
        add(level, .binary, entry, .json, payload: input, format: .json, expect: .json(try file(entry, "json", manifest)))
    }

    private mutating func addJSONAccept(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let level = try Self.level(of: entry)
        let input = try file(entry, "input", manifest)
        addBinaryOutput(level, .json, entry, payload: input, canonical: try file(entry, "binpb", manifest))
        add(level, .json, entry, .json, payload: input, format: .json, expect: .json(try file(entry, "json", manifest)))
    }

    /// `L.<Input>.NAME.<error>` (any error of that kind) and `Recommended.<Input>.NAME.<error>Code`
    /// (the manifest's code), for a rejected input or output.
    private mutating func addRejection(
        _ input: TestName.Input, _ entry: FixtureManifest.Entry, _ manifest: FixtureManifest, payload: [UInt8],
        format: WireFormat, serialize: Bool = false
    ) throws(ConformanceSetupError) {
        guard let code = entry.strings["error"] else {
            throw ConformanceSetupError("manifest case \(entry.name) (\(entry.kind)) has no \"error\"")
        }
        let level = try Self.level(of: entry)
        if serialize {
            add(level, input, entry, .serializeError, payload: payload, format: format, expect: .serializeError)
            add(.recommended, input, entry, .serializeErrorCode, payload: payload, format: format, expect: .serializeErrorCode(code))
        } else {
            add(level, input, entry, .parseError, payload: payload, format: format, expect: .parseError)
            add(.recommended, input, entry, .parseErrorCode, payload: payload, format: format, expect: .parseErrorCode(code))
        }
    }

    private mutating func addJSONReject(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        try addRejection(.json, entry, manifest, payload: try file(entry, "input", manifest), format: .binary)
    }

    private mutating func addInvalid(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        try addRejection(.binary, entry, manifest, payload: try file(entry, "input", manifest), format: .binary)
    }

    private mutating func addTIMREST(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let level = try Self.level(of: entry)
        let input = try file(entry, "input", manifest)
        let canonical = try file(entry, "binpb", manifest)
        let timRest = try file(entry, "tim_rest", manifest)
        addBinaryOutput(level, .timRest, entry, payload: input, canonical: canonical)
        add(level, .timRest, entry, .json, payload: input, format: .json, expect: .json(try file(entry, "json", manifest)))
        add(level, .timRest, entry, .timRest, payload: input, format: .timRest, expect: .timRest(timRest))
        add(level, .binary, entry, .timRest, payload: canonical, format: .timRest, expect: .timRest(timRest))
    }

    private mutating func addTIMRESTReject(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        try addRejection(.timRest, entry, manifest, payload: try file(entry, "input", manifest), format: .binary)
    }

    private mutating func addTIMRESTExportReject(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        try addRejection(.binary, entry, manifest, payload: try file(entry, "binpb", manifest), format: .timRest, serialize: true)
    }

    private mutating func addLimit(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        guard let profile = entry.strings["profile"] else {
            throw ConformanceSetupError("manifest case \(entry.name) (limit) has no \"profile\"")
        }
        let level = try Self.level(of: entry)
        let codes = entry.lists["expected_codes"] ?? []
        let canonical = try file(entry, "binpb", manifest)
        let expectation: Expectation = codes.isEmpty ? .binary(canonical) : .validationError(codes: codes)
        add(level, .binary, entry, .validation, payload: canonical, format: .binary, profile: profile, expect: expectation)
        if entry.strings["json"] != nil {
            let json = try file(entry, "json", manifest)
            add(level, .json, entry, .validation, payload: json, format: .binary, profile: profile, expect: expectation)
        }
    }
}
