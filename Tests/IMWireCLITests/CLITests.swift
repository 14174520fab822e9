import IMWire
import IMWireCLI
import IMWireTestSupport
import Testing

/// The `imwire` command line, run in-process with injected input (README "Command line": exit 0 on success, 1 with
/// one `error: CODE: …` line on a decode error, 2 on a usage error; never a crash).
@Suite struct CLITests {
    static func run(_ arguments: [String], stdin: [UInt8] = [], files: [String: [UInt8]] = [:]) -> CLI.Result {
        let input = CLIInput(
            readStandardInput: { limit in Array(stdin.prefix(limit)) },
            readFile: { path, limit in
                guard let bytes = files[path] else { throw CLIInputError.missing(path) }
                return Array(bytes.prefix(limit))
            })
        return CLI.run(arguments: arguments, io: input)
    }

    enum CLIInputError: Error { case missing(String) }

    @Test(arguments: Fixtures.cases(kind: "noncanonical_binary"))
    func convertBinaryToBinaryWritesTheCanonicalEncoding(_ fixture: Fixtures.Case) {
        let result = Self.run(["convert", "--from", "binary", "--to", "binary"], stdin: fixture.bytes("input"))
        #expect(result.status == 0)
        #expect(result.stdout == fixture.bytes("binpb"))
        #expect(result.stderr.isEmpty)
    }

    @Test func convertReadsTheNamedFile() {
        let fixture = Fixtures.cases(kind: "valid")[0]
        let result = Self.run(["convert", "--from", "binary", "--to", "json", "m.bin"], files: ["m.bin": fixture.bytes("binpb")])
        #expect(result.status == 0)
        #expect(result.stdout == fixture.bytes("json") + [0x0A])
    }

    @Test func convertJSONToBinaryWritesTheCanonicalEncoding() {
        let fixture = Fixtures.cases(kind: "valid").first { !$0.hasUnknownFields }!
        let result = Self.run(["convert", "--from", "json", "--to", "binary"], stdin: fixture.bytes("json"))
        #expect(result.status == 0)
        #expect(result.stdout == fixture.bytes("binpb"))
    }

    @Test(arguments: Fixtures.cases(kind: "invalid_binary"))
    func hostileInputEndsInOneTypedErrorLineQuickly(_ fixture: Fixtures.Case) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = Self.run(["convert", "--from", "binary", "--to", "binary"], stdin: fixture.bytes("input"))
        let elapsed = clock.now - start
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: \(fixture.fields["error"]!): "), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "exactly one line: \(result.stderr)")
        #expect(result.stderr.contains("(at byte "))
        #expect(elapsed < .seconds(1))
    }

    @Test func inputOverTheSizeLimitIsRefusedWithoutReadingAllOfIt() {
        let big = [UInt8](repeating: 0x0A, count: 5000)
        let result = Self.run(["convert", "--from", "binary", "--to", "binary", "--max-input-size", "1000"], stdin: big)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: input_too_large: "))
    }

    @Test(arguments: [
        ["convert", "--from", "binary"],
        ["convert", "--from", "xml", "--to", "binary"],
        ["convert", "--from", "binary", "--to", "binary", "--bogus"],
        ["frobnicate"],
    ])
    func usageErrorsExitWithStatusTwo(_ arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.status == 2)
        #expect(!result.stderr.isEmpty)
        #expect(result.stdout.isEmpty)
    }

    @Test func helpExitsWithStatusZero() {
        let result = Self.run(["--help"])
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("convert"))
    }

    @Test func missingFileIsAnErrorNotACrash() {
        let result = Self.run(["inspect", "nope.bin"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: io_error: "))
    }

    @Test func inspectNamesFieldsAndMarksUnknownOnes() throws {
        let fixture = try #require(Fixtures.all.first { $0.name == "unknown_all_wire_types_nested" })
        let result = Self.run(["inspect"], stdin: fixture.bytes("binpb"))
        #expect(result.status == 0)
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("[unknown]"))
        #expect(text.contains("elems message imwire.v1.Elem"))
        #expect(text.hasPrefix("imwire.v1.Message ("))
    }

    @Test func inspectReportsTheDecodeErrorOfBadInput() {
        let result = Self.run(["inspect"], stdin: [0x0A, 0x05, 0x61])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: length_out_of_bounds: "))
    }

    @Test func jsonWithUnknownKeysNeedsTheIgnoreFlag() {
        let json = Array(#"{"sender":"a","future":1}"#.utf8)
        let strict = Self.run(["convert", "--from", "json", "--to", "json"], stdin: json)
        #expect(strict.status == 1)
        #expect(strict.stderr.hasPrefix("error: unknown_field: "))
        let lenient = Self.run(["convert", "--from", "json", "--to", "json", "--ignore-unknown-fields"], stdin: json)
        #expect(lenient.status == 0)
        #expect(lenient.stdout == Array(#"{"sender":"a"}"#.utf8) + [0x0A])
    }

    @Test func convertWithAProfileRefusesAMessageThatBreaksIt() throws {
        let failing = try #require(Fixtures.cases(kind: "limit").first { $0.fields["profile"] == "tencent" && !($0.lists["expected_codes"] ?? []).isEmpty })
        let result = Self.run(["convert", "--from", "binary", "--to", "json", "--profile", "tencent"], stdin: failing.bytes("binpb"))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "nothing is written when validation fails")
        let codes = failing.lists["expected_codes"] ?? []
        #expect(codes.contains { result.stderr.hasPrefix("error: \($0): ") }, "\(result.stderr)")

        let passing = try #require(Fixtures.cases(kind: "limit").first { $0.fields["profile"] == "tencent" && ($0.lists["expected_codes"] ?? []).isEmpty })
        let ok = Self.run(["convert", "--from", "binary", "--to", "binary", "--profile", "tencent"], stdin: passing.bytes("binpb"))
        #expect(ok.status == 0)
        #expect(ok.stdout == passing.bytes("binpb"))
    }

    @Test func aRaisedDepthLimitNeverOverflowsTheStack() {
        // 3,000 merger layers (9,003 message levels) decode with --max-depth 10000: the CLI sizes its
        // worker thread's stack for the limit it was given.
        let bytes = nestedMergerBytes(layers: 3000)
        let result = Self.run(["convert", "--from", "binary", "--to", "json", "--max-depth", "10000"], stdin: bytes)
        #expect(result.status == 0, "\(result.stderr)")
        let json = Self.run(["convert", "--from", "json", "--to", "binary", "--max-depth", "10000"], stdin: Array(result.stdout.dropLast()))
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout == bytes)
    }

    @Test(arguments: ["0", "20001", "-5"])
    func aDepthLimitOutsideTheSupportedRangeIsAUsageError(_ depth: String) {
        let result = Self.run(["convert", "--from", "binary", "--to", "binary", "--max-depth", depth], stdin: [])
        #expect(result.status == 2)
    }
}

/// The CLI's worker thread: a stack the system cannot grant is a smaller stack, never a crash.
@Suite struct StackThreadTests {
    @Test func aStackThatCannotBeHadFallsBackInsteadOfCrashing() {
        // No system maps a 2^60-byte stack: `run` reports it, `runPreferring` halves until one is
        // granted (or runs on the calling thread) and still returns the body's result.
        let impossible = 1 << 60
        #expect(StackThread.run(stackSize: impossible) { 1 } == nil)
        #expect(StackThread.runPreferring(stackSize: impossible) { 42 } == 42)
    }
}
