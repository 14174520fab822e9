// Binary input cut off at every byte: the decoder, the message view and the routing view read every
// prefix of a message that holds every wire type and every kind of field of the schema alike — the
// same error (code, reason and offset, inside the prefix) or the same message — and, run under
// AddressSanitizer by the test command, without reading a byte past it (each prefix is a heap block
// of its exact size). Then values whose length prefix runs exactly to the end of the input, and one
// byte past it.

import IMWire
import IMWireTestSupport
import Testing

@Suite("Truncated binary")
struct BinaryTruncationTests {
    // MARK: Building bytes

    static func tag(_ number: Int, _ wireType: Int) -> [UInt8] { Varint.encode(UInt64(number) << 3 | UInt64(wireType)) }

    /// Field `number`, wire type 2, holding `value`; `extra` is added to the length prefix only.
    static func lengthDelimited(_ number: Int, _ value: [UInt8], extra: Int = 0) -> [UInt8] {
        tag(number, 2) + Varint.encode(UInt64(value.count + extra)) + value
    }

    /// Unknown fields of every wire type, with 1- to 5-byte tags: a 10-byte varint, a fixed64, a
    /// length-delimited value, a group holding a varint, a string and a group of its own (with a
    /// fixed32), and a fixed32; the group's number is the largest there is.
    static let unknownFields: [UInt8] =
        tag(1000, 0) + Varint.encode(UInt64.max)
        + tag(99, 1) + [1, 2, 3, 4, 5, 6, 7, 8]
        + lengthDelimited(70_000, Array("unknown é".utf8))
        + tag((1 << 29) - 1, 3)
            + tag(1, 0) + Varint.encode(300)
            + lengthDelimited(2, [0xFF, 0x00])
            + tag(3, 3) + tag(1, 5) + [9, 9, 9, 9] + tag(3, 4)
        + tag((1 << 29) - 1, 4)
        + tag(31, 5) + [0xAA, 0xBB, 0xCC, 0xDD]

    /// `value` with ``unknownFields`` after its own fields (decoded, so the model keeps them).
    static func withUnknownFields<M: IMWireMessage>(_ value: M) -> M {
        try! M(serializedBytes: try! value.serializedBytes() + unknownFields)
    }

    /// A message with every wire type and every kind of field: varints of 1, 2, 6 and 10 bytes (a
    /// negative `int32` too), doubles (fixed64), strings (empty-free ASCII, multi-byte UTF-8, and
    /// longer than 64 bytes, for the vectorised validator's 32-byte path), bytes, nested messages
    /// (every elem kind, a merger of messages, group tips with member lists), repeated fields of
    /// every kind, the `map<string, bytes>` of member and user profiles, a oneof of each kind, and
    /// unknown fields of every wire type at the top, in an elem, in a member profile and in a
    /// merged message. More than eight elems, so the routing view walks its elem kinds lazily.
    static let message: Message = {
        let member = withUnknownFields(GroupMemberInfo(
            userID: "u1", nickName: "Ünïcödé", friendRemark: "r", nameCard: "card", faceURL: "https://f/1.png",
            role: .admin, joinTime: 1_700_000_000, muteUntil: UInt64.max,
            customInfo: ["Tag_Profile_Custom_a": [1, 2, 3], "k": [], "长": Array(0..<20)]))
        let owner = GroupMemberInfo(userID: "u9", role: .owner, customInfo: ["k": [1]])
        let profile = UserProfile(userID: "op", nickName: "操作者", faceURL: "f", selfSignature: "sig",
                                  customInfo: ["Tag_Profile_Custom_x": [9], "y": [0xFF]])
        let inner = withUnknownFields(Message(msgID: "inner-1", sender: "b", target: .receiver("c"), timestampMs: 1,
                                              elems: [.text("merged 😀"), .face(FaceElem(index: 2))]))
        let elems: [Elem] = [
            withUnknownFields(Elem.text("hi")),
            .text(String(repeating: "中文😀 ", count: 8)),
            .text(String(repeating: "ascii-only ", count: 8)),
            .custom(CustomElem(data: [0, 0xFF, 0x80, 0x7F], desc: "d", ext: "ext", sound: "s.caf")),
            .image(ImageElem(format: .png, images: [
                Image(type: .thumb, uuid: "i1", size: 1 << 40, width: 100, height: 200, url: "https://x/t.png"),
                Image(type: .origin, uuid: "i2", size: 300, width: 1, height: 2, url: "https://x/o.png"),
            ])),
            .sound(SoundElem(uuid: "s", url: "https://x/s.mp3", dataSize: 4096, duration: 61, format: "mp3")),
            .video(VideoElem(videoUUID: "v", videoURL: "https://x/v.mp4", videoSize: 1 << 33, videoFormat: "mp4", duration: 9,
                             snapshotUUID: "sn", snapshotURL: "https://x/s.jpg", snapshotSize: 12, snapshotWidth: 640,
                             snapshotHeight: 480, snapshotFormat: "jpg")),
            .file(FileElem(uuid: "f", url: "https://x/f", fileName: "名前.txt", fileSize: 12_345)),
            .location(LocationElem(desc: "here", longitude: 121.5, latitude: -31.25)),
            .face(FaceElem(index: -1, data: [1, 2])),
            .groupTips(GroupTipsElem(
                groupID: "@TGS#1", type: .join, opMember: owner, memberList: [member, GroupMemberInfo(userID: "u2")],
                groupChangeList: [GroupChangeInfo(type: .name, value: "v", key: "k", boolValue: true, intValue: 7, uint64Value: UInt64.max)],
                memberChangeList: [MemberChangeInfo(userID: "u3", muteTime: 60)], memberCount: 3, groupName: "群",
                platform: "iOS", opUserInfo: profile, changedUserInfoList: [UserProfile(userID: "z")],
                changedGroupMemberInfoList: [owner])),
            .merger(MergerElem(title: "history", abstractList: ["a: hi", "b: yo"], compatibleText: "[merged]",
                               layersOverLimit: true, messages: [inner, Message(msgID: "inner-2")], msgNum: 2)),
            .groupSystem(GroupSystemElem(type: .addGroupRequest, groupID: "@TGS#2", opUser: "op", reason: "please", msgKey: 77,
                                         authKey: [1, 2, 3], userData: [4, 5], opMember: owner, platform: "Web", opUserInfo: UserProfile(userID: "op"))),
            Elem(),
        ]
        let message = Message(
            msgID: "m-1", sender: "阿莉 😀", target: .groupID("@TGS#1"), timestampMs: 1_700_000_000_000, seq: 300,
            random: UInt64.max, priority: .high, elems: elems, atUserList: ["a", Message.atAllUserID], targetedReceivers: ["t1", "t2"],
            cloudCustomData: [0, 1, 2, 0xFF], offlinePushInfo: OfflinePushInfo(title: "t", desc: "d", disablePush: true, iosPushType: .voip),
            needReadReceipt: true, excludedFromUnreadCount: true, excludedFromLastMessage: true, onlineUserOnly: true,
            supportMessageExtension: true, topicID: String(repeating: "topic-é-", count: 10), barrage: true,
            signal: .recallNotice(RecallNotice(msgID: "m-0", recalledBy: "admin", reason: "spam")))
        return withUnknownFields(message)
    }()

    static let bytes = try! message.serializedBytes()

    // MARK: Reading

    /// What a routing view gives, every property of it, or what it must give for a decoded message.
    struct Routing: Equatable {
        var msgID = "", sender = "", topicID = ""
        var msgIDUTF8: [UInt8] = [], senderUTF8: [UInt8] = [], topicIDUTF8: [UInt8] = [], targetIDUTF8: [UInt8] = []
        var target: Message.Target?
        var timestampMs: UInt64 = 0, seq: UInt64 = 0, random: UInt64 = 0
        var priority = Priority.default
        /// needReadReceipt, excludedFromUnreadCount, excludedFromLastMessage, onlineUserOnly,
        /// supportMessageExtension.
        var flags: [Bool] = []
        var elemCount = 0
        var hasOfflinePushInfo = false
        var elemKinds: [ElemKind?] = []
        var primaryElemKind: ElemKind?

        init(_ view: MessageRoutingView) {
            (msgID, sender, topicID) = (view.msgID, view.sender, view.topicID)
            (msgIDUTF8, senderUTF8, topicIDUTF8, targetIDUTF8) = (Array(view.msgIDUTF8), Array(view.senderUTF8), Array(view.topicIDUTF8), Array(view.targetIDUTF8))
            target = view.target
            (timestampMs, seq, random, priority) = (view.timestampMs, view.seq, view.random, view.priority)
            flags = [view.needReadReceipt, view.excludedFromUnreadCount, view.excludedFromLastMessage, view.onlineUserOnly, view.supportMessageExtension]
            (elemCount, hasOfflinePushInfo) = (view.elemCount, view.hasOfflinePushInfo)
            elemKinds = Array(view.elemKinds)
            primaryElemKind = view.primaryElemKind
        }

        init(expectedFor message: Message) {
            (msgID, sender, topicID) = (message.msgID, message.sender, message.topicID)
            (msgIDUTF8, senderUTF8, topicIDUTF8) = (Array(message.msgID.utf8), Array(message.sender.utf8), Array(message.topicID.utf8))
            switch message.target {
            case .receiver(let id)?, .groupID(let id)?, .roomID(let id)?: targetIDUTF8 = Array(id.utf8)
            case nil: targetIDUTF8 = []
            }
            target = message.target
            (timestampMs, seq, random, priority) = (message.timestampMs, message.seq, message.random, message.priority)
            flags = [message.needReadReceipt, message.excludedFromUnreadCount, message.excludedFromLastMessage, message.onlineUserOnly,
                     message.supportMessageExtension]
            (elemCount, hasOfflinePushInfo) = (message.elems.count, message.offlinePushInfo != nil)
            elemKinds = message.elems.map(\.kind)
            primaryElemKind = message.elems.first?.kind
        }
    }

    /// One input read by the three binary readers.
    struct Readings {
        var decoded: Result<Message, IMWireError>
        var viewed: Result<Message, IMWireError>
        var routed: Result<Routing, IMWireError>
    }

    /// The error `body` throws, typed (the views' entry points throw `any Error`, for their closure's).
    static func typed<T>(_ body: () throws -> T) throws(IMWireError) -> T {
        do { return try body() } catch let error as IMWireError { throw error } catch { fatalError("not an IMWireError: \(error)") }
    }

    /// `input` read by the decoder, the message view and the routing view, from a heap block of its
    /// exact size.
    static func read(_ input: [UInt8]) -> Readings {
        withExactBytes(input) { bytes in
            Readings(
                decoded: Result { () throws(IMWireError) in try Message(serializedBytes: bytes) },
                viewed: Result { () throws(IMWireError) in try typed { try Message.withView(serializedBytes: bytes) { Message($0) } } },
                routed: Result { () throws(IMWireError) in try typed { try Message.withRoutingView(serializedBytes: bytes) { Routing($0) } } })
        }
    }

    /// A text elem's text; `nil` for another elem.
    static func text(of elem: Elem) -> String? {
        if case .text(let text)? = elem.content { return text.text }
        return nil
    }

    /// Whether two errors are the same: code, offset and reason.
    static func same(_ a: IMWireError, _ b: IMWireError) -> Bool {
        a == b && a.offset == b.offset && a.reason == b.reason
    }

    /// Checks that the three readers agree on `input` (`label` names it in failures); returns the
    /// decoder's result. `routingChecksAll: false` for an input whose only fault lies inside an
    /// elem's content, which the routing view does not read.
    @discardableResult
    static func expectAgreement(_ input: [UInt8], _ label: String, routingChecksAll: Bool = true) -> Result<Message, IMWireError> {
        let readings = read(input)
        switch (readings.decoded, readings.viewed) {
        case (.success(let decoded), .success(let viewed)):
            #expect(viewed == decoded, "\(label): the view reads another message")
            guard case .success(let routed) = readings.routed else {
                Issue.record("\(label): the routing view refuses what the decoder reads: \(readings.routed)")
                break
            }
            #expect(routed == Routing(expectedFor: decoded), "\(label): routing view")
        case (.failure(let error), .failure(let viewError)):
            #expect(same(viewError, error), "\(label): view \(viewError), decoder \(error)")
            #expect(error.offset.map { $0 >= 0 && $0 <= input.count } == true, "\(label): \(error)")
            switch readings.routed {
            case .failure(let routeError):
                #expect(same(routeError, error), "\(label): routing view \(routeError), decoder \(error)")
            case .success:
                #expect(!routingChecksAll, "\(label): the routing view accepts what the decoder refuses: \(error)")
            }
        default:
            Issue.record("\(label): decoder \(readings.decoded), view \(readings.viewed)")
        }
        return readings.decoded
    }

    // MARK: Tests

    /// The message has every kind of field it claims to, and reads back whole.
    @Test func theMessageHasEveryKindOfFieldAndReadsBack() throws {
        let message = Self.message
        #expect(message.containsUnknownFields && message.unknownFields.bytes == Self.unknownFields)
        #expect(message.elems.count > 8 && message.elems.first?.unknownFields.bytes == Self.unknownFields)
        #expect(message.elems.contains { (Self.text(of: $0)?.utf8.count ?? 0) > 64 })
        guard case .groupTips(let tips)? = message.elems[10].content, case .merger(let merger)? = message.elems[11].content else {
            Issue.record("elems out of place")
            return
        }
        #expect(tips.memberList[0].customInfo.count == 3 && tips.memberList[0].unknownFields.bytes == Self.unknownFields)
        #expect(merger.messages[0].unknownFields.bytes == Self.unknownFields)
        #expect(try Message(serializedBytes: Self.bytes) == message)
        #expect(Self.bytes.count > 1000, "\(Self.bytes.count) bytes")
        guard case .success(let decoded) = Self.expectAgreement(Self.bytes, "the whole message") else {
            Issue.record("the whole message does not decode")
            return
        }
        #expect(decoded == message)
    }

    /// Every prefix is read alike by the decoder, the message view and the routing view: refused
    /// with the same error, inside the prefix, or (cut at a field boundary) read as the same
    /// message. Most are refused, as text that ends too soon.
    @Test func everyPrefixIsReadAlikeByTheDecoderAndBothViews() {
        var codes: [String: Int] = [:]
        var accepted = 0
        for length in 0..<Self.bytes.count {
            let prefix = Array(Self.bytes[..<length])
            switch Self.expectAgreement(prefix, "prefix of \(length) bytes") {
            case .success: accepted += 1
            case .failure(let error): codes[error.code.name, default: 0] += 1
            }
        }
        #expect(Set(codes.keys) == ["truncated", "length_out_of_bounds", "malformed_group"], "\(codes)")
        // A prefix decodes only when cut between two top-level fields: one per field, at most.
        #expect(accepted > 0 && accepted * 10 < Self.bytes.count, "\(accepted) of \(Self.bytes.count) prefixes decode; refused: \(codes)")
        // Most end inside a length-delimited value or a varint; an unclosed group is the rest.
        #expect((codes["truncated", default: 0] + codes["length_out_of_bounds", default: 0]) * 10 > Self.bytes.count * 9, "\(codes)")
    }

    /// The message followed by one more string, bytes or sub-message field whose length prefix
    /// runs exactly to the end of the input (read by all three, the value ending at the input's last
    /// byte), or one byte past it (`length_out_of_bounds` at the length prefix, from all three).
    /// Strings of every length across the validator's 8-, 32- and 64-byte steps.
    @Test func aValueEndingAtTheEndOfTheInputIsReadAndOneBytePastItIsRefused() throws {
        let lengths = [0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 200]
        for length in lengths {
            // Multi-byte UTF-8, ending with the last byte of a 3-byte character when it can.
            let text = Array(String(repeating: "中", count: length / 3).utf8) + Array(repeating: UInt8(ascii: "a"), count: length % 3)
            let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 1) }
            let string = String(decoding: text, as: UTF8.self)

            // A string (the envelope's topic ID, which the routing view reads too).
            let topic = Self.lengthDelimited(Message.FieldNumber.topicID, text)
            if case .success(let message) = Self.expectAgreement(Self.bytes + topic, "topic of \(length) bytes at the end") {
                #expect(message.topicID == string)
            }
            let topicPast = Self.lengthDelimited(Message.FieldNumber.topicID, text, extra: 1)
            expectRefusal(topicPast, lengthAt: 2, "topic of \(length) bytes, length one past the end")

            // Bytes.
            let custom = Self.lengthDelimited(Message.FieldNumber.cloudCustomData, data)
            if case .success(let message) = Self.expectAgreement(Self.bytes + custom, "bytes of \(length) at the end") {
                #expect(message.cloudCustomData == data)
            }
            expectRefusal(Self.lengthDelimited(Message.FieldNumber.cloudCustomData, data, extra: 1), lengthAt: 1, "bytes of \(length), one past")

            // A sub-message three levels deep (an elem holding a text elem holding the text),
            // each level ending at the end of the input; then each level's length one too many.
            func elem(_ extras: (elem: Int, textElem: Int, text: Int)) -> (bytes: [UInt8], textElemLengthAt: Int, textLengthAt: Int) {
                let textField = Self.lengthDelimited(1, text, extra: extras.text)
                let textElem = Self.lengthDelimited(1, textField, extra: extras.textElem)
                let elem = Self.lengthDelimited(Message.FieldNumber.elems, textElem, extra: extras.elem)
                // Each inner field ends the one around it; its length prefix follows its 1-byte tag.
                let textElemAt = elem.count - textElem.count
                return (elem, textElemAt + 1, textElemAt + textElem.count - textField.count + 1)
            }
            if case .success(let message) = Self.expectAgreement(Self.bytes + elem((0, 0, 0)).bytes, "elem of \(length) bytes of text at the end") {
                #expect(message.elems.count == Self.message.elems.count + 1 && message.elems.last.flatMap(Self.text(of:)) == string)
            }
            let elemLengthAt = Self.tag(Message.FieldNumber.elems, 2).count
            expectRefusal(elem((1, 0, 0)).bytes, lengthAt: elemLengthAt, "elem of \(length), its length one past")
            let textElemPast = elem((0, 1, 0))
            expectRefusal(textElemPast.bytes, lengthAt: textElemPast.textElemLengthAt, "elem of \(length), its text elem's length one past")
            // The text's own length is inside the elem's content, which the routing view leaves unread.
            let textPast = elem((0, 0, 1))
            expectRefusal(textPast.bytes, lengthAt: textPast.textLengthAt, "elem of \(length), its text's length one past", routingChecksAll: false)

            // The offline push info (a sub-message the routing view skips whole), its title ending
            // at the end of the input.
            let push = Self.lengthDelimited(Message.FieldNumber.offlinePushInfo, Self.lengthDelimited(1, text))
            if case .success(let message) = Self.expectAgreement(Self.bytes + push, "push info of \(length) bytes of title at the end") {
                #expect(message.offlinePushInfo?.title == string && message.offlinePushInfo?.disablePush == true)
            }
            let pushPast = Self.lengthDelimited(Message.FieldNumber.offlinePushInfo, Self.lengthDelimited(1, text), extra: 1)
            expectRefusal(pushPast, lengthAt: 1, "push info of \(length), one past")
        }
    }

    /// The message followed by `field`, whose length prefix at `lengthAt` (in `field`) runs one byte
    /// past the end: `length_out_of_bounds` there, from all three readers (the routing view only
    /// when it reads that far: `routingChecksAll`).
    func expectRefusal(_ field: [UInt8], lengthAt: Int, _ label: String, routingChecksAll: Bool = true) {
        let input = Self.bytes + field
        guard case .failure(let error) = Self.expectAgreement(input, label, routingChecksAll: routingChecksAll) else {
            Issue.record("\(label): decodes")
            return
        }
        #expect(error.code == .lengthOutOfBounds && error.offset == Self.bytes.count + lengthAt, "\(label): \(error)")
    }
}
