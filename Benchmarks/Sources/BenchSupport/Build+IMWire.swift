// Values built in code, as a sender builds them: every message of a corpus made again through the
// public initialisers, with strings and bytes copied into new storage, so that the encode of built
// values (`binary-encode-built`, `json-encode-built`) and the read of built values (`built-read`)
// run on values no decoder made. Build+SwiftProtobuf.swift does the same with swift-protobuf's setters.

import IMWire

public enum IMWireBuild {
    /// A new string with the same UTF-8 (its own storage when it is longer than 15 bytes).
    @inline(never) static func s(_ value: String) -> String { String(decoding: Array(value.utf8), as: UTF8.self) }
    @inline(never) static func b(_ value: [UInt8]) -> [UInt8] { Array(value) }

    static func map(_ map: StringBytesMap) -> StringBytesMap {
        var built = StringBytesMap()
        for entry in map { built[s(entry.key)] = b(entry.value) }
        return built
    }

    public static func message(_ m: Message) -> Message {
        let target: Message.Target? = switch m.target {
        case .receiver(let id)?: .receiver(s(id))
        case .groupID(let id)?: .groupID(s(id))
        case .roomID(let id)?: .roomID(s(id))
        case nil: nil
        }
        let signal: Message.Signal? = switch m.signal {
        case .recallNotice(let n)?: .recallNotice(RecallNotice(msgID: s(n.msgID), recalledBy: s(n.recalledBy), reason: s(n.reason)))
        case .groupReadReceipt(let r)?: .groupReadReceipt(GroupReadReceipt(msgID: s(r.msgID), readCount: r.readCount, unreadCount: r.unreadCount))
        case .c2cReadReceipt(let r)?: .c2cReadReceipt(C2CReadReceipt(userID: s(r.userID), readTimestampMs: r.readTimestampMs))
        case nil: nil
        }
        return Message(
            msgID: s(m.msgID), sender: s(m.sender), target: target, timestampMs: m.timestampMs, seq: m.seq,
            random: m.random, priority: m.priority, elems: m.elems.map(elem), atUserList: m.atUserList.map(s),
            targetedReceivers: m.targetedReceivers.map(s), cloudCustomData: b(m.cloudCustomData),
            offlinePushInfo: m.offlinePushInfo.map(offlinePushInfo), needReadReceipt: m.needReadReceipt,
            excludedFromUnreadCount: m.excludedFromUnreadCount, excludedFromLastMessage: m.excludedFromLastMessage,
            onlineUserOnly: m.onlineUserOnly, supportMessageExtension: m.supportMessageExtension, topicID: s(m.topicID),
            barrage: m.barrage, signal: signal)
    }

    static func offlinePushInfo(_ p: OfflinePushInfo) -> OfflinePushInfo {
        OfflinePushInfo(
            title: s(p.title), desc: s(p.desc), ext: s(p.ext), disablePush: p.disablePush, iosSound: s(p.iosSound),
            androidSound: s(p.androidSound), ignoreIOSBadge: p.ignoreIOSBadge, iosPushType: p.iosPushType,
            iosTitle: s(p.iosTitle), iosSubtitle: s(p.iosSubtitle), iosImage: s(p.iosImage),
            iosMutableContent: p.iosMutableContent)
    }

    static func elem(_ e: Elem) -> Elem {
        switch e.content {
        case .text(let t)?: return .text(TextElem(text: s(t.text)))
        case .custom(let c)?: return .custom(CustomElem(data: b(c.data), desc: s(c.desc), ext: s(c.ext), sound: s(c.sound)))
        case .image(let image)?:
            return .image(ImageElem(format: image.format, images: image.images.map {
                Image(type: $0.type, uuid: s($0.uuid), size: $0.size, width: $0.width, height: $0.height, url: s($0.url))
            }))
        case .sound(let v)?:
            return .sound(SoundElem(uuid: s(v.uuid), url: s(v.url), dataSize: v.dataSize, duration: v.duration, format: s(v.format)))
        case .video(let v)?:
            return .video(VideoElem(
                videoUUID: s(v.videoUUID), videoURL: s(v.videoURL), videoSize: v.videoSize, videoFormat: s(v.videoFormat),
                duration: v.duration, snapshotUUID: s(v.snapshotUUID), snapshotURL: s(v.snapshotURL),
                snapshotSize: v.snapshotSize, snapshotWidth: v.snapshotWidth, snapshotHeight: v.snapshotHeight,
                snapshotFormat: s(v.snapshotFormat)))
        case .file(let f)?: return .file(FileElem(uuid: s(f.uuid), url: s(f.url), fileName: s(f.fileName), fileSize: f.fileSize))
        case .location(let l)?: return .location(LocationElem(desc: s(l.desc), longitude: l.longitude, latitude: l.latitude))
        case .face(let f)?: return .face(FaceElem(index: f.index, data: b(f.data)))
        case .groupTips(let t)?:
            return .groupTips(GroupTipsElem(
                groupID: s(t.groupID), type: t.type, opMember: t.opMember.map(groupMember),
                memberList: t.memberList.map(groupMember),
                groupChangeList: t.groupChangeList.map {
                    GroupChangeInfo(type: $0.type, value: s($0.value), key: s($0.key), boolValue: $0.boolValue,
                                    intValue: $0.intValue, uint64Value: $0.uint64Value)
                },
                memberChangeList: t.memberChangeList.map { MemberChangeInfo(userID: s($0.userID), muteTime: $0.muteTime) },
                memberCount: t.memberCount, groupName: s(t.groupName), platform: s(t.platform),
                opUserInfo: t.opUserInfo.map(userProfile), changedUserInfoList: t.changedUserInfoList.map(userProfile),
                changedGroupMemberInfoList: t.changedGroupMemberInfoList.map(groupMember)))
        case .merger(let m)?:
            return .merger(MergerElem(
                title: s(m.title), abstractList: m.abstractList.map(s), compatibleText: s(m.compatibleText),
                layersOverLimit: m.layersOverLimit, messages: m.messages.map(message), jsonMsgKey: s(m.jsonMsgKey),
                msgNum: m.msgNum))
        case .groupSystem(let g)?:
            return .groupSystem(GroupSystemElem(
                type: g.type, groupID: s(g.groupID), opUser: s(g.opUser), reason: s(g.reason), msgKey: g.msgKey,
                authKey: b(g.authKey), userData: b(g.userData), opMember: g.opMember.map(groupMember),
                platform: s(g.platform), opUserInfo: g.opUserInfo.map(userProfile)))
        case nil:
            return Elem()
        }
    }

    static func groupMember(_ m: GroupMemberInfo) -> GroupMemberInfo {
        GroupMemberInfo(
            userID: s(m.userID), nickName: s(m.nickName), friendRemark: s(m.friendRemark), nameCard: s(m.nameCard),
            faceURL: s(m.faceURL), role: m.role, joinTime: m.joinTime, muteUntil: m.muteUntil, customInfo: map(m.customInfo))
    }

    static func userProfile(_ p: UserProfile) -> UserProfile {
        UserProfile(userID: s(p.userID), nickName: s(p.nickName), faceURL: s(p.faceURL), selfSignature: s(p.selfSignature),
                    customInfo: map(p.customInfo))
    }
}
