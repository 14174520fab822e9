import IMWire
import IMWireTestSupport
import Testing

/// The vendor rules of the vendor-coverage work, with their paths and values: what Tencent's server
/// accepts against what its SDK builds, text-only @ messages, AVChatRoom as a group, legacy TIM
/// platforms and profiles, ZIM's elem kinds, barrages and priorities, and @all in either spelling.
@Suite struct VendorRuleTests {
    static func rows(_ message: Message, _ profile: ValidationProfile) -> [String] {
        message.validate(profile: profile).map { "\($0.code.name) \($0.path) \($0.limit) \($0.actual)" }
    }

    static let image = Elem.image(ImageElem(format: .jpg, images: [Image(type: .origin, size: 2048)]))

    // MARK: Tencent: server and SDK

    @Test func theCallbackBodyTencentDeliveredPassesTheServerProfile() throws {
        let callback = try #require(Fixtures.cases(kind: "tim_rest").first { $0.name == "tim_rest_group_callback_after_send_msg_text_and_image" })
        let message = try Message(timRESTUTF8Bytes: callback.bytes("input"))
        #expect(message.elems.map(\.kind) == [.text, .image])
        #expect(message.validate(profile: .tencent).isEmpty)
        #expect(Self.rows(message, .tencentSDK) == ["elem_not_appendable elems[1].image text|custom|location|face image"])
    }

    @Test func onlyTextAtMessagesAreTheSDKsRule() {
        var message = Message(sender: "alice", target: .groupID("g"), elems: [Self.image])
        message.atUserList = ["bob"]
        #expect(message.validate(profile: .tencent).isEmpty)
        #expect(Self.rows(message, .tencentSDK) == ["at_users_require_text at_user_list text image"])
        message.elems = [.text("@bob"), Self.image]
        #expect(Self.rows(message, .tencentSDK) == ["elem_not_appendable elems[1].image text|custom|location|face image"])
        // SDK 7.0's createAtSignedGroupMessage marks any message: switch the rule off.
        var sdk7 = ValidationProfile.tencentSDK
        sdk7.atUsersRequireText = false
        message.elems = [Self.image]
        #expect(message.validate(profile: sdk7).isEmpty)
    }

    // MARK: AVChatRoom is a group

    @Test func aRoomTargetIsNotTencents() throws {
        let room = Message(sender: "alice", target: .roomID("r1"), elems: [.text("666")])
        #expect(Self.rows(room, .tencent) == ["target_not_supported room_id receiver|group_id room_id"])
        #expect(room.validate(profile: .zim).isEmpty)
        let avChatRoom = Message(sender: "alice", target: .groupID("@TGS#aAVCHATROOM"), elems: [.text("666")])
        #expect(avChatRoom.validate(profile: .tencent).isEmpty)
        #expect(throws: IMWireError.matching(.notRepresentable)) { try room.timRESTUTF8Bytes() }
        #expect(try avChatRoom.timRESTString().hasPrefix(#"{"GroupId":"@TGS#aAVCHATROOM""#))
    }

    // MARK: Legacy TIM group tips and group system

    @Test func platformsAreLegacyTIMsValuesExactly() {
        func tips(_ platform: String) -> Message {
            Message(target: .groupID("g"), elems: [.groupTips(GroupTipsElem(type: .invite, platform: platform))])
        }
        for platform in TIMPlatform.allCases { #expect(tips(platform.rawValue).validate(profile: .tencent).isEmpty) }
        #expect(tips("").validate(profile: .tencent).isEmpty)
        #expect(Self.rows(tips("ios"), .tencent)
            == ["platform_not_recognized elems[0].group_tips.platform iOS|Android|Windows|Mac|Web|RESTful API|Unknown ios"])
        #expect(tips("ios").validate(profile: .none).isEmpty)
        let system = Message(target: .groupID("g"), elems: [.groupSystem(GroupSystemElem(type: .quitGroup, platform: "Linux"))])
        #expect(system.validate(profile: .tencent).map(\.path) == ["elems[0].group_system.platform"])
    }

    @Test func legacyProfilesHoldUserIDs() {
        let long = String(repeating: "x", count: 33)
        let tips = GroupTipsElem(
            type: .memberInfoChange, opUserInfo: UserProfile(userID: long),
            changedUserInfoList: [UserProfile(userID: "ok"), UserProfile(userID: long)],
            changedGroupMemberInfoList: [GroupMemberInfo(userID: long)])
        let message = Message(target: .groupID("g"), elems: [.groupTips(tips)])
        #expect(message.validate(profile: .tencent).map(\.path) == [
            "elems[0].group_tips.op_user_info.user_id",
            "elems[0].group_tips.changed_user_info_list[1].user_id",
            "elems[0].group_tips.changed_group_member_info_list[0].user_id",
        ])
    }

    // MARK: ZIM

    @Test func zimReportsEveryKindItHasNoTypeFor() {
        let elems: [Elem] = [
            .text("t"), .location(longitude: 1, latitude: 2), .face(FaceElem(index: 1)), Elem(),
        ]
        let message = Message(sender: "alice", target: .receiver("bob"), elems: elems)
        #expect(Self.rows(message, .zim) == [
            "elem_kind_not_supported elems[1].location text|custom|image|sound|video|file location",
            "elem_kind_not_supported elems[2].face text|custom|image|sound|video|file face",
            "elem_kind_not_supported elems[3] text|custom|image|sound|video|file none",
        ])
        for kind in [Elem.groupTips(GroupTipsElem()), .groupSystem(GroupSystemElem()), .merger(MergerElem(messages: [Message(sender: "a", target: .receiver("b"), elems: [.text("x")])]))] {
            #expect(Message(sender: "a", target: .groupID("g"), elems: [kind]).validate(profile: .zim).map(\.code) == [.elemKindNotSupported])
        }
    }

    @Test func aBarrageIsOneTextToARoom() {
        let good = Message(sender: "alice", target: .roomID("r"), elems: [.text("666")], barrage: true)
        #expect(good.validate(profile: .zim).isEmpty)
        let bad = Message(sender: "alice", target: .groupID("g"), elems: [.text("6"), Self.image], barrage: true)
        #expect(Self.rows(bad, .zim) == [
            "barrage_requires_room barrage room_id group_id",
            "barrage_requires_text barrage text text|image",
        ])
        #expect(Self.rows(Message(target: .roomID("r"), barrage: true), .zim) == [
            "elem_chain_empty elems 1 0",
            "barrage_requires_text barrage text none",
        ])
        // The flag means nothing to Tencent's profiles (tim-rest refuses it instead).
        #expect(bad.validate(profile: .tencent).map(\.code) == [])
    }

    @Test func zimPrioritiesAreLowMediumHighAndTheDefault() {
        func message(_ priority: Priority) -> Message { Message(sender: "a", target: .receiver("b"), priority: priority, elems: [.text("x")]) }
        for priority in [Priority.default, .high, .normal, .low] { #expect(message(priority).validate(profile: .zim).isEmpty) }
        #expect(Self.rows(message(.lowest), .zim) == ["priority_not_supported priority DEFAULT|HIGH|NORMAL|LOW LOWEST"])
        #expect(Self.rows(message(.unrecognized(9)), .zim) == ["priority_not_supported priority DEFAULT|HIGH|NORMAL|LOW 9"])
        #expect(message(.lowest).validate(profile: .tencent).isEmpty)
    }

    // MARK: @all, either spelling

    @Test func eitherSpellingOfAtAllIsAtAllAndIsKeptAsWritten() throws {
        let message = Message(sender: "a", target: .groupID("g"), elems: [.text("@all")],
                              atUserList: [Message.atAllUserIDAlternateSpelling, "bob"])
        #expect(message.mentionsAll)
        #expect(message.mentionedUserIDs == ["bob"])
        #expect(Message.isAtAllUserID(Message.atAllUserID) && Message.isAtAllUserID(Message.atAllUserIDAlternateSpelling))
        #expect(!Message.isAtAllUserID("__kImSDK_MESSAGEATALL__"))
        #expect(!Message(atUserList: ["bob"]).mentionsAll)
        // Binary and JSON keep the spelling; tim-rest has a flag for @all.
        #expect(try Message(serializedBytes: message.serializedBytes()).atUserList == message.atUserList)
        #expect(try Message(jsonString: message.jsonString()).atUserList == message.atUserList)
        #expect(try message.timRESTString().contains(#""GroupAtInfo":[{"GroupAtAllFlag":1},{"GroupAtAllFlag":0,"GroupAt_Account":"bob"}]"#))
    }

    @Test func atAllIsNoUserIDInEitherSpelling() {
        var profile = ValidationProfile(name: "short-ids")
        profile.maxUserIDBytes = 8
        let message = Message(target: .groupID("g"), elems: [.text("@")],
                              atUserList: [Message.atAllUserID, Message.atAllUserIDAlternateSpelling, "a_long_user"])
        #expect(Self.rows(message, profile) == ["user_id_too_long at_user_list[2] 8 11"])
    }
}
