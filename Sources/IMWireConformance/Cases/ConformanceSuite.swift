import IMWire

/// The conformance cases derived from a fixture manifest (SPEC §4.2). The cases come from the
/// golden fixtures alone; nothing is computed by the codec under test.
///
/// | manifest kind | tests (names `<Level>.<Input>.NAME.<Output>`) |
/// |---|---|
/// | `valid` | `Required.BinaryInput.NAME.BinaryOutput`: `input` (or `binpb`) → `binpb` byte for byte. `Required.BinaryInput.NAME.JsonOutput`: → `json`. `Required.JsonInput.NAME.BinaryOutput`: `json` → `binpb` (without its unknown fields when `has_unknown_fields`: JSON cannot carry them). `Required.JsonInput.NAME.JsonOutput`: `json` → `json`. |
/// | `noncanonical_binary` | `Required.BinaryInput.NAME.BinaryOutput` and `.JsonOutput`: `input` → `binpb` / `json`. |
/// | `invalid_binary` | `Required.BinaryInput.NAME.ParseError`: any `parse_error`. `Recommended.BinaryInput.NAME.ParseErrorCode`: a `parse_error` that starts with the manifest's `error` code. |
/// | `json_accept` | `Required.JsonInput.NAME.BinaryOutput` and `.JsonOutput`: `input` → `binpb` / `json`. |
/// | `json_reject` | `Required.JsonInput.NAME.ParseError`: any `parse_error`. `Recommended.JsonInput.NAME.ParseErrorCode`: one that starts with `error`. |
/// | `tim_rest` | `Required.TimRestInput.NAME.BinaryOutput`, `.JsonOutput`, `.TimRestOutput`: `input` → `binpb` / `json` / the canonical `tim_rest`. `Required.BinaryInput.NAME.TimRestOutput`: `binpb` → `tim_rest`. |
/// | `tim_rest_reject` | `Required.TimRestInput.NAME.ParseError`, `Recommended.TimRestInput.NAME.ParseErrorCode`. |
/// | `tim_rest_export_reject` | `Required.BinaryInput.NAME.SerializeError`: `binpb` asked for as tim-rest gives any `serialize_error`; `Recommended.BinaryInput.NAME.SerializeErrorCode`: one that starts with `error`. |
/// | `limit` | `Required.BinaryInput.NAME.Validation` (and `Required.JsonInput.NAME.Validation` when the case has `json`): validated with the case's `profile`; `validation_error` with exactly `expected_codes`, or, when there are none, the canonical binary. |
///
/// There is no test of unknown fields in JSON output: the proto3 JSON mapping has no place for them,
/// so the `JsonOutput` tests of cases with unknown fields expect them dropped, like every JSON
/// implementation does. Cases that need decoder options (`options`, e.g. `ignore_unknown_fields`)
/// are not run: the protocol has no field for them (SPEC §4.2). They and manifest kinds this version
/// does not know are counted in ``notes``.
public struct ConformanceSuite: Sendable {
    /// Every case, in manifest order, then by input and output.
    public var cases: [ConformanceCase]
    /// What was left out, one sentence each.
    public var notes: [String]

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
                withOptions += 1
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
            suite.notes.append("\(withOptions) manifest case(s) with decoder options are not run: the protocol cannot pass options to a testee")
        }
        for (kind, count) in unknownKinds.sorted(by: { $0.key < $1.key }) {
            suite.notes.append("\(count) manifest case(s) of kind \"\(kind)\" are not run: this runner does not know that kind yet")
        }
        return suite
    }

    private mutating func add(
        _ level: TestName.Level, _ input: TestName.Input, _ entry: FixtureManifest.Entry, _ output: TestName.Output,
        payload: [UInt8], format: WireFormat, profile: String = "", expect expectation: Expectation
    ) {
        let request = ConformanceRequest(
            payload: input == .binary ? .binaryPayload(payload) : input == .json ? .jsonPayload(payload) : .timRestPayload(payload),
            requestedOutputFormat: format,
            validationProfile: profile)
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
        let canonical = try file(entry, "binpb", manifest)
        let json = try file(entry, "json", manifest)
        let input = entry.strings["input"] != nil ? try file(entry, "input", manifest) : canonical
        var fromJSON = canonical
        if entry.flags["has_unknown_fields"] == true {
            guard let stripped = UnknownFieldStripper.strip(canonical, schema: Message.schema) else {
                throw ConformanceSetupError("manifest case \(entry.name): binpb is not a well-formed imwire.v1.Message")
            }
            fromJSON = stripped
        }
        add(.required, .binary, entry, .binary, payload: input, format: .binary, expect: .binary(canonical))
        add(.required, .binary, entry, .json, payload: input, format: .json, expect: .json(json))
        add(.required, .json, entry, .binary, payload: json, format: .binary, expect: .binary(fromJSON))
        add(.required, .json, entry, .json, payload: json, format: .json, expect: .json(json))
    }

    private mutating func addNoncanonical(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let input = try file(entry, "input", manifest)
        add(.required, .binary, entry, .binary, payload: input, format: .binary, expect: .binary(try file(entry, "binpb", manifest)))
        add(.required, .binary, entry, .json, payload: input, format: .json, expect: .json(try file(entry, "json", manifest)))
    }

    private mutating func addJSONAccept(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let input = try file(entry, "input", manifest)
        add(.required, .json, entry, .binary, payload: input, format: .binary, expect: .binary(try file(entry, "binpb", manifest)))
        add(.required, .json, entry, .json, payload: input, format: .json, expect: .json(try file(entry, "json", manifest)))
    }

    private mutating func addJSONReject(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let input = try file(entry, "input", manifest)
        guard let code = entry.strings["error"] else {
            throw ConformanceSetupError("manifest case \(entry.name) (json_reject) has no \"error\"")
        }
        add(.required, .json, entry, .parseError, payload: input, format: .binary, expect: .parseError)
        add(.recommended, .json, entry, .parseErrorCode, payload: input, format: .binary, expect: .parseErrorCode(code))
    }

    private mutating func addInvalid(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let input = try file(entry, "input", manifest)
        guard let code = entry.strings["error"] else {
            throw ConformanceSetupError("manifest case \(entry.name) (invalid_binary) has no \"error\"")
        }
        add(.required, .binary, entry, .parseError, payload: input, format: .binary, expect: .parseError)
        add(.recommended, .binary, entry, .parseErrorCode, payload: input, format: .binary, expect: .parseErrorCode(code))
    }

    private mutating func addTIMREST(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let input = try file(entry, "input", manifest)
        let canonical = try file(entry, "binpb", manifest)
        let timRest = try file(entry, "tim_rest", manifest)
        add(.required, .timRest, entry, .binary, payload: input, format: .binary, expect: .binary(canonical))
        add(.required, .timRest, entry, .json, payload: input, format: .json, expect: .json(try file(entry, "json", manifest)))
        add(.required, .timRest, entry, .timRest, payload: input, format: .timRest, expect: .timRest(timRest))
        add(.required, .binary, entry, .timRest, payload: canonical, format: .timRest, expect: .timRest(timRest))
    }

    private mutating func addTIMRESTReject(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let input = try file(entry, "input", manifest)
        guard let code = entry.strings["error"] else {
            throw ConformanceSetupError("manifest case \(entry.name) (tim_rest_reject) has no \"error\"")
        }
        add(.required, .timRest, entry, .parseError, payload: input, format: .binary, expect: .parseError)
        add(.recommended, .timRest, entry, .parseErrorCode, payload: input, format: .binary, expect: .parseErrorCode(code))
    }

    private mutating func addTIMRESTExportReject(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        let canonical = try file(entry, "binpb", manifest)
        guard let code = entry.strings["error"] else {
            throw ConformanceSetupError("manifest case \(entry.name) (tim_rest_export_reject) has no \"error\"")
        }
        add(.required, .binary, entry, .serializeError, payload: canonical, format: .timRest, expect: .serializeError)
        add(.recommended, .binary, entry, .serializeErrorCode, payload: canonical, format: .timRest, expect: .serializeErrorCode(code))
    }

    private mutating func addLimit(_ entry: FixtureManifest.Entry, _ manifest: FixtureManifest) throws(ConformanceSetupError) {
        guard let profile = entry.strings["profile"] else {
            throw ConformanceSetupError("manifest case \(entry.name) (limit) has no \"profile\"")
        }
        let codes = entry.lists["expected_codes"] ?? []
        let canonical = try file(entry, "binpb", manifest)
        let expectation: Expectation = codes.isEmpty ? .binary(canonical) : .validationError(codes: codes)
        add(.required, .binary, entry, .validation, payload: canonical, format: .binary, profile: profile, expect: expectation)
        if entry.strings["json"] != nil {
            let json = try file(entry, "json", manifest)
            add(.required, .json, entry, .validation, payload: json, format: .binary, profile: profile, expect: expectation)
        }
    }
}
