import IMWire
import Testing

/// `Message.validate(profile:)`: presets, paths, limit and actual values, the order of the result,
/// customised profiles and the edge semantics documented in the ValidationProfiles article (IMWire.docc).
@Suite struct ValidationTests {
    static let kilobyte = 1024
    static let megabyte = 1024 * 1024

    static func text(_ string: String, receiver: String = "bob") -> Message {
        Message(sender: "alice", target: .receiver(receiver), elems: [.text(string)])
    }

    static func codes(_ message: Message, _ profile: ValidationProfile) -> [String] {
        message.validate(profile: profile).map(\.code.name)
    }

    // MARK: Presets

    @Test func tencentPresetHasTheServersLimits() {
        let p = ValidationProfile.tencent
        #expect(p.name == "tencent")
        #expect(p.requiresElems)
        #expect(p.maxContentBytes == 12 * 1024)
        #expect(p.appendableElemKinds == nil && !p.atUsersRequireText)  // the SDK's rules: tencent-sdk
        #expect(p.standaloneElemKinds == [.groupTips, .groupSystem, .merger])
        #expect(p.forbidsRoomTarget && p.forbidsSignalsInMerger)
        #expect(p.signalsStandAlone && p.signalsRequireMsgID && p.receiptsRequireMatchingTarget)
        #expect(p.allowedPlatforms == ["iOS", "Android", "Windows", "Mac", "Web", "RESTful API", "Unknown"])
        #expect(!p.requiresTUIKitCustomData && p.supportedElemKinds == nil && p.allowedPriorities == nil)
        #expect(p.maxCustomElems == 1)
        #expect(p.maxMergerMessages == 300 && p.maxMergerAbstracts == 5 && p.maxMergerAbstractLength == 100)
        #expect(p.maxMergerLayers == 100)
        #expect(p.elemKindsNotAllowedInMerger == [.groupTips, .groupSystem])
        #expect(p.mentionsRequireGroup && p.forbidsAtUsersWithTargetedReceivers)
        #expect(p.maxAtUsers == 30 && p.maxTargetedReceivers == 50)
        #expect(p.maxImageBytes == 28 * Self.megabyte && p.maxSoundBytes == 28 * Self.megabyte)
        #expect(p.maxVideoBytes == 100 * Self.megabyte && p.maxFileBytes == 100 * Self.megabyte)
        #expect(p.maxUserIDBytes == 32)
        #expect(p.maxGroupNameBytes == 30 && p.maxGroupIntroductionBytes == 120)
        #expect(p.maxGroupNotificationBytes == 150 && p.maxGroupFaceURLBytes == 100)
        #expect(p.maxTextBytes == nil && p.maxBarrageBytes == nil && p.allowedImageFormats == nil && p.maxElems == nil)
    }

    @Test func tencentSDKPresetIsTheServerPlusTheSDKsRules() {
        var expected = ValidationProfile.tencent
        expected.name = "tencent-sdk"
        expected.appendableElemKinds = [.text, .custom, .face, .location]
        expected.atUsersRequireText = true
        #expect(ValidationProfile.tencentSDK == expected)
    }

    @Test func tuikitPresetIsTheSDKPlusThePayloadRule() {
        var expected = ValidationProfile.tencentSDK
        expected.name = "tuikit"
        expected.requiresTUIKitCustomData = true
        #expect(ValidationProfile.tuikit == expected)
    }

    @Test func zimPresetHasTheSpecLimits() {
        let p = ValidationProfile.zim
        #expect(p.name == "zim")
        #expect(p.requiresElems)
        #expect(p.maxTextBytes == 32 * 1024 && p.maxBarrageBytes == 5 * 1024 && p.maxCustomDataBytes == 5 * 1024)
        #expect(p.maxImageBytes == 10 * Self.megabyte && p.maxFileBytes == 100 * Self.megabyte)
        #expect(p.maxSoundBytes == 6 * Self.megabyte && p.maxSoundSeconds == 300 && p.maxVideoBytes == 100 * Self.megabyte)
        #expect(p.allowedImageFormats == [.jpg, .png, .bmp, .tiff, .gif, .webp])
        #expect(p.allowedSoundFormats == ["mp3", "m4a"] && p.allowedVideoFormats == ["mp4", "mov"])
        #expect(p.maxElems == 20 && p.maxImageElems == 10)
        #expect(p.maxFileElems == 1 && p.maxSoundElems == 1 && p.maxVideoElems == 1 && p.maxCustomElems == 1)
        #expect(p.maxUserIDBytes == 32)
        #expect(p.supportedElemKinds == [.text, .custom, .image, .sound, .video, .file])
        #expect(p.barrageRequiresRoomText)
        #expect(p.allowedPriorities == [.default, .high, .normal, .low])
        #expect(p.signalsStandAlone && p.signalsRequireMsgID && p.receiptsRequireMatchingTarget && !p.forbidsSignalsInMerger)
        #expect(p.maxContentBytes == nil && p.appendableElemKinds == nil && !p.mentionsRequireGroup && p.maxMergerLayers == nil)
        #expect(!p.forbidsRoomTarget && p.allowedPlatforms == nil)
    }

    @Test func presetsAreFoundByName() {
        #expect(ValidationProfile(preset: "tencent") == .tencent)
        #expect(ValidationProfile(preset: "tencent-sdk") == .tencentSDK)
        #expect(ValidationProfile(preset: "tuikit") == .tuikit)
        #expect(ValidationProfile(preset: "zim") == .zim)
        #expect(ValidationProfile.presets.map(\.name) == ["none", "tencent", "tencent-sdk", "tuikit", "zim"])
        #expect(ValidationProfile(preset: "none") == ValidationProfile.none)
        #expect(ValidationProfile(preset: "Tencent") == nil)
        #expect(ValidationProfile(preset: "") == nil)
    }

    // MARK: Customised profiles

    @Test func aZIMAppCanLowerTheTextLimitToTwoKilobytes() {
        var profile = ValidationProfile.zim
        profile.maxTextBytes = 2048
        #expect(Self.codes(Self.text(String(repeating: "a", count: 2048)), profile) == [])
        let over = Self.text(String(repeating: "a", count: 2049)).validate(profile: profile)
        #expect(over.map(\.code) == [.textTooLarge])
        #expect(over.first?.limit == .integer(2048))
        #expect(over.first?.actual == .integer(2049))
        // The preset itself is unchanged.
        #expect(Self.codes(Self.text(String(repeating: "a", count: 2049)), .zim) == [])
    }

    @Test func aTencentAccountCanUseTheOldEightKilobyteContentLimit() {
        var profile = ValidationProfile.tencent
        profile.maxContentBytes = 8 * 1024
        #expect(Self.codes(Self.text(String(repeating: "字", count: 2730) + "ab"), profile) == [])  // 8192 bytes
        #expect(Self.codes(Self.text(String(repeating: "字", count: 2731)), profile) == ["content_too_large"])  // 8193
        #expect(Self.codes(Self.text(String(repeating: "字", count: 2731)), .tencent) == [])
    }

    @Test func aProfileBuiltFromScratchChecksOnlyWhatItSets() {
        var profile = ValidationProfile(name: "custom")
        profile.maxAtUsers = 2
        var message = Self.text("hi")
        message.atUserList = ["a", "b", "c"]
        message.sender = String(repeating: "s", count: 100)
        let violations = message.validate(profile: profile)
        #expect(violations.map(\.code) == [.tooManyAtUsers])
        #expect(violations.first?.reason.contains("custom allows at most 2") == true)
    }

    @Test func aNegativeLimitAllowsNothingAboveZero() {
        var profile = ValidationProfile.none
        profile.maxCustomDataBytes = -5
        let empty = Message(elems: [.custom(CustomElem())])
        let one = Message(elems: [.custom(CustomElem(data: [1]))])
        #expect(Self.codes(empty, profile) == [])
        #expect(one.validate(profile: profile).first?.limit == .integer(0))
    }

    // MARK: Paths, limits and actual values

    @Test func pathNamesEveryOneofMemberDownANestedMerger() {
        var inner = (0..<13).map { Message(sender: "u\($0)", target: .receiver("bob"), elems: [.text("m\($0)")]) }
        inner[12].elems = [.text(String(repeating: "a", count: 32 * 1024 + 1))]
        let message = Message(sender: "alice", target: .receiver("bob"), elems: [.merger(MergerElem(title: "t", messages: inner))])
        var zimWithMergers = ValidationProfile.zim  // zim itself has no merger
        zimWithMergers.supportedElemKinds = nil
        let violations = message.validate(profile: zimWithMergers)
        #expect(violations.count == 1)
        #expect(violations.first?.path == "elems[0].merger.messages[12].elems[0].text.text")
        #expect(violations.first?.code == .textTooLarge)
        #expect(violations.first?.limit == .integer(32768))
        #expect(violations.first?.actual == .integer(32769))
    }

    @Test func violationsComeInDocumentOrderWithTheirValues() {
        var message = Message(
            sender: String(repeating: "s", count: 33), target: .receiver("bob"),
            elems: [
                .text("hi"),
                .image(ImageElem(format: .jpg, images: [
                    Image(type: .origin, size: UInt64(28 * Self.megabyte + 1)), Image(type: .origin, size: 1),
                ])),
                .location(longitude: 200, latitude: .nan),
                .merger(MergerElem(messages: [Message(elems: [.groupTips(GroupTipsElem())])])),
            ])
        message.atUserList = ["x"]
        let violations = message.validate(profile: .tencentSDK)
        let rows = violations.map { "\($0.code.name) \($0.path) \($0.limit) \($0.actual)" }
        #expect(rows == [
            "user_id_too_long sender 32 33",
            "elem_not_appendable elems[1].image text|custom|location|face image",
            "image_too_large elems[1].image.images[0].size 29360128 29360129",
            "duplicate_image_type elems[1].image.images[1].type 1 2",
            "longitude_out_of_range elems[2].location.longitude [-180,180] 200.0",
            "latitude_out_of_range elems[2].location.latitude [-90,90] nan",
            "elem_not_standalone elems[3].merger 1 4",
            "elem_not_allowed_in_merger elems[3].merger.messages[0].elems[0].group_tips text|custom|image|sound|video|file|location|face|merger group_tips",
            "at_users_require_group at_user_list group_id receiver",
        ])
    }

    @Test func validatingTwiceGivesTheSameListAndLeavesTheMessageAlone() {
        let message = Message(elems: [.location(longitude: 181, latitude: 91), .text("x")])
        let copy = message
        let first = message.validate(profile: .tencent)
        #expect(first == message.validate(profile: .tencent))
        #expect(first.count == 2)
        #expect(message == copy)
    }

    @Test func violationDescriptionNamesCodePathReasonLimitAndActual() {
        let violation = Self.text(String(repeating: "a", count: 32 * 1024 + 1)).validate(profile: .zim)[0]
        #expect(violation.description == "text_too_large at elems[0].text.text: the text is 32769 bytes; zim allows at most 32768 (limit 32768, actual 32769)")
    }

    @Test func realValuesCompareByBitPatternSoNaNViolationsAreEqual() {
        let message = Message(elems: [.location(longitude: 0, latitude: .nan)])
        let a = message.validate(profile: .none)
        #expect(a.count == 1)
        #expect(a == message.validate(profile: .none))
        #expect(Violation.Value.real(0.0) != Violation.Value.real(-0.0))
        #expect(Set([Violation.Value.real(.nan), .real(.nan)]).count == 1)
    }

    // MARK: Codes

    @Test func codeNamesAreUniqueSnakeCaseAndRoundTrip() {
        let names = Violation.Code.all.map(\.name)
        #expect(names.count == 53)
        #expect(Set(names).count == names.count)
        for code in Violation.Code.all {
            #expect(code.name.allSatisfy { $0 == "_" || ("a"..."z").contains($0) }, "\(code.name)")
            #expect(Violation.Code(name: code.name) == code)
            #expect(code.description == code.name)
        }
        #expect(Violation.Code(name: "CONTENT_TOO_LARGE") == nil)
        #expect(Violation.Code(name: "truncated") == nil)
    }

    // MARK: Content size (Tencent's definition)

    @Test func contentCountsEveryStringAndBytesFieldOfEveryElemButNotTheEnvelope() {
        var inner = Message(msgID: "inner-id", sender: "inner-sender", target: .groupID("g"), elems: [.text("abc")])
        inner.cloudCustomData = Array(repeating: 1, count: 50)
        inner.atUserList = ["someone"]
        var member = GroupMemberInfo(userID: "u1", nickName: "Nick")  // 2 + 4
        member.customInfo["key"] = [1, 2, 3]  // 3 + 3
        var message = Message(
            msgID: "outer", sender: "alice", target: .groupID("group"),
            elems: [
                .text("字😀"),  // 3 + 4
                .custom(CustomElem(data: [0, 0], desc: "d", ext: "ee", sound: "s")),  // 2 + 1 + 2 + 1
                .face(FaceElem(index: 9, data: [7])),  // 1
                .location(LocationElem(desc: "é", longitude: 1, latitude: 2)),  // 2
                .image(ImageElem(format: .png, images: [Image(type: .origin, uuid: "id", size: 99, url: "u")])),  // 2 + 1
                .sound(SoundElem(uuid: "s", url: "", dataSize: 5, duration: 3, format: "mp3")),  // 1 + 3
                .video(VideoElem(videoUUID: "v", videoFormat: "mp4", snapshotURL: "x")),  // 1 + 3 + 1
                .file(FileElem(fileName: "f.txt", fileSize: 100)),  // 5
                .groupTips(GroupTipsElem(groupID: "g", opMember: member, groupChangeList: [
                    GroupChangeInfo(type: .custom, value: "vv", key: "k"),  // 2 + 1
                ], groupName: "n", platform: "iOS")),  // 1 + 12 + 3 + 1 + 3
                .merger(MergerElem(title: "T", abstractList: ["a", "bb"], compatibleText: "c", messages: [inner])),  // 1 + 3 + 1 + 3
                .groupSystem(GroupSystemElem(groupID: "gs", opUser: "op", reason: "r", authKey: [1], userData: [2, 3])),  // 2 + 2 + 1 + 1 + 2
            ])
        message.cloudCustomData = Array(repeating: 0, count: 1000)
        message.atUserList = ["bob"]
        message.offlinePushInfo = OfflinePushInfo(title: "title", desc: "desc")
        let expected = 7 + 6 + 1 + 2 + 3 + 4 + 5 + 5 + 20 + 8 + 8
        #expect(message.contentByteCount == expected)
    }

    @Test func contentIsCheckedOnceForTheRootIncludingMergedMessages() {
        let half = Message(elems: [.text(String(repeating: "a", count: 6 * 1024))])
        let merger = MergerElem(title: "x", messages: [half, half])  // 12288 + 1
        let message = Message(sender: "alice", target: .receiver("bob"), elems: [.merger(merger)])
        let violations = message.validate(profile: .tencent)
        #expect(violations.map(\.code) == [.contentTooLarge])
        #expect(violations.first?.path == "elems")
        #expect(violations.first?.actual == .integer(12289))
    }

    // MARK: Edge semantics

    @Test func atAllCountsTowardTheThirtyEntries() {
        var message = Message(sender: "alice", target: .groupID("g"), elems: [.text("@")])
        message.atUserList = [Message.atAllUserID] + (0..<29).map { "u\($0)" }
        #expect(Self.codes(message, .tencent) == [])
        message.atUserList.append(Message.atAllUserIDAlternateSpelling)
        #expect(Self.codes(message, .tencent) == ["too_many_at_users"])
    }

    @Test func abstractsAreCountedInUTF16CodeUnits() {
        func merger(_ abstract: String) -> Message {
            Message(elems: [.merger(MergerElem(abstractList: [abstract], messages: [Message(elems: [.text("x")])]))])
        }
        #expect(Self.codes(merger(String(repeating: "😀", count: 50)), .tencent) == [])  // 100 units, 200 bytes
        #expect(Self.codes(merger(String(repeating: "字", count: 100)), .tencent) == [])  // 100 units, 300 bytes
        let over = merger(String(repeating: "😀", count: 50) + "a").validate(profile: .tencent)
        #expect(over.map(\.code) == [.mergerAbstractTooLong])
        #expect(over.first?.actual == .integer(101))
        #expect(over.first?.path == "elems[0].merger.abstract_list[0]")
    }

    @Test func aBarrageIsHeldToTheBarrageLimitAloneAndARoomTextToTheTextLimit() {
        let big = String(repeating: "a", count: 32 * 1024 + 1)
        let barrage = Message(sender: "alice", target: .roomID("r"), elems: [.text(big)], barrage: true)
        #expect(Self.codes(barrage, .zim) == ["barrage_too_large"])
        let room = Message(sender: "alice", target: .roomID("r"), elems: [.text(big)])
        #expect(Self.codes(room, .zim) == ["text_too_large"])
        let group = Message(sender: "alice", target: .groupID("g"), elems: [.text(big)])
        #expect(Self.codes(group, .zim) == ["text_too_large"])
        let smallBarrage = Message(sender: "alice", target: .roomID("r"), elems: [.text(String(repeating: "a", count: 5 * 1024))], barrage: true)
        #expect(Self.codes(smallBarrage, .zim) == [])
    }

    @Test func mergerNestingIsReportedOnceAtTheTopLevelMerger() {
        func nested(_ layers: Int) -> Message {
            var message = Message(elems: [.text("x")])
            for _ in 0..<layers { message = Message(elems: [.merger(MergerElem(messages: [message]))]) }
            return message
        }
        var profile = ValidationProfile.none
        profile.maxMergerLayers = 3
        #expect(Self.codes(nested(3), profile) == [])
        let violations = nested(5).validate(profile: profile)
        #expect(violations.map(\.code) == [.mergerNestingTooDeep])
        #expect(violations.first?.path == "elems[0].merger")
        #expect(violations.first?.actual == .integer(5))
        // The nesting violation comes before the violations inside that merger.
        var withInner = nested(4)
        withInner.elems.append(.location(longitude: 0, latitude: 100))
        if case .merger(var merger)? = withInner.elems[0].content {
            merger.abstractList = ["a", "b"]
            withInner.elems[0] = .merger(merger)
        }
        profile.maxMergerAbstracts = 1
        #expect(Self.codes(withInner, profile) == ["merger_nesting_too_deep", "too_many_merger_abstracts", "latitude_out_of_range"])
    }

    @Test func aStandaloneElemInAChainIsReportedOnlyAsNotStandalone() {
        let message = Message(elems: [.text("a"), .groupSystem(GroupSystemElem()), .image(ImageElem(format: .jpg))])
        let violations = message.validate(profile: .tencentSDK)
        #expect(violations.map(\.code) == [.elemNotStandalone, .elemNotAppendable])
        #expect(violations.map(\.path) == ["elems[1].group_system", "elems[2].image"])
        #expect(violations.first?.actual == .integer(3))
    }

    @Test func userIDsIncludeMembersOwnersAndOperatorsButNotGroupIDs() {
        let long = String(repeating: "x", count: 33)
        let tips = GroupTipsElem(
            groupID: long, opMember: GroupMemberInfo(userID: long), memberList: [GroupMemberInfo(userID: "ok"), GroupMemberInfo(userID: long)],
            groupChangeList: [GroupChangeInfo(type: .owner, value: long), GroupChangeInfo(type: .custom, value: long)],
            memberChangeList: [MemberChangeInfo(userID: long)])
        let message = Message(target: .groupID(long), elems: [.groupTips(tips)])
        let paths = message.validate(profile: .zim).filter { $0.code == .userIDTooLong }.map(\.path)
        #expect(paths == [
            "elems[0].group_tips.op_member.user_id",
            "elems[0].group_tips.member_list[1].user_id",
            "elems[0].group_tips.group_change_list[0].value",
            "elems[0].group_tips.member_change_list[0].user_id",
        ])
    }

    @Test func formatsCompareIgnoringASCIICaseOnly() {
        func sound(_ format: String) -> Message {
            Message(elems: [.sound(SoundElem(dataSize: 1, duration: 1, format: format))])
        }
        #expect(Self.codes(sound("MP3"), .zim) == [])
        #expect(Self.codes(sound("Mp3"), .zim) == [])
        #expect(Self.codes(sound("mp3 "), .zim) == ["sound_format_not_allowed"])
        #expect(Self.codes(sound(".mp3"), .zim) == ["sound_format_not_allowed"])
        #expect(Self.codes(sound("ｍｐ３"), .zim) == ["sound_format_not_allowed"])  // full-width letters are not ASCII
    }

    @Test func noneChecksOnlyTheAlwaysOnRules() {
        var message = Message(sender: String(repeating: "s", count: 99), target: .receiver("b"), elems: [
            .text(String(repeating: "a", count: 40 * 1024)), .image(ImageElem(format: .other, images: [Image(), Image()])),
            .custom(CustomElem()), .custom(CustomElem()), .location(longitude: -181, latitude: 0),
        ])
        message.atUserList = (0..<40).map { "u\($0)" }
        #expect(Self.codes(message, .none) == ["duplicate_image_type", "longitude_out_of_range"])
        #expect(Self.codes(Message(), .none) == [])
    }
}
