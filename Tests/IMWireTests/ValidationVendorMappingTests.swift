import IMWire
import Testing

/// The vendor numbering functions: legacy TIM group tips (legacy group guide), V2TIM image-type bits and elem
/// types, ZIM message and conversation types (ZIM guide).
@Suite struct ValidationVendorMappingTests {
    // MARK: Legacy TIM group tips (INVITE 1 … MEMBER_INFO_CHANGE 7)

    @Test(arguments: [
        (1, GroupTipsType.invite), (2, .quit), (3, .kicked), (4, .setAdmin), (5, .cancelAdmin),
        (6, .groupInfoChange), (7, .memberInfoChange),
    ])
    func legacyGroupTipsNumbersMapBothWays(_ legacy: Int, _ type: GroupTipsType) {
        #expect(GroupTipsType(legacyTIMGroupTipsType: legacy) == type)
        #expect(type.legacyTIMGroupTipsType == legacy)
    }

    @Test func legacyGroupTipsNumbersWithoutAV2TIMTypeGiveNil() {
        for number in [0, 8, 9, 255, -1, Int.max] {
            #expect(GroupTipsType(legacyTIMGroupTipsType: number) == nil, "\(number)")
        }
    }

    @Test func v2timGroupTipsTypesWithoutALegacyNumberGiveNil() {
        for type in [GroupTipsType.unspecified, .topicInfoChange, .pinnedMessageAdded, .pinnedMessageDeleted, .unrecognized(40)] {
            #expect(type.legacyTIMGroupTipsType == nil, "\(type)")
        }
        // Legacy TIM reported joins as INVITE; the way back gives INVITE.
        #expect(GroupTipsType.join.legacyTIMGroupTipsType == 1)
        #expect(GroupTipsType(legacyTIMGroupTipsType: 1) == .invite)
    }

    // MARK: V2TIM image types (bit values ORIGIN 1, THUMB 2, LARGE 4)

    @Test func v2timImageTypeBitsMapBothWays() {
        #expect(ImageType(v2timImageType: 1) == .origin)
        #expect(ImageType(v2timImageType: 2) == .thumb)
        #expect(ImageType(v2timImageType: 4) == .large)
        for type in [ImageType.origin, .large, .thumb] {
            #expect(type.v2timImageType.flatMap(ImageType.init(v2timImageType:)) == type)
        }
        // Our THUMB is 3 and LARGE 2: the numbers differ from V2TIM's.
        #expect(ImageType.thumb.rawValue == 3 && ImageType.thumb.v2timImageType == 2)
        #expect(ImageType.large.rawValue == 2 && ImageType.large.v2timImageType == 4)
    }

    @Test func v2timImageTypeValuesOutsideTheThreeBitsGiveNil() {
        for value in [0, 3, 5, 6, 7, 8, -1] {
            #expect(ImageType(v2timImageType: value) == nil, "\(value)")
        }
        #expect(ImageType.unspecified.v2timImageType == nil)
        #expect(ImageType.unrecognized(9).v2timImageType == nil)
    }

    // MARK: V2TIM elem types

    @Test func elemKindsCarryTheirV2TIMElemTypeAndOneofName() {
        #expect(ElemKind.allCases.map(\.v2timElemType) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12])
        #expect(ElemKind.groupTips.rawValue == "group_tips" && ElemKind.groupSystem.rawValue == "group_system")
        for kind in ElemKind.allCases { #expect(ElemKind(v2timElemType: kind.v2timElemType) == kind) }
        #expect(ElemKind(v2timElemType: 0) == nil)
        #expect(ElemKind(v2timElemType: 11) == nil)  // V2TIM's stream elem, reserved here
        #expect(Elem.text("x").kind == .text)
        #expect(Elem().kind == nil)
    }

    // MARK: ZIM message types (Text 1, Command 2, Multiple 10, Image 11, File 12, Audio 13, Video 14, Barrage 20)

    @Test func zimMessageTypeNumbersAreZIMs() {
        #expect(ZIMMessageType.allCases.map(\.rawValue) == [1, 2, 10, 11, 12, 13, 14, 20])
        #expect(ZIMMessageType(rawValue: 3) == nil)
    }

    @Test func singleElemsMapToTheirZIMTypeAndATextInARoomIsText() {
        let cases: [(Elem, Message.Target?, ZIMMessageType?)] = [
            (.text("hi"), .receiver("b"), .text),
            (.text("hi"), .groupID("g"), .text),
            (.text("hi"), nil, .text),
            (.text("hi"), .roomID("r"), .text),
            (.custom(CustomElem(data: [1])), .roomID("r"), .command),
            (.image(ImageElem()), .receiver("b"), .image),
            (.file(FileElem()), .groupID("g"), .file),
            (.sound(SoundElem()), .receiver("b"), .audio),
            (.video(VideoElem()), .roomID("r"), .video),
            (.location(longitude: 1, latitude: 2), .receiver("b"), nil),
            (.face(FaceElem()), .receiver("b"), nil),
            (.groupTips(GroupTipsElem()), .groupID("g"), nil),
            (.merger(MergerElem()), .receiver("b"), nil),
            (.groupSystem(GroupSystemElem()), .groupID("g"), nil),
            (Elem(), .receiver("b"), nil),
        ]
        for (elem, target, expected) in cases {
            #expect(ZIMMessageType(elem: elem) == expected, "\(String(describing: elem.kind)) \(String(describing: target))")
            #expect(Message(target: target, elems: [elem]).zimMessageType == expected)
        }
    }

    @Test func aBarrageIsOneTextWithTheFlag() {
        #expect(ZIMMessageType(elem: .text("666"), barrage: true) == .barrage)
        #expect(ZIMMessageType(elem: .image(ImageElem()), barrage: true) == nil)
        #expect(Message(target: .roomID("r"), elems: [.text("666")], barrage: true).zimMessageType == .barrage)
        #expect(Message(target: .roomID("r"), elems: [.text("6"), .text("6")], barrage: true).zimMessageType == nil)
        #expect(Message(target: .roomID("r"), elems: [.image(ImageElem())], barrage: true).zimMessageType == nil)
        // A signal is no ZIM message type.
        #expect(Message(target: .groupID("g"), signal: .recallNotice(RecallNotice(msgID: "m"))).zimMessageType == nil)
    }

    @Test func chainsAreMultipleWhenEveryElemHasAZIMType() {
        #expect(Message(target: .roomID("r"), elems: [.text("a"), .image(ImageElem())]).zimMessageType == .multiple)
        #expect(Message(elems: [.custom(CustomElem()), .file(FileElem()), .sound(SoundElem()), .video(VideoElem())]).zimMessageType == .multiple)
        #expect(Message(elems: [.text("a"), .location(longitude: 0, latitude: 0)]).zimMessageType == nil)
        #expect(Message().zimMessageType == nil)
    }

    @Test func zimTypesMapBackToElemKinds() {
        let expected: [ZIMMessageType: ElemKind?] = [
            .text: .text, .barrage: .text, .command: .custom, .image: .image, .file: .file, .audio: .sound,
            .video: .video, .multiple: nil,
        ]
        for type in ZIMMessageType.allCases { #expect(type.elemKind == expected[type], "\(type)") }
        #expect(ZIMMessageType.barrage.requiredConversationType == .room)
        #expect(ZIMMessageType.text.requiredConversationType == nil)
    }

    // MARK: ZIM conversation types (Peer 0, Room 1, Group 2)

    @Test func zimConversationTypesMapToTargetsAndBack() {
        #expect(ZIMConversationType.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(ZIMConversationType(rawValue: 3) == nil)
        #expect(ZIMConversationType.peer.target(conversationID: "bob") == .receiver("bob"))
        #expect(ZIMConversationType.room.target(conversationID: "r1") == .roomID("r1"))
        #expect(ZIMConversationType.group.target(conversationID: "g1") == .groupID("g1"))
        for type in ZIMConversationType.allCases {
            let target = type.target(conversationID: "id-\(type.rawValue)")
            #expect(target.zimConversationType == type)
            #expect(target.zimConversationID == "id-\(type.rawValue)")
        }
    }
}

/// ZIM priorities, legacy TIM platforms and `silentUntil`.
@Suite struct LegacyAndZIMMappingTests {
    /// `.unrecognized(n)` with a named number is the same value as the named case (the generated
    /// enums' `==`), so it maps as that case does, as tim-rest's priority names do.
    @Test func anUnrecognizedSpellingOfANamedPriorityMapsAsTheNamedOne() {
        #expect(Priority.unrecognized(1) == .high)
        #expect(ZIMMessagePriority(.unrecognized(1)) == .high)
        #expect(ZIMMessagePriority(.unrecognized(2)) == .medium)
        #expect(ZIMMessagePriority(.unrecognized(3)) == .low)
        #expect(ZIMMessagePriority(.unrecognized(0)) == nil)
    }

    @Test func zimPrioritiesRunTheOtherWay() {
        #expect(ZIMMessagePriority.allCases.map(\.rawValue) == [1, 2, 3])
        // ZIM's raw 1 (the guide's `sendConfig.priority = 1`) is Low; IMWire's 1 is HIGH.
        #expect(ZIMMessagePriority(rawValue: 1)?.priority == .low)
        #expect(Priority(rawValue: 1).zimMessagePriority == .high)
        #expect(ZIMMessagePriority.medium.priority == .normal)
        for zim in ZIMMessagePriority.allCases { #expect(ZIMMessagePriority(zim.priority) == zim) }
        #expect(ZIMMessagePriority(.default) == nil)
        #expect(ZIMMessagePriority(.lowest) == nil)
        #expect(ZIMMessagePriority(.unrecognized(7)) == nil)
    }

    @Test func timPlatformsAreTheLegacyValues() {
        #expect(TIMPlatform.allCases.map(\.rawValue) == ["iOS", "Android", "Windows", "Mac", "Web", "RESTful API", "Unknown"])
        var tips = GroupTipsElem(platform: "RESTful API")
        #expect(tips.timPlatform == .restAPI)
        tips.timPlatform = .android
        #expect(tips.platform == "Android")
        tips.timPlatform = nil
        #expect(tips.platform.isEmpty)
        #expect(GroupSystemElem(platform: "Linux").timPlatform == nil)
    }

    @Test func silentUntilIsSecondsRemainingAndMuteUntilAUnixTime() {
        #expect(GroupMemberInfo.muteUntil(legacySilentUntil: 120, readAt: 1_700_000_000) == 1_700_000_120)
        #expect(GroupMemberInfo.muteUntil(legacySilentUntil: 0, readAt: 1_700_000_000) == 0)
        #expect(GroupMemberInfo.muteUntil(legacySilentUntil: .max, readAt: .max - 1) == .max)
        let member = GroupMemberInfo(userID: "u", muteUntil: 1_700_000_120)
        #expect(member.legacySilentUntil(at: 1_700_000_000) == 120)
        #expect(member.legacySilentUntil(at: 1_700_000_120) == 0)
        #expect(member.legacySilentUntil(at: 1_800_000_000) == 0)
        #expect(GroupMemberInfo(muteUntil: .max).legacySilentUntil(at: 0) == .max)
    }
}
