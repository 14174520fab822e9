import Foundation
import IMWire
import IMWireCLI
import IMWireConformance
import IMWireTestSupport
import Testing

/// The generative mode, `imwire conformance --explore` (Docs/conformance.md, "Generative mode"):
/// bounded runs against IMWire's codec, deliberately broken testees and the Go and Java testees; its
/// determinism and its cost per case.
@Suite(.serialized) struct ConformanceExploreTests {
    static let manifest: FixtureManifest = {
        do {
            return try FixtureManifest.load(directory: Fixtures.directory.path)
        } catch {
            fatalError("cannot load the fixture manifest: \(error)")
        }
    }()

    static func explorer(
        seed: UInt64, count: Int, enforceRecommended: Bool = false, maxFindings: Int = 30, shrinkAttempts: Int = 3_000,
        expectedFailures: ExpectedFailureList? = nil
    ) throws -> Explorer {
        try Explorer(
            options: Explorer.Options(
                seed: seed, count: count, enforceRecommended: enforceRecommended, maxFindings: maxFindings, shrinkAttempts: shrinkAttempts,
                shrinkTime: .seconds(30), expectedFailures: expectedFailures),
            manifest: manifest)
    }

    /// An expected-failure list of `lines` (`PATTERN  # reason`).
    static func list(_ lines: String...) throws -> ExpectedFailureList {
        try ExpectedFailureList.parse(lines.joined(separator: "\n"), source: "list.txt")
    }

    /// IMWire's codec, but every case of the class `explore_<flawClass>` is answered `answer`
    /// (the test name a request carries names its class).
    static func answering(_ answer: ConformanceResponse.Result, to flawClass: String) -> InProcessTestee {
        testee("answers \(flawClass) wrongly") { request in
            request.testName.contains(".explore_\(flawClass).") ? ConformanceResponse(result: answer) : SwiftCodecTestee.respond(to: request)
        }
    }

    /// IMWire's codec answering through a function that spoils some answers.
    static func testee(_ description: String, _ handler: @escaping (ConformanceRequest) -> ConformanceResponse) -> InProcessTestee {
        InProcessTestee(description: description, handler: handler)
    }

    @Test func swiftCodecAgreesWithEveryGeneratedCaseAtBothLevels() throws {
        let results = try Self.explorer(seed: 0x5EED, count: 1_500, enforceRecommended: true).run(against: InProcessTestee.swiftCodec())
        #expect(results.succeeded, "\(ExploreReport.text(results))")
        #expect(results.cases == 1_500)
        #expect(results.passed == 1_500)
        #expect(results.findings.isEmpty)
        #expect(results.recommended.isEmpty)
        // Every input format and both kinds of case came up.
        #expect(results.classes.keys.contains("BinaryInput explore_valid"))
        #expect(results.classes.keys.contains("JsonInput explore_valid"))
        #expect(results.classes.keys.contains("TimRestInput explore_valid"))
        #expect(results.classes.keys.count { $0.hasPrefix("BinaryInput explore_") && $0 != "BinaryInput explore_valid" } >= 15)
        #expect(results.classes.keys.count { $0.hasPrefix("JsonInput explore_json_") } >= 30)
    }

    @Test func aSeedMakesTheSameCasesAndAnotherSeedOthers() throws {
        let explorer = try Self.explorer(seed: 1, count: 1)
        let first = (0..<200).map { explorer.request(seed: 42, index: $0) }
        let again = (0..<200).map { explorer.request(seed: 42, index: $0) }
        let other = (0..<200).map { explorer.request(seed: 43, index: $0) }
        #expect(first == again)
        #expect(zip(first, other).count { $0 != $1 } > 190)
        // Case k of a run is the first case of a run started at its own seed.
        for index in [0, 1, 17, 199] {
            #expect(explorer.request(seed: Explorer.caseSeed(runSeed: 42, index: index), index: 0) == first[index])
        }
    }

    @Test func theCostOfARunGrowsLinearlyWithItsCount() throws {
        let small = try Self.explorer(seed: 7, count: 150)
        let large = try Self.explorer(seed: 7, count: 1_200)
        let ratio = growthRatio(
            bound: growthBound, small: { _ = small.run(against: InProcessTestee.swiftCodec()) },
            large: { _ = large.run(against: InProcessTestee.swiftCodec()) })
        #expect(ratio < growthBound, "8× the cases took \(ratio)× the time")
    }

    /// A testee that cuts `seq` to 32 bits in its binary answers: found, and shrunk to a message that
    /// holds that one field.
    @Test func aBrokenTesteeIsFoundAndItsCaseShrunkToTheCause() throws {
        let broken = Self.testee("seq cut to 32 bits") { request in
            let response = SwiftCodecTestee.respond(to: request)
            guard case .binaryPayload(let bytes)? = response.result, var message = try? Message(serializedBytes: bytes),
                message.seq > UInt64(UInt32.max)
            else { return response }
            message.seq = UInt64(UInt32(truncatingIfNeeded: message.seq))
            return ConformanceResponse(result: .binaryPayload(try! message.serializedBytes()))
        }
        let results = try Self.explorer(seed: 3, count: 400, maxFindings: 3).run(against: broken)
        let report = ExploreReport.text(results)
        #expect(!results.succeeded)
        let finding = try #require(results.findings.first, "\(report)")
        #expect(finding.name.hasPrefix("Required.") && finding.name.hasSuffix(".BinaryOutput"))
        #expect(finding.payload.count < 40, "\(report)")
        #expect(finding.steps > 0 && finding.originalSize > finding.payload.count)
        // What is left is a seq above 2^32, alone; every other finding (another input format or
        // class meeting the same cause) holds such a seq too, and later cases like them are repeats.
        func message(of finding: ExploreFinding) throws -> Message {
            switch finding.input {
            case .binary: try Message(serializedBytes: finding.payload)
            case .json: try Message(jsonUTF8Bytes: finding.payload, options: JSONDecodingOptions(ignoreUnknownFields: true))
            case .timRest: try Message(timRESTUTF8Bytes: finding.payload)
            }
        }
        let shrunk = try message(of: finding)
        #expect(shrunk.seq > UInt64(UInt32.max))
        var onlySeq = Message()
        onlySeq.seq = shrunk.seq
        #expect(shrunk == onlySeq, "\(report)")
        for other in results.findings {
            #expect(try message(of: other).seq > UInt64(UInt32.max), "\(report)")
        }
        #expect(results.findings.reduce(0) { $0 + $1.repeats } > 0)
        #expect(finding.fixtureSource.contains("\"name\": \"") && finding.fixtureFile.hasPrefix("Fixtures/sources/"))
        #expect(report.contains("REQUIRED DISAGREEMENT 1 of"))
        #expect(report.contains("--seed \(String(format: "0x%llx", finding.caseSeed)) --count 1"))
    }

    /// A correct runtime that keeps invalid UTF-8 in strings and reads empty JSON as the empty
    /// message passes the Required level; only the Recommended checks of those classes fail.
    @Test func answersTheGuideCallsCorrectPassTheRequiredLevel() throws {
        let lenient = Self.testee("lenient about UTF-8 and empty JSON") { request in
            switch request.payload {
            case .binaryPayload(let bytes)?:
                if case .parseError(let text)? = SwiftCodecTestee.respond(to: request).result, text.hasPrefix("invalid_utf8") {
                    return ConformanceResponse(result: request.requestedOutputFormat == .binary ? .binaryPayload(bytes) : .skipped("no JSON here"))
                }
            case .jsonPayload(let bytes)? where bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }):
                return ConformanceResponse(result: request.requestedOutputFormat == .binary ? .binaryPayload([]) : .jsonPayload(Array("{}".utf8)))
            default: break
            }
            return SwiftCodecTestee.respond(to: request)
        }
        let results = try Self.explorer(seed: 11, count: 2_500).run(against: lenient)
        #expect(results.succeeded, "\(ExploreReport.text(results))")
        #expect(results.recommended.keys.contains { $0.contains(".explore_invalid_utf8.") })
        #expect(results.recommended.keys.contains { $0.contains(".explore_json_empty.") })
    }

    // MARK: Expected failures

    /// A disagreement the list names by the golden case the generated case generalises (at the
    /// same check) is expected: counted, not shrunk, and the run succeeds; the same testee with a
    /// list naming another golden case fails.
    @Test func aListedGoldenCaseExcusesTheCasesOfItsClass() throws {
        let lenient = Self.answering(.binaryPayload([]), to: "json_number_hex")
        let listed = try Self.explorer(
            seed: 5, count: 2_000, expectedFailures: Self.list("Required.JsonInput.n_number_hex.ParseError  # reads 0x10 as a number")
        ).run(against: lenient)
        let report = ExploreReport.text(listed)
        #expect(listed.succeeded, "\(report)")
        #expect(listed.findings.isEmpty)
        let hit = try #require(listed.expected[0], "\(report)")
        #expect(hit.count > 0 && hit.count == listed.expectedCases)
        #expect(hit.example.name == "Required.JsonInput.explore_json_number_hex.ParseError")
        #expect(hit.matchedAs == "Required.JsonInput.n_number_hex.ParseError")
        #expect(listed.passed + listed.skipped + listed.expectedCases == listed.cases)
        #expect(report.contains("EXPECTED list.txt:1: \(hit.count) checks, Required.JsonInput.explore_json_number_hex.ParseError as Required.JsonInput.n_number_hex.ParseError"))
        #expect(report.contains("0 failed (0 findings), \(hit.count) expected (list.txt)"))

        let other = try Self.explorer(
            seed: 5, count: 2_000, expectedFailures: Self.list("Required.JsonInput.n_number_leading_zero.ParseError  # another class")
        ).run(against: lenient)
        #expect(!other.succeeded)
        #expect(other.expected.isEmpty)
        #expect(other.findings.first?.name == "Required.JsonInput.explore_json_number_hex.ParseError")
        // Without a list: the same disagreements, found.
        let unlisted = try Self.explorer(seed: 5, count: 2_000).run(against: lenient)
        #expect(unlisted.failedCases == hit.count)
    }

    /// An entry may name the generated tests themselves, with wildcards, at either level.
    @Test func anEntryMayNameTheGeneratedTests() throws {
        let lenient = Self.answering(.binaryPayload([]), to: "json_number_hex")
        let results = try Self.explorer(
            seed: 5, count: 1_000, expectedFailures: Self.list("Required.*.explore_json_number_hex.*  # reads 0x10 as a number")
        ).run(against: lenient)
        #expect(results.succeeded, "\(ExploreReport.text(results))")
        #expect(results.expected[0]?.matchedAs == "Required.JsonInput.explore_json_number_hex.ParseError")
    }

    /// No answer — `runtime_error` here, a crash or a hang alike — is never an expected failure,
    /// whatever the list says of the class.
    @Test func noAnswerIsNeverExpected() throws {
        let failing = Self.answering(.runtimeError("out of cheese"), to: "json_number_hex")
        let results = try Self.explorer(
            seed: 5, count: 1_000, maxFindings: 1, expectedFailures: Self.list("Required.JsonInput.*.ParseError  # everything")
        ).run(against: failing)
        #expect(!results.succeeded)
        #expect(results.findings.first?.name == "Required.JsonInput.explore_json_number_hex.ParseError")
        #expect(results.expected.isEmpty)
    }

    /// `1e` in an integer field generalises the golden `n_number_exponent_without_digits_integer`,
    /// in a double field `n_number_exponent_without_digits`: an entry for the integer case does not
    /// excuse the double fields.
    @Test func aFlawOnAFieldFollowsTheGoldenCaseOfItsKindOfField() throws {
        let lenient = Self.answering(.binaryPayload([]), to: "json_number_exponent_without_digits")
        // Start at the first case from seed 5 that puts `1e` in a double field (those are rare).
        let maker = try Self.explorer(seed: 5, count: 1)
        var seed: UInt64 = 5
        for _ in 0..<100_000 {
            let request = maker.request(seed: seed, index: 0)
            if request.testName.contains(".explore_json_number_exponent_without_digits."), case .jsonPayload(let bytes)? = request.payload,
                Self.hasExponentWithoutDigitsInADoubleField(bytes)
            {
                break
            }
            seed = Explorer.caseSeed(runSeed: seed, index: 1)
        }
        let results = try Self.explorer(
            seed: seed, count: 2_000, maxFindings: 2,
            expectedFailures: Self.list("Required.JsonInput.n_number_exponent_without_digits_integer.ParseError  # integers only")
        ).run(against: lenient)
        let report = ExploreReport.text(results)
        #expect(results.expected[0]?.matchedAs == "Required.JsonInput.n_number_exponent_without_digits_integer.ParseError", "\(report)")
        let finding = try #require(results.findings.first, "\(report)")
        #expect(finding.fixtureSource.contains("the class of n_number_exponent_without_digits.\""), "\(report)")
        #expect(Self.hasExponentWithoutDigitsInADoubleField(finding.payload), "\(report)")
    }

    /// Whether `json` has `"longitude"` or `"latitude"` (the schema's double fields) followed by a
    /// number whose exponent has no digits.
    static func hasExponentWithoutDigitsInADoubleField(_ json: [UInt8]) -> Bool {
        let text = String(decoding: json, as: UTF8.self)
        for key in ["\"longitude\"", "\"latitude\""] {
            var rest = Substring(text)
            while let range = rest.range(of: key) {
                rest = rest[range.upperBound...]
                let value = rest.drop { $0 == ":" || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                let number = value.prefix { "0123456789.-+eE".contains($0) }
                if let e = number.firstIndex(where: { $0 == "e" || $0 == "E" }),
                    !number[number.index(after: e)...].contains(where: \.isNumber)
                {
                    return true
                }
            }
        }
        return false
    }

    @Test func everyClassTakesTheLevelOfItsGoldenCase() throws {
        let classes = try Self.explorer(seed: 1, count: 1).classes
        let levels = Dictionary(uniqueKeysWithValues: Self.manifest.entries.map { ($0.name, $0.strings["level"] ?? "required") })
        for explorerClass in classes {
            guard let exemplar = explorerClass.exemplar else { continue }
            let level = try #require(levels[exemplar], "\(explorerClass.name) follows \(exemplar), which the manifest lacks")
            if explorerClass.judging.hasPrefix("parse_error:") {
                #expect(explorerClass.judging.hasPrefix(level == "recommended" ? "parse_error: Recommended" : "parse_error: Required"))
            }
        }
        // A level changed in the manifest changes the class's level.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explore-levels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = try String(contentsOf: Fixtures.directory.appendingPathComponent("manifest.json"), encoding: .utf8)
        let entry = "\"name\": \"n_number_leading_zero\","
        #expect(text.contains(entry))
        text = text.replacingOccurrences(of: entry, with: entry + " \"level\": \"recommended\",")
        try text.write(to: directory.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        let changed = try Explorer(options: Explorer.Options(seed: 1), manifest: FixtureManifest.load(directory: directory.path))
        let leadingZero = try #require(changed.classes.first { $0.name == "explore_json_number_leading_zero" })
        #expect(leadingZero.judging.hasPrefix("parse_error: Recommended"))
    }

    @Test func theGuideNamesEveryClass() throws {
        let guide = try String(contentsOf: Fixtures.directory.deletingLastPathComponent().appendingPathComponent("Docs/conformance.md"), encoding: .utf8)
        for explorerClass in try Self.explorer(seed: 1, count: 1).classes {
            #expect(guide.contains("`\(explorerClass.name)`"), "Docs/conformance.md does not list \(explorerClass.name)")
        }
    }

    @Test(arguments: [
        ["conformance", "--explore", "--filter", "Required"],
        ["conformance", "--explore", "--expected-failures", "/nonexistent/list.txt"],
        ["conformance", "--explore", "--junit", "x.xml"],
        ["conformance", "--explore", "--count", "0"],
        ["conformance", "--explore", "--seed", "banana"],
        ["conformance", "--seed", "1"],
        ["conformance", "--count", "10"],
    ])
    func exploreOptionsOutOfPlaceAreUsageErrors(_ arguments: [String]) {
        let result = CLI.run(arguments: arguments, io: .standard)
        #expect(result.status == 2, "\(result.stderr)")
    }

    @Test func theCommandLineRunsTheSwiftCodecAndPrintsTheSeed() {
        let result = CLI.run(arguments: ["conformance", "--explore", "--seed", "0x2a", "--count", "120"], io: .standard)
        let report = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(report)\(result.stderr)")
        #expect(report.hasPrefix("imwire conformance --explore: seed 0x2a, 120 cases against the built-in Swift codec"))
        #expect(report.contains("120 passed, 0 failed (0 findings), 0 skipped"))
    }

    @Test func withOnlyATimeTheRunStopsWhenItIsUp() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let result = CLI.run(arguments: ["conformance", "--explore", "--seed", "9", "--time", "0.5"], io: .standard)
        let elapsed = clock.now - start
        let report = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(report)\(result.stderr)")
        let count = try #require(report.split(separator: "\n").first?.split(separator: ",").dropFirst().first?.split(separator: " ").first)
        #expect((Int(count) ?? 0) > 10, "\(report)")
        #expect(elapsed < .seconds(10))
    }

    // MARK: The shipped testees

    /// Go's runtime agrees with every generated case but for one deviation of its own that the golden
    /// cases do not show: protojson 1.28 reads `1e` (an exponent without digits) in an integer field as
    /// 1 (its parseNumber takes `e` with no digit after it; the golden case puts `1e` in a double
    /// field, where strconv.ParseFloat refuses it).
    @Test func goTesteeDisagreesOnlyWhereProtojsonAcceptsAnExponentWithoutDigits() throws {
        let testee = SubprocessTestee(command: try ConformanceSupport.builtTestee("go").get())
        let results = try Self.explorer(seed: 0x60, count: 3_000).run(against: testee)
        let report = ExploreReport.text(results)
        #expect(results.abandoned == nil, "\(report)")
        for finding in results.findings {
            #expect(finding.name == "Required.JsonInput.explore_json_number_exponent_without_digits.ParseError", "\(report)")
            #expect(String(decoding: finding.payload, as: UTF8.self).contains(":1e}"), "\(report)")
        }
        #expect(results.passed + results.skipped + results.failedCases == results.cases)
        #expect(results.skipped < results.cases / 10)
    }

    /// With its list, the Go testee's disagreements are the ones the list records: the run succeeds.
    @Test func goTesteeWithItsListHasNoUnexpectedDisagreement() throws {
        let testee = SubprocessTestee(command: try ConformanceSupport.builtTestee("go").get())
        let list = try ExpectedFailureList.load(path: ConformanceSupport.path("Tests/Conformance/expected-failures/go.txt"))
        let results = try Self.explorer(seed: 0x60, count: 3_000, expectedFailures: list).run(against: testee)
        let report = ExploreReport.text(results)
        #expect(results.succeeded, "\(report)")
        #expect(results.findings.isEmpty && results.recommended.isEmpty, "\(report)")
        let integerExponent = results.expected.values.first { $0.example.name.contains(".explore_json_number_exponent_without_digits.") }
        #expect(integerExponent?.matchedAs == "Required.JsonInput.n_number_exponent_without_digits_integer.ParseError", "\(report)")
    }

    /// Without being told, a run against protobuf-java finds and shrinks the deviations its
    /// expected-failure list records: the 10-byte varint misread in the fast path, the oneof member's
    /// builder reused across a switch, and `-0.0` lost in JSON.
    @Test func javaTesteeShowsTheDeviationsItsListRecords() throws {
        let testee = SubprocessTestee(command: try ConformanceSupport.builtTestee("java").get())
        let results = try Self.explorer(seed: JavaSeed.value, count: JavaSeed.count, maxFindings: 12, shrinkAttempts: 400).run(against: testee)
        let report = ExploreReport.text(results)
        let valid = results.findings.filter { $0.name.contains(".explore_valid.") }
        let paddedVarint = valid.contains { $0.features.contains("varint padded to 10 bytes") && $0.payload.count <= 12 }
        let oneofSwitch = valid.contains { $0.features.contains("oneof member switched") && $0.input == .binary }
        let negativeZero = valid.contains { $0.features == ["-0.0"] && $0.input == .json }
        #expect([paddedVarint, oneofSwitch, negativeZero].count { $0 } >= 2, "\(report)")
        #expect(!results.succeeded)
    }

    /// A seed and count of the Java run: chosen so that the run is short and meets the deviations early.
    enum JavaSeed {
        static let value: UInt64 = 2
        static let count = 300
    }
}
