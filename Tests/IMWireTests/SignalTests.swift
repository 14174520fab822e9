import IMWire
import Testing

/// Recall notices and read receipts (`Message.signal`): how the codecs carry them, what tim-rest does
/// with them, and the vendor profiles' signal rules with their paths and values.
@Suite struct SignalTests {
    static let recall = Message(
        msgID: "notice-1", sender: "admin", target: .groupID("g1"), timestampMs: 1_700_000_100_000,
        signal: .recallNotice(RecallNotice(msgID: "m42", recalledBy: "admin", reason: "off topic")))
    static let groupReceipt = Message(
        sender: "bob", target: .groupID("g1"),
        signal: .groupReadReceipt(GroupReadReceipt(msgID: "m42", readCount: 12, unreadCount: .max)))
    static let c2cReceipt = Message(
        sender: "haven", target: .receiver("alice"),
        signal: .c2cReadReceipt(C2CReadReceipt(userID: "haven", readTimestampMs: 1_700_000_300_000)))

    @Test(arguments: [recall, groupReceipt, c2cReceipt])
    func signalsRoundTripThroughBinaryAndJSON(_ message: Message) throws {
        #expect(try Message(serializedBytes: message.serializedBytes()) == message)
        #expect(try Message(jsonUTF8Bytes: message.jsonUTF8Bytes()) == message)
    }

    @Test func theSignalFieldsComeAfterEveryOtherFieldOnTheWire() throws {
        // Field 22 (recall_notice) is the highest field of Message: a runtime on the older schema keeps
        // it as an unknown field in the same place, so its canonical bytes are ours too.
        let bytes = try Self.recall.serializedBytes()
        let start = bytes.count - (try RecallNotice(msgID: "m42", recalledBy: "admin", reason: "off topic").serializedBytes().count) - 3
        #expect(Array(bytes[start..<start + 2]) == [0xB2, 0x01])
        #expect(try Self.recall.jsonString()
            == #"{"msgId":"notice-1","sender":"admin","groupId":"g1","timestampMs":"1700000100000","recallNotice":{"msgId":"m42","recalledBy":"admin","reason":"off topic"}}"#)
    }

    @Test func theLastSignalOnTheWireWinsAndTwoInJSONConflict() throws {
        var bytes = try Self.groupReceipt.serializedBytes()
        bytes += try Self.recall.serializedBytes()
        #expect(try Message(serializedBytes: bytes).signal == Self.recall.signal)
        let json = #"{"recallNotice":{"msgId":"a"},"c2cReadReceipt":{"userId":"b"}}"#
        #expect(throws: IMWireError.matching(.oneofConflict)) { try Message(jsonString: json) }
    }

    @Test func anEmptySignalIsPresent() throws {
        let message = Message(target: .receiver("bob"), signal: .recallNotice(RecallNotice()))
        #expect(try message.jsonString() == #"{"receiver":"bob","recallNotice":{}}"#)
        #expect(try Message(serializedBytes: message.serializedBytes()).signal == .recallNotice(RecallNotice()))
    }

    @Test(arguments: [(recall, "recall_notice"), (groupReceipt, "group_read_receipt"), (c2cReceipt, "c2c_read_receipt")])
    func timRESTRefusesEverySignalAtItsPath(_ message: Message, _ path: String) {
        do {
            _ = try message.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(allowsLossyConversion: true))
            Issue.record("\(path) was written")
        } catch {
            #expect(error.code == .notRepresentable)
            #expect(error.path == path)
        }
    }

    @Test func validSignalsPassEveryVendorProfile() {
        for profile in ValidationProfile.presets {
            for message in [Self.recall, Self.groupReceipt, Self.c2cReceipt] {
                #expect(message.validate(profile: profile) == [], "\(profile) \(message)")
            }
        }
    }

    @Test func signalRulesReportAtTheSignalWithTheirValues() {
        var message = Message(sender: "bob", target: .receiver("alice"), elems: [.text("a"), .text("b")])
        message.signal = .groupReadReceipt(GroupReadReceipt(readCount: 1))
        let rows = message.validate(profile: .tencent).map { "\($0.code.name) \($0.path) \($0.limit) \($0.actual)" }
        #expect(rows == [
            "signal_not_standalone group_read_receipt 0 2",
            "signal_target_mismatch group_read_receipt group_id receiver",
            "signal_msg_id_missing group_read_receipt.msg_id 1 0",
        ])
        let c2c = Message(target: nil, signal: .c2cReadReceipt(C2CReadReceipt(userID: String(repeating: "u", count: 33))))
        #expect(c2c.validate(profile: .zim).map { "\($0.code.name) \($0.path) \($0.limit) \($0.actual)" } == [
            "signal_target_mismatch c2c_read_receipt receiver none",
            "user_id_too_long c2c_read_receipt.user_id 32 33",
        ])
    }

    @Test func aSignalNeedsNoElemsButAMessageWithoutOneDoes() {
        #expect(Message(target: .groupID("g")).validate(profile: .tencent).map(\.code) == [.elemChainEmpty])
        #expect(Self.recall.validate(profile: .tencent).isEmpty)
    }

    @Test func aMergedMessageCarriesNoSignalUnderTencent() {
        let merger = MergerElem(title: "t", messages: [Self.c2cReceipt])
        let message = Message(sender: "alice", target: .receiver("bob"), elems: [.merger(merger)])
        let violations = message.validate(profile: .tencent)
        #expect(violations.map(\.code) == [.signalNotAllowedInMerger])
        #expect(violations.first?.path == "elems[0].merger.messages[0].c2c_read_receipt")
        #expect(message.validate(profile: .zim).map(\.code) == [.elemKindNotSupported])  // zim has no merger at all
    }

    @Test func groupReceiptsAreValidWhereTheEnhancedEditionGuideHasThem() {
        // The Lite Edition guide says only one-to-one chats have read receipts; the Enhanced
        // Edition's guide adds group receipts (SDK 6.1.2155). IMWire follows the later one.
        var asked = Message(sender: "alice", target: .groupID("g"), elems: [.text("read me")])
        asked.needReadReceipt = true
        #expect(asked.validate(profile: .tencent).isEmpty)
        #expect(Self.groupReceipt.validate(profile: .tencentSDK).isEmpty)
    }
}
