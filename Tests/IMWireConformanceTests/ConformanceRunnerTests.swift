import Foundation
import IMWire
import IMWireCLI
import IMWireConformance
import IMWireTestSupport
import Testing

/// The runner's parts: case derivation and naming, name patterns, expected-failure lists (and their
/// honesty check), error-code strings, the framing, the reports and the CLI.
@Suite struct ConformanceRunnerTests {
    // MARK: Cases

    @Test func everyManifestCaseBecomesTests() {
        let cases = ConformanceSupport.suite.cases
        let names = cases.map(\.name)
        #expect(Set(names).count == names.count, "test names are unique")
        #expect(names.allSatisfy { $0.split(separator: ".").count == 4 })
        #expect(ConformanceSupport.suite.notes.isEmpty, "every manifest case runs: \(ConformanceSupport.suite.notes)")
        for fixture in Fixtures.cases(kind: "valid") {
            for name in ["BinaryInput.\(fixture.name).BinaryOutput", "BinaryInput.\(fixture.name).JsonOutput",
                         "JsonInput.\(fixture.name).BinaryOutput", "JsonInput.\(fixture.name).JsonOutput"] {
                #expect(names.contains("\(fixture.level).\(name)"))
            }
            // Canonical bytes are IMWire's own form: Recommended, whatever the case's level.
            #expect(names.contains("Recommended.BinaryInput.\(fixture.name).CanonicalBinaryOutput"))
            #expect(names.contains("Recommended.JsonInput.\(fixture.name).CanonicalBinaryOutput"))
        }
        for fixture in Fixtures.cases(kind: "invalid_binary") {
            #expect(names.contains("\(fixture.level).BinaryInput.\(fixture.name).ParseError"))
            #expect(names.contains("Recommended.BinaryInput.\(fixture.name).ParseErrorCode"))
        }
        for fixture in Fixtures.cases(kind: "limit") {
            let test = cases.first { $0.name == "Required.BinaryInput.\(fixture.name).Validation" }
            #expect(test?.request.validationProfile == fixture.fields["profile"])
        }
        // Exactly the cases whose options ignore unknown fields say so in the request.
        let ignoring = Set(Fixtures.all.filter { $0.lists["options"] == ["ignore_unknown_fields"] }.map(\.name))
        #expect(ignoring.count == 14)
        #expect(Set(cases.filter { $0.request.jsonIgnoreUnknownFields }.map(\.fixture)) == ignoring)
    }

    /// The level comes from the manifest, and every Recommended case says why.
    @Test func recommendedCasesCarryTheirReason() {
        let recommended = Fixtures.all.filter { $0.level == "Recommended" }
        #expect(recommended.count > 50)
        for fixture in recommended {
            #expect(!(fixture.fields["level_note"] ?? "").isEmpty, "\(fixture.name) has no level_note")
        }
        let names = Set(ConformanceSupport.suite.cases.map(\.name))
        #expect(names.contains("Recommended.BinaryInput.depth_merger_200_layers.ParseError"))
        #expect(names.contains("Recommended.JsonInput.n_trailing_comma_object.ParseError"))
        #expect(names.contains("Required.BinaryInput.merger_nested_100_layers.BinaryOutput"))
        #expect(names.contains("Required.JsonInput.y_oneof_first_member_null.BinaryOutput"))
    }

    /// Cases whose manifest options ignore unknown fields send `json_ignore_unknown_fields`.
    @Test func casesThatIgnoreUnknownFieldsSayItInTheRequest() throws {
        let cases = ConformanceSupport.suite.cases.filter { $0.fixture == "y_unknown_fields_ignored" }
        #expect(cases.count == 3)
        #expect(cases.allSatisfy { $0.request.jsonIgnoreUnknownFields })
    }

    /// JSON cannot carry unknown fields, so `JsonInput.*.BinaryOutput` of such a case expects the
    /// canonical binary without them — what decoding the fixture's JSON gives.
    @Test(arguments: Fixtures.cases(kind: "valid").filter(\.hasUnknownFields))
    func jsonInputOfACaseWithUnknownFieldsExpectsTheBinaryWithoutThem(_ fixture: Fixtures.Case) throws {
        let test = try #require(ConformanceSupport.suite.cases.first { $0.name == "Required.JsonInput.\(fixture.name).BinaryOutput" })
        let fromJSON = try Message(jsonUTF8Bytes: fixture.bytes("json")).serializedBytes()
        #expect(test.expectation == .binary(fromJSON))
        #expect(fromJSON != fixture.bytes("binpb"))
    }

    // MARK: Patterns and expected-failure lists

    @Test func patternStarMatchesExactlyOneSegment() throws {
        let pattern = try TestNamePattern("Recommended.*.*.ParseErrorCode")
        #expect(pattern.matches("Recommended.BinaryInput.truncated_tag_top.ParseErrorCode"))
        #expect(!pattern.matches("Required.BinaryInput.truncated_tag_top.ParseErrorCode"))
        #expect(!pattern.matches("Recommended.BinaryInput.ParseErrorCode"))
        #expect(!(try TestNamePattern("Required.BinaryInput")).matches("Required.BinaryInput.a.BinaryOutput"))
        #expect(try TestNamePattern("Required.BinaryInput", matchesPrefix: true).matches("Required.BinaryInput.a.BinaryOutput"))
        #expect(throws: ConformanceSetupError.self) { try TestNamePattern("Required.Binary*.a.b") }
        #expect(throws: ConformanceSetupError.self) { try TestNamePattern("Required..a.b") }
    }

    @Test func expectedFailureFileNeedsAReasonAndFourSegments() throws {
        let list = try ExpectedFailureList.parse("""
            # comment

            Required.BinaryInput.a.BinaryOutput  # a reason
            Recommended.*.*.ParseErrorCode # another
            """, source: "list.txt")
        #expect(list.entries.map(\.pattern.description) == ["Required.BinaryInput.a.BinaryOutput", "Recommended.*.*.ParseErrorCode"])
        #expect(list.entries.map(\.reason) == ["a reason", "another"])
        #expect(list.entries[1].location == "list.txt:4")
        #expect(throws: ConformanceSetupError.self) { try ExpectedFailureList.parse("Required.BinaryInput.a.BinaryOutput\n", source: "x") }
        #expect(throws: ConformanceSetupError.self) { try ExpectedFailureList.parse("Required.BinaryInput.a # why\n", source: "x") }
        #expect(throws: ConformanceSetupError.self) { try ExpectedFailureList.parse("Mandatory.BinaryInput.a.B # why\n", source: "x") }
    }

    /// A testee that fails exactly the listed tests (answering with a runtime error).
    static func failing(_ names: Set<String>) -> InProcessTestee {
        InProcessTestee(description: "fails \(names.count) tests") { request in
            names.contains(request.testName)
                ? ConformanceResponse(result: .runtimeError("broken on purpose")) : SwiftCodecTestee.respond(to: request)
        }
    }

    static let filter = ["Required.BinaryInput.elem_text_all_fields", "Required.BinaryInput.elem_face_all_fields"]

    @Test func listedFailureIsExpectedAndThePassingRestStillPasses() throws {
        let failing = "Required.BinaryInput.elem_text_all_fields.BinaryOutput"
        let list = try ExpectedFailureList.parse("Required.BinaryInput.*.BinaryOutput  # text is broken\n", source: "list.txt")
        let results = try ConformanceSupport.run(Self.failing([failing]), filter: Self.filter, expectedFailures: list)
        #expect(results.succeeded)
        #expect(results.expectedFailureCount == 1)
        #expect(results.passedCount == 3, "the wildcard entry still fails somewhere, so its passing matches just pass")
        let report = ConformanceReport.text(results)
        #expect(report.contains("expected failures: 1 (list.txt)\nRequired: 3 passed, 0 failed, 1 expected failures, 0 skipped\n"))
        #expect(report.hasSuffix("\n3 passed, 0 failed, 0 skipped\n"))
    }

    @Test func expectedFailureThatPassesFailsTheRun() throws {
        let list = try ExpectedFailureList.parse("""
            Required.BinaryInput.elem_face_all_fields.BinaryOutput  # was broken once
            Required.BinaryInput.*.JsonOutput  # JSON is broken
            """, source: "list.txt")
        let results = try ConformanceSupport.run(Self.failing([]), filter: Self.filter, expectedFailures: list)
        let report = ConformanceReport.text(results)
        #expect(!results.succeeded)
        #expect(results.failedCount == 3, "the exact entry's test and both of the wildcard's")
        #expect(report.contains("UNEXPECTED PASS Required.BinaryInput.elem_face_all_fields.BinaryOutput (list.txt:1: was broken once): every matching test passes now (1); remove the entry"))
        #expect(report.contains("UNEXPECTED PASS Required.BinaryInput.*.JsonOutput (list.txt:2: JSON is broken): every matching test passes now (2: "))
        #expect(report.hasSuffix("1 passed, 3 failed, 0 skipped\n"))
    }

    /// A `?` entry is for tests whose outcome changes from run to run (maps in hash order): its
    /// failures are expected and its passes are passes, never unexpected ones.
    @Test func mayPassEntryAcceptsAFailureAndAPass() throws {
        let list = try ExpectedFailureList.parse("""
            ?Required.BinaryInput.*.BinaryOutput  # map entries in hash order
            Required.BinaryInput.elem_face_all_fields.JsonOutput  # face JSON is broken
            """, source: "list.txt")
        #expect(list.entries.map(\.mayPass) == [true, false])
        #expect(list.entries[0].pattern.description == "Required.BinaryInput.*.BinaryOutput")
        let failing = ["Required.BinaryInput.elem_text_all_fields.BinaryOutput", "Required.BinaryInput.elem_face_all_fields.JsonOutput"]
        let oneFails = try ConformanceSupport.run(Self.failing(Set(failing)), filter: Self.filter, expectedFailures: list)
        #expect(oneFails.succeeded, "\(ConformanceReport.text(oneFails))")
        #expect(oneFails.expectedFailureCount == 2)
        #expect(oneFails.passedCount == 2)
        // Every test of the `?` entry passes: still no unexpected pass; the plain entry's does fail the run.
        let nonePass = try ConformanceSupport.run(Self.failing([]), filter: Self.filter, expectedFailures: list)
        #expect(nonePass.unexpectedPasses.map(\.entry.location) == ["list.txt:2"])
        #expect(Self.failures(nonePass) == ["Required.BinaryInput.elem_face_all_fields.JsonOutput"])
        let onlyMayPass = try ExpectedFailureList.parse("?Required.BinaryInput.*.BinaryOutput  # hash order\n", source: "list.txt")
        let clean = try ConformanceSupport.run(Self.failing([]), filter: Self.filter, expectedFailures: onlyMayPass)
        #expect(clean.succeeded)
        #expect(clean.passedCount == 4)
        #expect(ConformanceReport.text(clean).hasSuffix("\n4 passed, 0 failed, 0 skipped\n"))
        #expect(throws: ConformanceSetupError.self) { try ExpectedFailureList.parse("? Required.BinaryInput.a.B # why\n", source: "x") }
        #expect(throws: ConformanceSetupError.self) { try ExpectedFailureList.parse("?? Required.BinaryInput.a.B # why\n", source: "x") }
    }

    static func failures(_ results: ConformanceResults) -> [String] {
        results.results.filter { $0.status == .failed }.map(\.name)
    }

    @Test func entryMatchingNoTestIsOnlyANote() throws {
        let list = try ExpectedFailureList.parse("Required.BinaryInput.no_such_case.BinaryOutput  # typo\n", source: "list.txt")
        let results = try ConformanceSupport.run(Self.failing([]), filter: Self.filter, expectedFailures: list)
        #expect(results.succeeded)
        #expect(ConformanceReport.text(results).contains("note: list.txt:1: Required.BinaryInput.no_such_case.BinaryOutput matches no test that ran"))
    }

    // MARK: Error strings and framing

    @Test func errorStringsStartWithTheirCodes() {
        #expect(ErrorCodes.codes(in: "truncated: input ends (at byte 3)") == ["truncated"])
        #expect(ErrorCodes.codes(in: "user_id_too_long,text_too_large: …") == ["user_id_too_long", "text_too_large"])
        #expect(ErrorCodes.codes(in: "truncated") == ["truncated"])
        #expect(ErrorCodes.prefix(for: ["b", "a", "b"]) == "a,b")
    }

    @Test func swiftTesteeJoinsValidationCodes() {
        let message = Message(sender: String(repeating: "s", count: 40), target: .receiver(String(repeating: "r", count: 40)), elems: [.text("hi")])
        let response = SwiftCodecTestee.respond(to: ConformanceRequest(
            payload: .binaryPayload(try! message.serializedBytes()), requestedOutputFormat: .binary, validationProfile: "tencent"))
        guard case .validationError(let text)? = response.result else {
            Issue.record("expected validation_error, got \(String(describing: response.result))")
            return
        }
        #expect(text.hasPrefix("user_id_too_long: user_id_too_long at sender: "))
    }

    @Test func framingRoundTripsThroughTheServer() throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        #expect(pipe(&input) == 0 && pipe(&output) == 0)
        let request = ConformanceRequest(testName: "t", payload: .binaryPayload([0x12, 0x01, 0x61]), requestedOutputFormat: .json)
        var frames: [UInt8] = []
        for _ in 0..<2 { frames += Framing.frame(try Self.encode(request)) }
        frames.withUnsafeBytes { _ = write(input[1], $0.baseAddress, $0.count) }
        close(input[1])
        let ending = TesteeServer.serve(input: input[0], output: output[1], handler: SwiftCodecTestee.respond(to:))
        close(output[1])
        #expect(ending == .endOfInput)
        var answer = [UInt8](repeating: 0, count: 4096)
        let count = answer.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
        close(input[0])
        close(output[0])
        let expected = Framing.frame(try Self.encode(ConformanceResponse(result: .jsonPayload(Array("{\"sender\":\"a\"}".utf8)))))
        #expect(Array(answer[0..<count]) == expected + expected)
    }

    static func encode(_ request: ConformanceRequest) throws -> [UInt8] {
        try BinaryEncoder.encode(request, options: BinaryEncodingOptions())
    }

    static func encode(_ response: ConformanceResponse) throws -> [UInt8] {
        try BinaryEncoder.encode(response, options: BinaryEncodingOptions())
    }

    // MARK: Reports and CLI

    @Test func junitReportHasOneTestcasePerCase() throws {
        let results = try ConformanceSupport.run(Self.failing(["Required.BinaryInput.elem_text_all_fields.JsonOutput"]), filter: Self.filter)
        let xml = JUnitReport.xml(results)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 4)
        #expect(xml.contains("<testsuite name=\"imwire-conformance\" tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"0\""))
        #expect(xml.contains("<testcase classname=\"Required.BinaryInput\" name=\"elem_text_all_fields.JsonOutput\""))
        #expect(xml.contains("<failure message=\"expected json_payload {&quot;msgId&quot;:&quot;144115233874815003-"))
    }

    @Test func conformanceCommandRunsTheSuiteAndWritesJUnit() throws {
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("imwire-junit-\(UUID().uuidString).xml").path
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let result = CLI.run(
            arguments: ["conformance", "--fixtures", Fixtures.directory.path, "--filter", "Required.BinaryInput.elem_text_all_fields", "--junit", junit],
            io: .standard)
        let report = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(report)\(result.stderr)")
        #expect(report.hasSuffix("2 passed, 0 failed, 0 skipped\n"))
        #expect(FileManager.default.contents(atPath: junit).map { String(decoding: $0, as: UTF8.self).contains("tests=\"2\"") } == true)
    }

    @Test func theREADMEQuotesWhatTheMainCommandPrints() throws {
        // README's "The first prints `N passed, 0 failed, 0 skipped` (the Required cases; M Recommended
        // ones …)": the counts of the whole suite, run as `swift run imwire conformance` runs it.
        let result = CLI.run(arguments: ["conformance", "--fixtures", Fixtures.directory.path], io: .standard)
        let report = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(report)\(result.stderr)")
        let recommended = try #require(report.firstMatch(of: /\nRecommended: (\d+) passed/), "\(report)").1
        let last = try #require(report.split(separator: "\n").last.map(String.init))
        let readme = try String(contentsOf: Fixtures.directory.deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let quoted = try #require(readme.firstMatch(of: /The first prints `([^`]+)` \(the Required cases; (\d+) Recommended/),
                                  "README no longer quotes the main command's output")
        #expect(String(quoted.1) == last, "README quotes `\(quoted.1)`; the command prints `\(last)`")
        #expect(quoted.2 == recommended, "README counts \(quoted.2) Recommended cases; the suite has \(recommended)")
    }

    @Test func conformanceCommandExitsOneOnFailureAndTwoOnUsageErrors() {
        let fixtures = Fixtures.directory.path
        let failing = CLI.run(arguments: ["conformance", "--fixtures", fixtures, "--testee", "exit 1", "--filter", "Required.BinaryInput.elem_text_all_fields"], io: .standard)
        #expect(failing.status == 1)
        #expect(String(decoding: failing.stdout, as: UTF8.self).hasSuffix("0 passed, 2 failed, 0 skipped\n"))
        #expect(failing.stderr == "error: conformance: 2 failed\n")
        let noList = CLI.run(arguments: ["conformance", "--fixtures", fixtures, "--expected-failures", "/nonexistent/list.txt"], io: .standard)
        #expect(noList.status == 2)
        #expect(noList.stderr.contains("cannot read the expected-failure file /nonexistent/list.txt"))
        let noFixtures = CLI.run(arguments: ["conformance", "--fixtures", "/nonexistent"], io: .standard)
        #expect(noFixtures.status == 2)
        let badFilter = CLI.run(arguments: ["conformance", "--fixtures", fixtures, "--filter", "Required.NoSuchInput"], io: .standard)
        #expect(badFilter.status == 2)
    }

    /// The built binary carries its fixtures: run from a directory with no Fixtures/ anywhere above
    /// it, it runs the whole suite, the same cases as the checkout's fixtures give.
    @Test func builtBinaryRunsTheSuiteFromAnyDirectory() throws {
        let imwire = try #require(ConformanceSupport.product("imwire"), "build the package first (swift build)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imwire-anywhere-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A copy of the binary alone, as a user would copy it.
        let copy = directory.appendingPathComponent("imwire").path
        try FileManager.default.copyItem(atPath: imwire, toPath: copy)
        let run = try ConformanceSupport.shell("cd \(ConformanceSupport.shellQuoted(directory.path)) && ./imwire conformance > report.txt")
        #expect(run.status == 0, "\(run.stderr)")
        let report = String(decoding: FileManager.default.contents(atPath: directory.appendingPathComponent("report.txt").path) ?? Data(), as: UTF8.self)
        let cases = ConformanceSupport.suite.cases
        #expect(report.hasPrefix("imwire conformance: \(cases.count) cases against the built-in Swift codec"))
        #expect(report.hasSuffix("\(cases.count { $0.level == .required }) passed, 0 failed, 0 skipped\n"), "\(report)")
        let version = try ConformanceSupport.shell("\(ConformanceSupport.shellQuoted(copy)) --version > \(ConformanceSupport.shellQuoted(directory.path))/version.txt")
        #expect(version.status == 0)
        let printed = FileManager.default.contents(atPath: directory.appendingPathComponent("version.txt").path)
        #expect(printed.map { String(decoding: $0, as: UTF8.self) } == "\(IMWireVersion.current)\n")
    }

    /// The built-in fixtures are the checkout's: the same manifest, the same bytes.
    @Test func embeddedFixturesAreTheCheckoutsFixtures() throws {
        let embedded = try FixtureManifest.embedded()
        let checkout = try FixtureManifest.load(directory: Fixtures.directory.path)
        #expect(embedded.entries.map(\.name) == checkout.entries.map(\.name))
        for entry in checkout.entries {
            for (key, path) in entry.strings where path.contains("/") && FileManager.default.fileExists(atPath: Fixtures.directory.appendingPathComponent(path).path) {
                #expect(try embedded.bytes(path) == checkout.bytes(path), "\(entry.name).\(key)")
            }
        }
        #expect(embedded.source.hasPrefix("the fixtures built into imwire "))
    }
}
