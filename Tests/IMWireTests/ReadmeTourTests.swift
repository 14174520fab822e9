import IMWire
import Testing

/// The README's "API in five minutes", compiled and run, so the front door cannot rot.
@Suite struct ReadmeTourTests {
    @Test func theTourRunsAsWritten() throws {
        let webhookBody = Array(#"{"CallbackCommand":"Group.CallbackAfterSendMsg","GroupId":"@TGS#2ABCDEFG","From_Account":"alice","Random":42,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#.utf8)

        // Build a message: an envelope and a non-empty chain of elems (V2TIM nextElem / REST MsgBody).
        var message = Message(
            msgID: "144115233002212345-1700000000-42",
            sender: "alice",
            target: .groupID("@TGS#2ABCDEFG"),
            timestampMs: 1_700_000_000_000,
            priority: .high,
            elems: [
                .text("see you at 8 🍜"),
                .face(FaceElem(index: 12)),
            ],
            atUserList: [Message.atAllUserID]
        )
        message.elems.append(.image(ImageElem(format: .png, images: [
            Image(type: .thumb, uuid: "img-1", size: 20_480, width: 198, height: 198, url: "https://…/thumb"),
        ])))

        let bytes = try message.serializedBytes()
        let decoded = try Message(serializedBytes: bytes)
        guard case .text(let text)? = decoded.elems.first?.content else {
            Issue.record("first elem is not text")
            return
        }
        #expect(text.text == "see you at 8 🍜")
        #expect(decoded == message)

        let strict = BinaryDecodingOptions(maxDepth: 64, maxInputSize: 64 * 1024)
        _ = try Message(serializedBytes: bytes, options: strict)

        // The tour's message breaks Tencent's chain rule (an image after the first elem).
        let codes = message.validate(profile: .tencent).map(\.code.name)
        #expect(codes == ["elem_not_appendable"])

        let json = try message.jsonString()
        #expect(try Message(jsonString: json) == message)
        let fromWebhook = try Message(timRESTUTF8Bytes: webhookBody)
        #expect(fromWebhook.sender == "alice")
        #expect(fromWebhook.target == .groupID("@TGS#2ABCDEFG"))
        _ = try fromWebhook.timRESTUTF8Bytes()
        let restRequest = try message.timRESTUTF8Bytes()
        #expect(try Message(timRESTUTF8Bytes: restRequest).elems.count == 3)
    }
}
