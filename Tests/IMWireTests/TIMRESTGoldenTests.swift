import IMWire
import IMWireTestSupport
import Testing

/// The tim-rest fixtures (`Fixtures/sources/tim_rest*.json`): REST inputs written from Tencent's
/// documented field tables and examples, the message each must decode to (its canonical JSON and
/// binary made by Python's json_format from the hand-written expectation) and the canonical tim-rest
/// each message must encode to; inputs that must be rejected and messages that must not be exported,
/// with their codes and paths.
@Suite struct TIMRESTGoldenTests {
    static let accepted = Fixtures.cases(kind: "tim_rest")
    static let rejected = Fixtures.cases(kind: "tim_rest_reject")
    static let notExported = Fixtures.cases(kind: "tim_rest_export_reject")

    @Test func everyKindOfCaseIsPresent() {
        #expect(Self.accepted.count >= 50)
        #expect(Self.rejected.count >= 60)
        #expect(Self.notExported.count >= 15)
    }

    @Test(arguments: accepted)
    func decodingGivesTheExpectedMessage(_ fixture: Fixtures.Case) throws {
        let message = try Message(timRESTUTF8Bytes: fixture.bytes("input"))
        let binary = try message.serializedBytes()
        #expect(binary == fixture.bytes("binpb"), "binary \(hex(binary))\nexpected \(hex(fixture.bytes("binpb")))")
        #expect(try message.jsonString() == fixture.text("json"))
    }

    @Test(arguments: accepted)
    func encodingGivesTheCanonicalTIMREST(_ fixture: Fixtures.Case) throws {
        let message = try Message(serializedBytes: fixture.bytes("binpb"))
        #expect(try message.timRESTString() == fixture.text("tim_rest"))
    }

    @Test(arguments: accepted)
    func canonicalTIMRESTRoundTripsExactly(_ fixture: Fixtures.Case) throws {
        // tim-rest → model → tim-rest: the canonical form is a fixed point, and means the same message.
        let canonical = fixture.bytes("tim_rest")
        let message = try Message(timRESTUTF8Bytes: canonical)
        #expect(try message.serializedBytes() == fixture.bytes("binpb"))
        #expect(try message.timRESTUTF8Bytes() == canonical)
        let pretty = try message.timRESTString(options: TIMRESTEncodingOptions(prettyPrinted: true))
        #expect(try Message(timRESTString: pretty).serializedBytes() == fixture.bytes("binpb"))
    }

    /// Every accepted input survives tim-rest → binary → proto3 JSON → binary → tim-rest: the
    /// schema carries every key the model reads (JsonMsgKey, MsgNum, TopicId, the APNs keys), in
    /// every format.
    @Test(arguments: accepted)
    func everyValueSurvivesTheTripThroughEveryFormat(_ fixture: Fixtures.Case) throws {
        let decoded = try Message(timRESTUTF8Bytes: fixture.bytes("input"))
        let viaBinary = try Message(serializedBytes: decoded.serializedBytes())
        let viaJSON = try Message(jsonUTF8Bytes: viaBinary.jsonUTF8Bytes())
        let back = try Message(serializedBytes: viaJSON.serializedBytes())
        #expect(back == decoded)
        #expect(try back.timRESTUTF8Bytes() == fixture.bytes("tim_rest"))
    }

    @Test func theCombinedCaseCarriesEveryNewKey() throws {
        let fixture = try #require(Self.accepted.first { $0.name == "tim_rest_combined_topic_apns_relay_json_msg_key" })
        let message = try Message(timRESTUTF8Bytes: fixture.bytes("input"))
        #expect(!message.topicID.isEmpty)
        let push = try #require(message.offlinePushInfo)
        #expect(!push.iosTitle.isEmpty && !push.iosSubtitle.isEmpty && !push.iosImage.isEmpty && push.iosMutableContent)
        guard case .merger(let merger)? = message.elems.first?.content else { Issue.record("no merger"); return }
        #expect(!merger.jsonMsgKey.isEmpty && merger.msgNum == 300 && merger.messages.isEmpty)
        #expect(message.unknownFields.isEmpty && merger.unknownFields.isEmpty)
    }

    @Test(arguments: rejected)
    func rejectedInputsFailWithTheirCodeAndPath(_ fixture: Fixtures.Case) {
        do {
            let message = try Message(timRESTUTF8Bytes: fixture.bytes("input"))
            Issue.record("decoded \(fixture.name) instead of failing with \(fixture.fields["error"]!): \(message)")
        } catch {
            #expect(error.code.name == fixture.fields["error"])
            #expect((error.path ?? "") == fixture.fields["error_path"], "\(error)")
        }
    }

    @Test(arguments: notExported)
    func messagesRESTCannotCarryAreRefusedWithTheirCodeAndPath(_ fixture: Fixtures.Case) throws {
        let message = try Message(serializedBytes: fixture.bytes("binpb"))
        #expect(try Message(jsonUTF8Bytes: fixture.bytes("json")) == message)
        do {
            let rest = try message.timRESTString()
            Issue.record("exported \(fixture.name) instead of failing with \(fixture.fields["error"]!): \(rest)")
        } catch {
            #expect(error.code.name == fixture.fields["error"])
            #expect((error.path ?? "") == fixture.fields["error_path"], "\(error)")
        }
    }
}
