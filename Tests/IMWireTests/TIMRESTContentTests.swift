import Foundation
import Testing


@testable import IMWire

/// The tim-rest writer's content-only form (`timRESTContentUTF8Bytes`, package-visible, for the
/// webhook answers): exactly the `MsgBody` and `CloudCustomData` of the full canonical form, and
/// nothing of the envelope.
@Suite struct TIMRESTContentTests {
    static let messages: [Message] = [
        Message(sender: "jared", target: .receiver("John"), seq: 48374, random: 2_837_546, elems: [.text("red packet")]),
        {
            var message = Message(
                sender: "leckie", target: .groupID("@TGS#2C5SZEAEF"), priority: .high,
                elems: [.text("a \"quoted\"\nline"), .face(FaceElem(index: 6)), .custom(CustomElem(data: Array("{}".utf8), desc: "d"))],
                atUserList: ["tommy"])
            message.cloudCustomData = Array("custom ✓".utf8)
            return message
        }(),
        Message(elems: []),
    ]

    @Test(arguments: messages)
    func theContentIsTheFullFormsBodyAndCustomData(_ message: Message) throws {
        let full = try JSONSerialization.jsonObject(with: Data(message.timRESTUTF8Bytes())) as? [String: Any]
        let contentBytes = try message.timRESTContentUTF8Bytes()
        let content = try #require(try JSONSerialization.jsonObject(with: Data(contentBytes)) as? [String: Any])
        #expect(Set(content.keys) == Set(["MsgBody", "CloudCustomData"]).intersection(full?.keys.map { $0 } ?? []))
        #expect((content["MsgBody"] as? NSArray) == (full?["MsgBody"] as? NSArray))
        #expect(content["CloudCustomData"] as? String == full?["CloudCustomData"] as? String)
        #expect(contentBytes.first == UInt8(ascii: "{") && contentBytes.last == UInt8(ascii: "}"))
        // Reading the content back gives the elems and custom data, and no envelope.
        let back = try Message(timRESTUTF8Bytes: contentBytes)
        #expect(back.elems == message.elems)
        #expect(back.cloudCustomData == message.cloudCustomData)
        #expect(back.sender.isEmpty && back.target == nil)
    }

    @Test func contentTimRESTCannotCarryFailsWithItsPath() {
        #expect(throws: IMWireError.matching(.notRepresentable)) {
            try Message(elems: [.custom(CustomElem(data: [0xff]))]).timRESTContentUTF8Bytes()
        }
        let error = #expect(throws: IMWireError.self) {
            try Message(elems: [.text("x"), .groupTips(GroupTipsElem())]).timRESTContentUTF8Bytes()
        }
        #expect(error?.path == "elems[1].group_tips")
    }

    @Test func aSignalHasNoContent() {
        var message = Message(msgID: "k")
        message.signal = .recallNotice(RecallNotice())
        let error = #expect(throws: IMWireError.self) { try message.timRESTContentUTF8Bytes() }
        #expect(error?.code == .notRepresentable)
        #expect(error?.path == "recall_notice")
    }
}
