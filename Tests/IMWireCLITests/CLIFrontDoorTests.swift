import Foundation
import IMWire
import IMWireCLI
import IMWireTestSupport
import Testing

/// What a new user meets first on the command line: the input format found without being named,
/// a wrong guess pointed out, one location per error line, an empty input called empty, limits in
/// the terms the user set, and `inspect` showing what it could read of a corrupt message.
@Suite struct CLIFrontDoorTests {
    static func run(_ arguments: [String], stdin: [UInt8] = []) -> CLI.Result {
        CLITests.run(arguments, stdin: stdin)
    }

    // MARK: - The input format, detected

    /// Every golden input decodes to the same output without `--from` as with its format named.
    @Test func convertDetectsEachGoldenInputsFormat() {
        var inputs: [(name: String, bytes: [UInt8], format: String)] = []
        for fixture in Fixtures.cases(kind: "valid") {
            inputs.append((fixture.name + ".binpb", fixture.bytes("binpb"), "binary"))
            inputs.append((fixture.name + ".json", fixture.bytes("json"), "json"))
        }
        for fixture in Fixtures.cases(kind: "noncanonical_binary") {
            inputs.append((fixture.name, fixture.bytes("input"), "binary"))
        }
        for fixture in Fixtures.cases(kind: "json_accept") where fixture.lists["options"]?.isEmpty ?? true {
            inputs.append((fixture.name, fixture.bytes("input"), "json"))
        }
        for fixture in Fixtures.cases(kind: "tim_rest") {
            inputs.append((fixture.name + ".input.json", fixture.bytes("input"), "tim-rest"))
            inputs.append((fixture.name + ".tim_rest.json", fixture.bytes("tim_rest"), "tim-rest"))
        }
        #expect(inputs.count > 500)
        for input in inputs {
            let named = Self.run(["convert", "--from", input.format, "--to", "binary"], stdin: input.bytes)
            let detected = Self.run(["convert", "--to", "binary"], stdin: input.bytes)
            #expect(named.status == 0, "\(input.name): \(named.stderr)")
            #expect(detected.status == 0 && detected.stdout == named.stdout, "\(input.name) is not detected as \(input.format): \(detected.stderr)")
        }
    }

    @Test func validateDetectsTheFormatToo() throws {
        let fixture = try #require(Fixtures.cases(kind: "limit").first { $0.fields["profile"] == "tencent" && !($0.lists["expected_codes"] ?? []).isEmpty })
        let binary = Self.run(["validate", "--profile", "tencent"], stdin: fixture.bytes("binpb"))
        let json = Self.run(["validate", "--profile", "tencent"], stdin: fixture.bytes("json"))
        let named = Self.run(["validate", "--profile", "tencent", "--format", "json"], stdin: fixture.bytes("json"))
        #expect(binary.status == 1 && json.status == 1)
        #expect(!binary.stdout.isEmpty)
        #expect(json.stdout == binary.stdout)
        #expect(json.stderr == named.stderr, "\(json.stderr)")
    }

    /// The issue's case: a `.json` file read as binary gave `malformed_group: … group 15` and no clue.
    @Test func aJSONFileReadAsBinarySaysWhatItLooksLike() throws {
        let fixture = try #require(Fixtures.cases(kind: "valid").first { $0.name == "elem_face_all_fields" })
        let result = Self.run(["validate", "--profile", "tencent", "--format", "binary"], stdin: fixture.bytes("json"))
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("; the input looks like json, not binary: try --format json\n"), "\(result.stderr)")
        let convert = Self.run(["convert", "--from", "binary", "--to", "json"], stdin: fixture.bytes("json"))
        #expect(convert.stderr.hasSuffix("try --from json\n"), "\(convert.stderr)")
        let timREST = Self.run(["convert", "--from", "json", "--to", "json"], stdin: Array(#"{"MsgBody":[]}"#.utf8))
        #expect(timREST.stderr.hasSuffix("the input looks like tim-rest, not json: try --from tim-rest\n"), "\(timREST.stderr)")
        let binary = Self.run(["convert", "--from", "json", "--to", "json"], stdin: fixture.bytes("binpb"))
        #expect(binary.stderr.hasSuffix("the input looks like binary, not json: try --from binary\n"), "\(binary.stderr)")
    }

    @Test func aDecodeErrorOfADetectedFormatNamesTheFormatItWasReadAs() {
        let result = Self.run(["convert", "--to", "json"], stdin: Array(#"{"sender":"a""#.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: json_syntax: "))
        #expect(result.stderr.hasSuffix("; read as json, detected from the input; --from names the format\n"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func aStreamNeedsItsFormatNamed() {
        let result = Self.run(["convert", "--stream", "--to", "json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--stream needs --from"), "\(result.stderr)")
    }

    // MARK: - Error lines

    /// Every rejected golden input, through the CLI: the location is the one `(at byte N)` (or
    /// `(at PATH)`) at the end, never also an offset inside the reason.
    @Test func eachErrorLineGivesOneLocation() {
        var runs: [(name: String, arguments: [String], input: [UInt8])] = []
        for fixture in Fixtures.cases(kind: "invalid_binary") {
            runs.append((fixture.name, ["convert", "--from", "binary", "--to", "binary"], fixture.bytes("input")))
        }
        for fixture in Fixtures.cases(kind: "json_reject") {
            let flags = (fixture.lists["options"] ?? []).contains("ignore_unknown_fields") ? ["--ignore-unknown-fields"] : []
            runs.append((fixture.name, ["convert", "--from", "json", "--to", "binary"] + flags, fixture.bytes("input")))
        }
        for fixture in Fixtures.cases(kind: "tim_rest_reject") {
            runs.append((fixture.name, ["convert", "--from", "tim-rest", "--to", "binary"], fixture.bytes("input")))
        }
        #expect(runs.count > 300)
        let offsetWord = /offset \d/
        let byteLocation = /at byte \d+/
        for run in runs {
            let result = Self.run(run.arguments, stdin: run.input)
            #expect(result.status == 1, "\(run.name)")
            #expect(result.stderr.firstMatch(of: offsetWord) == nil, "\(run.name): \(result.stderr)")
            #expect(result.stderr.matches(of: byteLocation).count <= 1, "\(run.name): \(result.stderr)")
            #expect(result.stderr.contains("(at "), "\(run.name): no location: \(result.stderr)")
        }
    }

    /// A broken frame in a stream: the record number once (`record 1:` in front), the offset once.
    @Test(arguments: [
        [0x05, 0x0A, 0x01, 0x61, 0x12, 0x00, 0x05, 0x0A],
        [0x05, 0x0A, 0x01, 0x61, 0x12, 0x00, 0x08],
        [0x05, 0x0A, 0x01, 0x61, 0x12, 0x00] + [UInt8](repeating: 0x80, count: 10) + [0x01],
        [0x05, 0x0A, 0x01, 0x61, 0x12, 0x00, 0x65, 0x00],
    ] as [[UInt8]])
    func aStreamErrorNamesTheRecordAndTheOffsetOnce(_ bytes: [UInt8]) {
        let result = Self.run(["convert", "--stream", "--from", "binary", "--to", "json", "--max-input-size", "100"], stdin: bytes)
        let line = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.hasPrefix("error: record 1: "), "\(line)")
        #expect(line.matches(of: /record \d/).count == 1, "\(line)")
        #expect(line.matches(of: /byte \d/).count == 1, "\(line)")
    }

    @Test func aMissingFileIsAnIOErrorNamingThePathOnce() {
        let path = "/tmp/imwire-no-such-file-\(getpid()).binpb"
        let result = CLI.run(arguments: ["convert", "--from", "binary", "--to", "json", path], io: .standard)
        #expect(result.status == 1)
        #expect(result.stderr == "error: io_error: cannot read \(path): No such file or directory\n", "\(result.stderr)")
    }

    @Test(arguments: ["json", "tim-rest"])
    func anEmptyTextInputIsCalledEmpty(_ format: String) {
        for input in [[], Array("  \n".utf8)] as [[UInt8]] {
            let result = Self.run(["convert", "--from", format, "--to", "binary"], stdin: input)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("error: json_syntax: "), "\(result.stderr)")
            #expect(!result.stderr.contains("digit"), "\(result.stderr)")
            #expect(!result.stderr.contains("looks like"), "an empty input looks like no format: \(result.stderr)")
            let expected = input.isEmpty ? "the input is empty" : "found the end of input"
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
    }

    /// tim-rest's lexer limits JSON nesting to 5/3 of the message levels plus 8: its error must
    /// name the limit that was set (`--max-depth`, or the default 320), not the derived one.
    @Test(arguments: [(nil, 320), ("20", 20)] as [(String?, Int)])
    func aTIMRESTDepthErrorNamesTheMessageLevelsThatWereSet(_ flag: String?, _ limit: Int) {
        var json = #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}"#
        for _ in 0..<120 {
            json = #"{"MsgBody":[{"MsgType":"TIMRelayElem","MsgContent":{"MsgList":[{"MsgBody":["# + json + "]}]}}]}"
        }
        let arguments = ["convert", "--from", "tim-rest", "--to", "json"] + (flag.map { ["--max-depth", $0] } ?? [])
        let result = Self.run(arguments, stdin: Array(json.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: depth_limit_exceeded: nesting exceeds the depth limit of \(limit) message levels"), "\(result.stderr)")
    }

    // MARK: - inspect

    @Test func inspectPrintsTheFieldsBeforeTheErrorThenTheError() throws {
        let fixture = try #require(Fixtures.cases(kind: "valid").first { $0.name == "elem_face_all_fields" })
        let whole = Self.run(["inspect"], stdin: fixture.bytes("binpb"))
        let cut = Self.run(["inspect"], stdin: Array(fixture.bytes("binpb").prefix(30)))
        #expect(whole.status == 0)
        #expect(cut.status == 1)
        let wholeLines = String(decoding: whole.stdout, as: UTF8.self).split(separator: "\n")
        let cutLines = String(decoding: cut.stdout, as: UTF8.self).split(separator: "\n")
        #expect(cutLines.first == "imwire.v1.Message (30 bytes)")
        // sender and receiver precede the cut; the elem (bytes 22…36) does not fit.
        #expect(cutLines.dropFirst() == wholeLines.dropFirst().prefix(2), "\(cutLines)")
        #expect(cut.stderr.hasPrefix("error: length_out_of_bounds: "), "\(cut.stderr)")
    }

    @Test func inspectShowsTheSubMessageAnErrorIsInside() {
        // elems { text { text: "hi" } } then a string of invalid UTF-8 inside the same elem's text.
        let bytes: [UInt8] = [0x52, 0x0A, 0x0A, 0x08, 0x0A, 0x02, 0x68, 0x69, 0x0A, 0x02, 0xC3, 0x28]
        let result = Self.run(["inspect"], stdin: bytes)
        #expect(result.status == 1)
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("10 elems message imwire.v1.Elem (10 bytes)"), "\(text)")
        #expect(text.contains("1 text message imwire.v1.TextElem (8 bytes)"), "\(text)")
        #expect(text.contains(#"1 text string (2 bytes) = "hi""#), "\(text)")
        #expect(!text.contains("\\u{"), "the bad string is not shown: \(text)")
        #expect(result.stderr.hasPrefix("error: invalid_utf8: "), "\(result.stderr)")
    }

    @Test func inspectOfJSONSaysInspectReadsBinary() throws {
        let fixture = try #require(Fixtures.cases(kind: "valid").first { $0.name == "elem_face_all_fields" })
        let result = Self.run(["inspect"], stdin: fixture.bytes("json"))
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("; the input looks like json: inspect reads binary (imwire convert --to binary makes it)\n"), "\(result.stderr)")
    }
}
