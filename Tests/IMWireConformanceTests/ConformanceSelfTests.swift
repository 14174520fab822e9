import Foundation
import IMWire
import IMWireConformance
import IMWireTestSupport
import Testing

/// The conformance suite must be able to fail: it is run against deliberately broken testees, and
/// each must make the run fail with a report line that says what went wrong. In-process testees
/// break the answers; subprocess testees (Tests/Conformance/broken_testee.py relaying to
/// `imwire testee`) crash, hang or break the framing.
@Suite(.serialized) struct ConformanceSelfTests {
    /// The built-in codec with `breakIt` applied to each answer.
    static func broken(_ name: String, _ breakIt: @escaping (ConformanceRequest, ConformanceResponse) -> ConformanceResponse) -> InProcessTestee {
        InProcessTestee(description: name) { request in breakIt(request, SwiftCodecTestee.respond(to: request)) }
    }

    static func failures(_ results: ConformanceResults) -> [String] {
        results.results.filter { $0.status == .failed }.map(\.name)
    }

    @Test func runnerFailsTesteeThatFlipsOneOutputByte() throws {
        let testee = Self.broken("flips the last byte of binary output") { _, response in
            guard case .binaryPayload(var bytes)? = response.result, !bytes.isEmpty else { return response }
            bytes[bytes.count - 1] ^= 0x01
            return ConformanceResponse(result: .binaryPayload(bytes))
        }
        let results = try ConformanceSupport.run(testee)
        let report = ConformanceReport.text(results)
        #expect(!results.succeeded)
        #expect(Self.failures(results).contains("Required.BinaryInput.elem_text_all_fields.BinaryOutput"))
        #expect(report.contains("FAIL Required.BinaryInput.elem_text_all_fields.BinaryOutput: expected binary_payload "))
        #expect(report.contains("(a different message; in canonical binary, first difference at byte"))
        #expect(report.hasSuffix("\(results.passedCount) passed, \(results.failedCount) failed, 0 skipped\n"))
    }

    /// Padding a varint changes no value: the same message, so Required passes and only the
    /// Recommended canonical-bytes test sees it.
    @Test func paddingAVarintIsTheSameMessageButNotCanonical() throws {
        let testee = Self.broken("pads top-level varints to two bytes") { _, response in
            guard case .binaryPayload(let bytes)? = response.result else { return response }
            return ConformanceResponse(result: .binaryPayload(Self.paddedTopLevelVarints(bytes)))
        }
        let results = try ConformanceSupport.run(testee, filter: ["*.BinaryInput.envelope_all_fields"])
        #expect(results.succeeded, "\(ConformanceReport.text(results))")
        #expect(results.results.filter { $0.status == .warning }.map(\.name) == [
            "Recommended.BinaryInput.envelope_all_fields.CanonicalBinaryOutput",
        ])
        let enforced = try ConformanceSupport.run(testee, filter: ["*.BinaryInput.envelope_all_fields"], enforceRecommended: true)
        #expect(Self.failures(enforced) == ["Recommended.BinaryInput.envelope_all_fields.CanonicalBinaryOutput"])
        #expect(ConformanceReport.text(enforced).contains("expected the canonical binary_payload "))
    }

    @Test func runnerFailsTesteeThatDropsUnknownFields() throws {
        let testee = Self.broken("drops unknown fields") { _, response in
            guard case .binaryPayload(let bytes)? = response.result,
                let stripped = SchemaWireWalker.strippingUnknownFields(bytes, schema: Message.schema)
            else { return response }
            return ConformanceResponse(result: .binaryPayload(stripped))
        }
        let results = try ConformanceSupport.run(testee, filter: ["Required.BinaryInput"])
        let failures = Self.failures(results)
        #expect(!results.succeeded)
        #expect(failures.contains("Required.BinaryInput.unknown_varint_top.BinaryOutput"))
        #expect(failures.contains("Required.BinaryInput.unknown_in_merger_inner_message.BinaryOutput"))
        // Only cases that carry unknown fields fail.
        let unknownFixtures = Set(Fixtures.cases(kind: "valid").filter(\.hasUnknownFields).map(\.name))
        #expect(failures.allSatisfy { unknownFixtures.contains($0.split(separator: ".")[2].description) }, "\(failures)")
    }

    /// A known field with another wire type may be kept as unknown or refused: a testee that
    /// refuses exactly those inputs passes Required and fails only the Recommended tests that want
    /// the message; one that refuses other inputs with unknown fields fails Required.
    @Test func refusingAKnownFieldWithAnotherWireTypePassesRequiredOnly() throws {
        let allowed = Set(Fixtures.cases(kind: "valid").filter { $0.fields["parse_error_note"] != nil }.map(\.name))
        #expect(allowed == ["wrong_wire_type_top", "wrong_wire_type_text_as_varint", "unknown_group_on_known_field_elem_text",
                            "unknown_group_on_known_field_message_elems", "unknown_group_on_known_field_message_msg_id"])
        func refusing(_ fixtures: Set<String>) -> InProcessTestee {
            Self.broken("refuses \(fixtures.count) inputs") { request, response in
                guard case .binaryPayload? = request.payload, fixtures.contains(request.testName.split(separator: ".")[2].description)
                else { return response }
                return ConformanceResponse(result: .parseError("unclassified: wire type mismatch"))
            }
        }
        let results = try ConformanceSupport.run(refusing(allowed), filter: ["*.BinaryInput"])
        #expect(results.succeeded, "\(ConformanceReport.text(results))")
        let warnings = Set(results.results.filter { $0.status == .warning }.map(\.name))
        let expected = allowed.flatMap { name in
            ["BinaryOutput", "JsonOutput", "CanonicalBinaryOutput"].map { "Recommended.BinaryInput.\(name).\($0)" }
        }
        #expect(warnings == Set(expected))
        #expect(ConformanceReport.text(results).contains(
            "WARN Recommended.BinaryInput.wrong_wire_type_top.BinaryOutput: expected binary_payload "))

        let tooMany = try ConformanceSupport.run(refusing(allowed.union(["unknown_varint_top"])), filter: ["*.BinaryInput"])
        #expect(Self.failures(tooMany) == ["Required.BinaryInput.unknown_varint_top.BinaryOutput", "Required.BinaryInput.unknown_varint_top.JsonOutput"])
        // Keeping is what Required checks when the testee does answer: a wrong message still fails.
        let wrong = Self.broken("drops the known seq of wrong_wire_type_top") { request, response in
            guard request.testName.contains(".wrong_wire_type_top."), case .binaryPayload? = request.payload,
                request.requestedOutputFormat == .binary else { return response }
            return ConformanceResponse(result: .binaryPayload([0x0A, 0x02, 0x69, 0x64]))
        }
        let wrongResults = try ConformanceSupport.run(wrong, filter: ["Required.BinaryInput.wrong_wire_type_top"])
        #expect(Self.failures(wrongResults) == ["Required.BinaryInput.wrong_wire_type_top.BinaryOutput"])
        #expect(ConformanceReport.text(wrongResults).contains("(a parse_error would pass too)"))
    }

    /// Field order is free in proto3: reordered output passes Required and fails only the
    /// Recommended canonical-bytes test (a warning unless enforced).
    @Test func reorderedFieldsPassRequiredAndWarnOnCanonicalBytes() throws {
        let testee = Self.broken("writes top-level fields in reverse order") { _, response in
            guard case .binaryPayload(let bytes)? = response.result else { return response }
            return ConformanceResponse(result: .binaryPayload(Self.topLevelFieldsInDescendingNumberOrder(bytes)))
        }
        let results = try ConformanceSupport.run(testee)
        let report = ConformanceReport.text(results)
        #expect(results.succeeded, "\(report)")
        #expect(results.counts(.required).failed == 0)
        #expect(report.contains("WARN Recommended.BinaryInput.envelope_all_fields.CanonicalBinaryOutput: expected the canonical binary_payload 0a"))
        #expect(report.contains("WARN Recommended.JsonInput.envelope_all_fields.CanonicalBinaryOutput: "))
        #expect(report.contains("(warnings: --enforce-recommended makes them fail the run)"))
        let enforced = try ConformanceSupport.run(testee, enforceRecommended: true)
        #expect(!enforced.succeeded)
        #expect(Self.failures(enforced).allSatisfy { $0.hasSuffix(".CanonicalBinaryOutput") })
        #expect(Self.failures(enforced).contains("Recommended.BinaryInput.envelope_all_fields.CanonicalBinaryOutput"))
    }

    @Test func runnerFailsTesteeThatAcceptsInvalidInput() throws {
        let testee = Self.broken("accepts invalid input") { request, response in
            guard case .parseError? = response.result, case .binaryPayload(let input)? = request.payload else { return response }
            return ConformanceResponse(result: .binaryPayload(input))
        }
        let results = try ConformanceSupport.run(
            testee, filter: ["*.BinaryInput.*.ParseError", "*.BinaryInput.*.ParseErrorCode"], enforceRecommended: true)
        let failures = Self.failures(results)
        let invalid = Fixtures.cases(kind: "invalid_binary")
        #expect(!results.succeeded)
        #expect(failures.count == 2 * invalid.count)
        #expect(failures.contains("Required.BinaryInput.truncated_tag_top.ParseError"))
        #expect(ConformanceReport.text(results).contains(
            "FAIL Required.BinaryInput.truncated_varint_top.ParseError: expected parse_error, got binary_payload 38ff (2 bytes)"))
    }

    @Test func runnerFailsTesteeThatAnswersJSONWithBinary() throws {
        let testee = Self.broken("answers JSON requests with binary") { request, response in
            guard request.requestedOutputFormat == .json else { return response }
            var binaryRequest = request
            binaryRequest.requestedOutputFormat = .binary
            return SwiftCodecTestee.respond(to: binaryRequest)
        }
        let results = try ConformanceSupport.run(testee, filter: ["Required.*.*.JsonOutput"])
        #expect(!results.succeeded)
        #expect(results.passedCount == 0)
        #expect(ConformanceReport.text(results).contains(
            "FAIL Required.BinaryInput.elem_text_all_fields.JsonOutput: expected json_payload {\"msgId\":\"144115233874815003-"))
        #expect(ConformanceReport.text(results).contains(", got binary_payload "))
    }

    @Test func runnerFailsTesteeThatSkipsValidation() throws {
        let testee = Self.broken("ignores the validation profile") { request, _ in
            var unvalidated = request
            unvalidated.validationProfile = ""
            return SwiftCodecTestee.respond(to: unvalidated)
        }
        let results = try ConformanceSupport.run(testee, filter: ["Required.BinaryInput.*.Validation"])
        #expect(!results.succeeded)
        #expect(ConformanceReport.text(results).contains("expected validation_error with codes "))
    }

    @Test func runnerFailsTesteeThatNamesTheWrongErrorCode() throws {
        let testee = Self.broken("answers every parse error as truncated") { _, response in
            guard case .parseError? = response.result else { return response }
            return ConformanceResponse(result: .parseError("truncated: always"))
        }
        let results = try ConformanceSupport.run(testee, filter: ["*.BinaryInput.utf8_byte_ff"], enforceRecommended: true)
        #expect(Self.failures(results) == ["Recommended.BinaryInput.utf8_byte_ff.ParseErrorCode"])
        #expect(ConformanceReport.text(results).contains(
            "expected parse_error starting with \"invalid_utf8:\", got parse_error \"truncated: always\""))
    }

    @Test func emptyResponseIsAFailure() throws {
        let testee = InProcessTestee(description: "answers nothing") { _ in ConformanceResponse() }
        let results = try ConformanceSupport.run(testee, filter: ["Required.BinaryInput.elem_text_all_fields"])
        #expect(results.failedCount == 2)
        #expect(ConformanceReport.text(results).contains("got an empty response (no result set)"))
    }

    // MARK: - Subprocess testees that crash, hang or break the framing

    static let victim = "Required.BinaryInput.elem_text_all_fields.BinaryOutput"

    /// `broken_testee.py --mode MODE --at AT -- imwire testee`.
    static func brokenSubprocess(mode: String, at: String = victim) throws -> SubprocessTestee {
        let imwire = try #require(ConformanceSupport.product("imwire"), "build the package first (swift build)")
        let script = ConformanceSupport.path("Tests/Conformance/broken_testee.py")
        return SubprocessTestee(command: "python3 \(ConformanceSupport.shellQuoted(script)) --mode \(mode) --at \(ConformanceSupport.shellQuoted(at)) -- \(ConformanceSupport.shellQuoted(imwire)) testee")
    }

    @Test(arguments: [
        ("crash", "testee crashed: it ", "killed by signal 11"),
        ("exit", "testee crashed: it exited with status 3 before answering; restarted", "exiting on purpose"),
        ("truncate", "testee crashed: it exited with status 4 after ", " bytes of a response frame ("),
        ("hang", "testee hung: no complete answer within 3 s; killed and restarted", ""),
        ("garbage", "testee broke the framing: its 3-byte frame is not a ConformanceResponse (truncated: ", ""),
        ("huge-length", "testee broke the framing: its length prefix f0ffffff announces 4294967280 bytes, more than the limit", ""),
        ("trailing", "testee broke the framing: it wrote 3 unexpected bytes after the response frame: 010203", ""),
    ])
    func runnerReportsABrokenSubprocessAndGoesOn(mode: String, report expected: String, also: String) throws {
        let testee = try Self.brokenSubprocess(mode: mode)
        // Generous for the restarted testee's start-up on a loaded CI machine; only `hang` waits it out.
        let results = try ConformanceSupport.run(testee, filter: ["Required.BinaryInput.*.BinaryOutput"], timeout: .seconds(mode == "hang" ? 3 : 10))
        let report = ConformanceReport.text(results)
        #expect(!results.succeeded)
        #expect(Self.failures(results) == [Self.victim], "\(report)")
        #expect(results.passedCount == results.results.count - 1, "the restarted testee answers the rest")
        #expect(testee.startCount == 2)
        let line = try #require(report.split(separator: "\n").first { $0.hasPrefix("FAIL \(Self.victim): ") })
        #expect(line.contains(expected), "\(line)")
        if !also.isEmpty { #expect(line.contains(also), "\(line)") }
        if mode == "crash" {
            #expect(line.contains("[testee stderr: broken_testee: crashing on purpose"), "\(line)")
        }
    }

    /// A healthy testee whose error text is not UTF-8 fails that case, with the protocol's rule as
    /// the reason, and is neither restarted nor given up on.
    @Test func nonUTF8ErrorStringFailsOnlyItsCase() throws {
        let testee = try Self.brokenSubprocess(mode: "non-utf8")
        let results = try ConformanceSupport.run(testee, filter: ["Required.BinaryInput.*.BinaryOutput"])
        let report = ConformanceReport.text(results)
        #expect(Self.failures(results) == [Self.victim], "\(report)")
        #expect(results.passedCount == results.results.count - 1)
        #expect(testee.startCount == 1)
        #expect(report.contains("FAIL \(Self.victim): testee's response breaks the protocol: error strings must be UTF-8"), "\(report)")
    }

    @Test func testeeWhoseErrorsAreNeverUTF8IsNotGivenUpOn() throws {
        let testee = try Self.brokenSubprocess(mode: "non-utf8", at: "*")
        let results = try ConformanceSupport.run(testee, filter: ["Required.BinaryInput"])
        #expect(results.failedCount == results.results.count)
        #expect(results.results.allSatisfy { !$0.notRun })
        #expect(testee.startCount == 1)
        #expect(!ConformanceReport.text(results).contains("NOT RUN"))
    }

    @Test func testeeThatNeverAnswersIsGivenUpOn() throws {
        let testee = try Self.brokenSubprocess(mode: "hang", at: "*")
        let started = ContinuousClock.now
        let results = try ConformanceSupport.run(testee, filter: ["Required.BinaryInput"], timeout: .milliseconds(500))
        let report = ConformanceReport.text(results)
        #expect(results.passedCount == 0)
        #expect(results.failedCount == results.results.count)
        #expect(report.contains("testee hung: no complete answer within 0.5 s"))
        #expect(report.contains("NOT RUN \(results.results.count - 3) cases: not run: the testee crashed, hung or broke the framing on 3 cases in a row"))
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func testeeThatCannotStartIsGivenUpOn() throws {
        let testee = SubprocessTestee(command: "echo 'no such testee' >&2; exit 127")
        let results = try ConformanceSupport.run(testee, filter: ["Required.BinaryInput"])
        let report = ConformanceReport.text(results)
        #expect(results.failedCount == results.results.count)
        #expect(report.contains("testee crashed: it exited with status 127 before answering; restarted [testee stderr: no such testee]"))
        #expect(report.contains("NOT RUN "))
    }

    // MARK: - Helpers

    /// The top-level fields of `bytes`, each with its tag's field number and wire type, or `nil` if
    /// they hold a group (which this helper does not parse) or are not well-formed.
    static func topLevelFields(_ bytes: [UInt8]) -> [(number: UInt64, wireType: UInt64, bytes: ArraySlice<UInt8>, valueStart: Int)]? {
        var fields: [(number: UInt64, wireType: UInt64, bytes: ArraySlice<UInt8>, valueStart: Int)] = []
        var position = 0
        func varint() -> UInt64? {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
            return nil
        }
        while position < bytes.count {
            let start = position
            guard let tag = varint() else { return nil }
            let valueStart = position
            switch tag & 7 {
            case 0: guard varint() != nil else { return nil }
            case 1: position += 8
            case 5: position += 4
            case 2:
                guard let length = varint() else { return nil }
                position += Int(length)
            default: return nil
            }
            guard position <= bytes.count else { return nil }
            fields.append((tag >> 3, tag & 7, bytes[start..<position], valueStart))
        }
        return fields
    }

    /// The top-level fields of canonical bytes in descending field-number order, fields with the
    /// same number (a repeated field's elements) kept in their order: the same message, other bytes.
    static func topLevelFieldsInDescendingNumberOrder(_ bytes: [UInt8]) -> [UInt8] {
        guard let fields = topLevelFields(bytes) else { return bytes }
        let sorted = fields.enumerated().sorted { ($0.element.number, -$0.offset) > ($1.element.number, -$1.offset) }
        return sorted.flatMap { $0.element.bytes }
    }

    /// `bytes` with every top-level one-byte varint value padded to two bytes (`05` → `85 00`).
    static func paddedTopLevelVarints(_ bytes: [UInt8]) -> [UInt8] {
        guard let fields = topLevelFields(bytes) else { return bytes }
        var out: [UInt8] = []
        for field in fields {
            let value = Array(bytes[field.valueStart..<field.bytes.endIndex])
            out += bytes[field.bytes.startIndex..<field.valueStart]
            out += field.wireType == 0 && value.count == 1 ? [value[0] | 0x80, 0x00] : value
        }
        return out
    }
}
