import IMWire
import IMWireWebhooks
import Testing

/// The answers to message callbacks: the codes and rewrites Tencent's before-send pages allow, as
/// JSON compared with what Python wrote from those pages (Fixtures/webhooks/).
@Suite struct MessageCallbackTests {
    static func callback(_ name: String, _ command: CallbackCommand = .c2cBeforeSendMsg) throws -> MessageCallback {
        try MessageCallback(command: command, body: try WebhookFixtures.read("\(name).input.json"))
    }

    @Test func readsTheBodyWithTheTimRESTReader() throws {
        let callback = try Self.callback("replace_example")
        #expect(callback.message.sender == "jared")
        #expect(callback.message.target == .receiver("John"))
        #expect(callback.message.elems == [.text("red packet")])
        #expect(callback.message.cloudCustomData == Array("your cloud custom data".utf8))
    }

    @Test func aGroupBodyReadsToo() throws {
        let callback = try Self.callback("group_before_send_banned_word", .groupBeforeSendMsg)
        #expect(callback.message.target == .groupID("@TGS#2J4SZEAEL"))
        #expect(callback.message.topicID == "@TGS#_@TGS#cQVLVHIM62CJ@TOPIC#_TestTopic")
    }

    @Test func allowIsTencentsOKAnswer() throws {
        #expect(CallbackResponse.allow.jsonString == #"{"ActionStatus":"OK","ErrorInfo":"","ErrorCode":0}"#)
        #expect(try Self.callback("c2c_before_send_clean").allow().jsonUTF8Bytes()
            == (try WebhookFixtures.read("c2c_before_send_clean.response.json")))
    }

    @Test func replacingWithTencentsSampleGivesTheGoldenAnswer() throws {
        // The modified message of "Before a One-to-One Message Is Sent": a text, a custom elem and new custom data.
        let response = try Self.callback("replace_example").replace(
            elems: [.text("red packet"), .custom(CustomElem(data: Array(" LV1".utf8), desc: " CustomElement.MemberLevel "))],
            cloudCustomData: Array("your new cloud custom data".utf8))
        #expect(response.errorCode == 0)
        #expect(response.replacesMessage)
        #expect(response.jsonString == String(decoding: try WebhookFixtures.read("replace_example.response.json"), as: UTF8.self))
    }

    @Test func withoutCloudCustomDataTheSendersIsKept() throws {
        let response = try Self.callback("replace_example").replace(elems: [.text("hi")])
        #expect(response.jsonString == #"{"ActionStatus":"OK","ErrorInfo":"","ErrorCode":0,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#)
    }

    @Test(arguments: [
        (CallbackCommand.c2cBeforeSendMsg, [1, 120_001, 125_000, 130_000]),
        (CallbackCommand.groupBeforeSendMsg, [1, 10100, 10200]),
    ])
    func refusesWithTheDocumentedCodes(command: CallbackCommand, codes: [Int]) throws {
        let callback = MessageCallback(command: command, message: Message(elems: [.text("x")]))
        for code in codes {
            let response = try callback.refuse(code: code, reason: "no \"spam\"")
            #expect(response.jsonString == #"{"ActionStatus":"OK","ErrorInfo":"no \"spam\"","ErrorCode":\#(code)}"#)
        }
    }

    @Test(arguments: [
        (CallbackCommand.c2cBeforeSendMsg, [0, 2, 3, 120_000, 130_001, 10100]),
        (CallbackCommand.groupBeforeSendMsg, [0, 2, 10099, 10201, 120_001]),
    ])
    func aCodeOutsideTheCommandsRangeIsNotAnAnswer(command: CallbackCommand, codes: [Int]) {
        let callback = MessageCallback(command: command, message: Message(elems: [.text("x")]))
        for code in codes {
            let error = #expect(throws: WebhookError.self) { try callback.refuse(code: code) }
            #expect(error?.code == .answerNotAllowed)
            #expect(error?.httpStatus == 500)
        }
    }

    @Test func discardIsCode2() throws {
        let callback = MessageCallback(command: .groupBeforeSendMsg, message: Message(elems: [.text("x")]))
        #expect(try callback.discard().jsonString == #"{"ActionStatus":"OK","ErrorInfo":"","ErrorCode":2}"#)
    }

    @Test func anAfterSendCallbackTakesOnlyAllow() {
        let callback = MessageCallback(command: .c2cAfterSendMsg, message: Message(elems: [.text("x")]))
        #expect(callback.allow() == .allow)
        #expect(throws: WebhookError(code: .answerNotAllowed, reason: "")) { try callback.refuse() }
        #expect(throws: WebhookError(code: .answerNotAllowed, reason: "")) { try callback.discard() }
        #expect(throws: WebhookError(code: .answerNotAllowed, reason: "")) { try callback.replace(elems: [.text("y")]) }
    }

    @Test func richMediaMayStayOrGoButNotChange() throws {
        let image = Elem.image(ImageElem(format: .jpg, images: [Image(type: .origin, uuid: "u1", size: 10, url: "http://a")]))
        let callback = MessageCallback(command: .c2cBeforeSendMsg, message: Message(elems: [.text("look"), image]))
        // Kept unchanged, or replaced by text: allowed.
        _ = try callback.replace(elems: [.text("l**k"), image])
        _ = try callback.replace(elems: [.text("an image was removed")])

        var changed = image
        if case .image(var elem)? = changed.content {
            elem.images[0].url = "http://elsewhere"
            changed = .image(elem)
        }
        let sound = Elem.sound(SoundElem(uuid: "s", dataSize: 1, duration: 1))
        for elems in [[Elem.text("x"), changed], [sound]] {
            let error = #expect(throws: WebhookError.self) { try callback.replace(elems: elems) }
            #expect(error?.code == .rewriteNotAllowed)
            #expect(error?.path == "elems[\(elems.count - 1)]")
        }
    }

    @Test func aReplacementMustMeetTheProfile() throws {
        let callback = MessageCallback(command: .c2cBeforeSendMsg, message: Message(sender: "jared", target: .receiver("John"), elems: [.text("x")]))
        let error = #expect(throws: WebhookError.self) {
            try callback.replace(elems: [.text(String(repeating: "a", count: 12 * 1024 + 1))])
        }
        #expect(error?.code == .rewriteNotAllowed)
        #expect(error?.reason.contains("tencent") == true)
        _ = try callback.replace(elems: [.text(String(repeating: "a", count: 12 * 1024 + 1))], profile: .none)
    }

    @Test func aReplacementTimRESTCannotCarryIsRefused() throws {
        let callback = MessageCallback(command: .c2cBeforeSendMsg, message: Message(elems: [.text("x")]))
        let error = #expect(throws: WebhookError.self) {
            try callback.replace(elems: [.custom(CustomElem(data: [0xff, 0xfe]))], profile: .none)
        }
        #expect(error?.code == .rewriteNotAllowed)
        #expect(error?.underlying?.code == .notRepresentable)
        #expect(error?.path == "elems[0].custom.data")
    }

    @Test func anEmptyReplacementIsNotAnAnswer() {
        let callback = MessageCallback(command: .c2cBeforeSendMsg, message: Message(elems: [.text("x")]))
        #expect(throws: WebhookError(code: .rewriteNotAllowed, reason: "")) { try callback.replace(elems: []) }
        #expect(throws: WebhookError(code: .rewriteNotAllowed, reason: "")) { try callback.replace(elems: [.text("y")], cloudCustomData: []) }
    }

    @Test(arguments: [
        #"{"CallbackCommand":"C2C.CallbackBeforeSendMsg","From_Account":"jared","#,
        #"{"CallbackCommand":"C2C.CallbackBeforeSendMsg"}"#,
        #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":1}}]}"#,
        "",
    ])
    func aBodyThatIsNotAMessageIsMalformed(body: String) {
        let error = #expect(throws: WebhookError.self) { try MessageCallback(command: .c2cBeforeSendMsg, body: Array(body.utf8)) }
        #expect(error?.code == .malformedBody)
        #expect(error?.underlying != nil)
        #expect(error?.httpStatus == 400)
    }

    @Test func everyCodeHasAName() {
        #expect(Set(WebhookError.Code.all.map(\.name)).count == WebhookError.Code.all.count)
        #expect(WebhookError.Code.all.count == 12)
    }
}
