import IMWire
import IMWireCLI
import IMWireTestSupport
import Testing

/// `imwire validate --profile P [--format F] [FILE]`: nothing and status 0 when valid;
/// one `CODE PATH limit=L actual=A` line per violation on stdout, one `error:` line on stderr and
/// status 1 otherwise; decode errors and usage errors as for every command.
@Suite struct ValidationCLITests {
    static func fixture(_ name: String) throws -> Fixtures.Case {
        try #require(Fixtures.cases(kind: "limit").first { $0.name == name })
    }

    @Test func aValidMessagePrintsNothingAndExitsZero() throws {
        let valid = try Self.fixture("tencent_content_summed_over_elems_at_limit")
        let result = CLITests.run(["validate", "--profile", "tencent"], stdin: valid.bytes("binpb"))
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
    }

    @Test func eachViolationIsOneLineWithCodePathLimitAndActual() throws {
        let fixture = try Self.fixture("zim_many_violations")
        let result = CLITests.run(["validate", "--profile", "zim", "m.binpb"], files: ["m.binpb": fixture.bytes("binpb")])
        #expect(result.status == 1)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 16)
        #expect(lines.first == "too_many_custom_elems elems limit=1 actual=2")
        #expect(lines.contains("barrage_too_large elems[0].text.text limit=5120 actual=5121"))
        #expect(lines.last == "barrage_requires_text barrage limit=text actual=text|custom|custom|sound|sound|image|video|video|file|file")
        #expect(lines.contains("sound_format_not_allowed elems[3].sound.format limit=m4a|mp3 actual=wav"))
        for line in lines { #expect(line.split(separator: " ").count == 4, "\(line)") }
        #expect(result.stderr.hasPrefix("error: too_many_custom_elems: 16 violations of profile zim"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func theProfileDecidesTheVerdict() throws {
        let fixture = try Self.fixture("zim_text_at_limit")  // 32 KB of emoji: fine for ZIM, too big for Tencent
        #expect(CLITests.run(["validate", "--profile", "zim"], stdin: fixture.bytes("binpb")).status == 0)
        #expect(CLITests.run(["validate", "--profile", "none"], stdin: fixture.bytes("binpb")).status == 0)
        let tencent = CLITests.run(["validate", "--profile", "tencent"], stdin: fixture.bytes("binpb"))
        #expect(tencent.status == 1)
        #expect(String(decoding: tencent.stdout, as: UTF8.self) == "content_too_large elems limit=12288 actual=32768\n")
    }

    @Test func jsonInputIsValidatedLikeBinary() throws {
        let fixture = try Self.fixture("tencent_many_violations")
        let binary = CLITests.run(["validate", "--profile", "tencent"], stdin: fixture.bytes("binpb"))
        let json = CLITests.run(["validate", "--profile", "tencent", "--format", "json"], stdin: fixture.bytes("json"))
        #expect(json.status == 1)
        #expect(json.stdout == binary.stdout)
        #expect(String(decoding: json.stdout, as: UTF8.self).split(separator: "\n").count == 12)
    }

    @Test func theServerAcceptsWhatTheSDKWouldNotBuild() throws {
        // A Group.CallbackAfterSendMsg body with a text and an image, read from tim-rest.
        let callback = try #require(Fixtures.cases(kind: "tim_rest").first { $0.name == "tim_rest_group_callback_after_send_msg_text_and_image" })
        let server = CLITests.run(["validate", "--profile", "tencent", "--format", "tim-rest"], stdin: callback.bytes("input"))
        #expect(server.status == 0)
        #expect(server.stdout.isEmpty)
        let sdk = CLITests.run(["validate", "--profile", "tencent-sdk", "--format", "tim-rest"], stdin: callback.bytes("input"))
        #expect(sdk.status == 1)
        #expect(String(decoding: sdk.stdout, as: UTF8.self) == "elem_not_appendable elems[1].image limit=text|custom|location|face actual=image\n")
        let tuikit = CLITests.run(["validate", "--profile", "tuikit", "--format", "tim-rest"], stdin: callback.bytes("input"))
        #expect(tuikit.stdout == sdk.stdout)
    }

    @Test func anEmptyOrSpacedValueIsPrintedQuoted() {
        let message = Message(elems: [.sound(SoundElem(dataSize: 1, format: "")), .video(VideoElem(videoFormat: "mp 4"))])
        let bytes = (try? message.serializedBytes()) ?? []
        let result = CLITests.run(["validate", "--profile", "zim"], stdin: bytes)
        #expect(String(decoding: result.stdout, as: UTF8.self) == """
            sound_format_not_allowed elems[0].sound.format limit=m4a|mp3 actual=""
            video_format_not_allowed elems[1].video.video_format limit=mov|mp4 actual="mp 4"

            """)
    }

    @Test func aDecodeErrorIsReportedLikeEveryCommand() {
        let result = CLITests.run(["validate", "--profile", "tencent"], stdin: [0x0A, 0x05, 0x61])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: length_out_of_bounds: "))
    }

    @Test func aMissingOrUnknownProfileIsAUsageError() {
        #expect(CLITests.run(["validate"], stdin: []).status == 2)
        #expect(CLITests.run(["validate", "--profile", "wechat"], stdin: []).status == 2)
    }
}
