// The walk (Walk+IMWire.swift) over IMWire's message view: every field of every message type read in
// place, the same digest as the walk over the owned model, so Scripts/bench checks that the view reads
// what a decode gives. Each string and bytes value is read for its length and its first byte (summed
// apart from the digest and handed to blackHole once per message).

// The module that brings what the walk reads, so that a client depending on that product alone
// (Benchmarks/Size) and the one-module library of the eager harness (eager.sh) both compile it.
#if canImport(IMWireView)
import IMWireView
#else
import IMWire
#endif

public enum IMWireViewWalk {
    @inline(__always) static func s(_ value: StringView, _ first: inout UInt64) -> UInt64 {
        first &+= UInt64(value.first ?? 0)
        return UInt64(value.count)
    }
    @inline(__always) static func b(_ value: BytesView, _ first: inout UInt64) -> UInt64 {
        first &+= UInt64(value.first ?? 0)
        return UInt64(value.count)
    }
    @inline(__always) static func i(_ value: Int32) -> UInt64 { UInt64(bitPattern: Int64(value)) }
    @inline(__always) static func flag(_ value: Bool) -> UInt64 { value ? 1 : 0 }

    static func map(_ map: StringBytesMapView, _ f: inout UInt64) -> UInt64 {
        var d: UInt64 = 0
        for (key, value) in map { d &+= s(key, &f) &+ b(value, &f) }
        return d
    }

    /// The digest of `m`; the first bytes go to blackHole.
    public static func message(_ m: Message.View) -> UInt64 {
        var first: UInt64 = 0
        let d = message(m, &first)
        blackHole(first)
        return d
    }

    static func message(_ m: Message.View, _ f: inout UInt64) -> UInt64 {
        var d: UInt64 = 1
        d &+= s(m.msgID, &f) &+ s(m.sender, &f)
        switch m.target {
        case .receiver(let id)?: d &+= s(id, &f)
        case .groupID(let id)?: d &+= s(id, &f)
        case .roomID(let id)?: d &+= s(id, &f)
        case nil: break
        }
        d &+= m.timestampMs &+ m.seq &+ m.random &+ i(m.priority.rawValue)
        for elem in m.elems { d &+= self.elem(elem, &f) }
        for id in m.atUserList { d &+= s(id, &f) }
        for id in m.targetedReceivers { d &+= s(id, &f) }
        d &+= b(m.cloudCustomData, &f)
        if let p = m.offlinePushInfo {
            d &+= 1 &+ s(p.title, &f) &+ s(p.desc, &f) &+ s(p.ext, &f) &+ flag(p.disablePush) &+ s(p.iosSound, &f)
            d &+= s(p.androidSound, &f) &+ flag(p.ignoreIOSBadge) &+ i(p.iosPushType.rawValue) &+ s(p.iosTitle, &f)
            d &+= s(p.iosSubtitle, &f) &+ s(p.iosImage, &f) &+ flag(p.iosMutableContent)
        }
        d &+= flag(m.needReadReceipt) &+ flag(m.excludedFromUnreadCount) &+ flag(m.excludedFromLastMessage)
        d &+= flag(m.onlineUserOnly) &+ flag(m.supportMessageExtension)
        d &+= s(m.topicID, &f) &+ flag(m.barrage)
        switch m.signal {
        case .recallNotice(let n)?: d &+= 1 &+ s(n.msgID, &f) &+ s(n.recalledBy, &f) &+ s(n.reason, &f)
        case .groupReadReceipt(let r)?: d &+= 1 &+ s(r.msgID, &f) &+ r.readCount &+ r.unreadCount
        case .c2cReadReceipt(let r)?: d &+= 1 &+ s(r.userID, &f) &+ r.readTimestampMs
        case nil: break
        }
        return d
    }

    static func elem(_ e: Elem.View, _ f: inout UInt64) -> UInt64 {
        var d: UInt64 = 1
        switch e.content {
        case .text(let t)?: d &+= 1 &+ s(t.text, &f)
        case .custom(let c)?: d &+= 1 &+ b(c.data, &f) &+ s(c.desc, &f) &+ s(c.ext, &f) &+ s(c.sound, &f)
        case .image(let image)?:
            d &+= 1 &+ i(image.format.rawValue)
            for info in image.images {
                d &+= 1 &+ i(info.type.rawValue) &+ s(info.uuid, &f) &+ info.size &+ UInt64(info.width)
                d &+= UInt64(info.height) &+ s(info.url, &f)
            }
        case .sound(let v)?:
            d &+= 1 &+ s(v.uuid, &f) &+ s(v.url, &f) &+ v.dataSize &+ UInt64(v.duration) &+ s(v.format, &f)
        case .video(let v)?:
            d &+= 1 &+ s(v.videoUUID, &f) &+ s(v.videoURL, &f) &+ v.videoSize &+ s(v.videoFormat, &f) &+ UInt64(v.duration)
            d &+= s(v.snapshotUUID, &f) &+ s(v.snapshotURL, &f) &+ v.snapshotSize &+ UInt64(v.snapshotWidth)
            d &+= UInt64(v.snapshotHeight) &+ s(v.snapshotFormat, &f)
        case .file(let v)?: d &+= 1 &+ s(v.uuid, &f) &+ s(v.url, &f) &+ s(v.fileName, &f) &+ v.fileSize
        case .location(let l)?: d &+= 1 &+ s(l.desc, &f) &+ l.longitude.bitPattern &+ l.latitude.bitPattern
        case .face(let v)?: d &+= 1 &+ i(v.index) &+ b(v.data, &f)
        case .groupTips(let t)?: d &+= groupTips(t, &f)
        case .merger(let m)?:
            d &+= 1 &+ s(m.title, &f)
            for abstract in m.abstractList { d &+= s(abstract, &f) }
            d &+= s(m.compatibleText, &f) &+ flag(m.layersOverLimit)
            for message in m.messages { d &+= self.message(message, &f) }
            d &+= s(m.jsonMsgKey, &f) &+ UInt64(m.msgNum)
        case .groupSystem(let g)?:
            d &+= 1 &+ i(g.type.rawValue) &+ s(g.groupID, &f) &+ s(g.opUser, &f) &+ s(g.reason, &f) &+ g.msgKey
            d &+= b(g.authKey, &f) &+ b(g.userData, &f)
            if let member = g.opMember { d &+= groupMember(member, &f) }
            d &+= s(g.platform, &f)
            if let profile = g.opUserInfo { d &+= userProfile(profile, &f) }
        case nil: break
        }
        return d
    }

    static func groupTips(_ t: GroupTipsElem.View, _ f: inout UInt64) -> UInt64 {
        var d: UInt64 = 1
        d &+= s(t.groupID, &f) &+ i(t.type.rawValue)
        if let member = t.opMember { d &+= groupMember(member, &f) }
        for member in t.memberList { d &+= groupMember(member, &f) }
        for change in t.groupChangeList {
            d &+= 1 &+ i(change.type.rawValue) &+ s(change.value, &f) &+ s(change.key, &f) &+ flag(change.boolValue)
            d &+= UInt64(change.intValue) &+ change.uint64Value
        }
        for change in t.memberChangeList { d &+= 1 &+ s(change.userID, &f) &+ UInt64(change.muteTime) }
        d &+= UInt64(t.memberCount) &+ s(t.groupName, &f) &+ s(t.platform, &f)
        if let profile = t.opUserInfo { d &+= userProfile(profile, &f) }
        for profile in t.changedUserInfoList { d &+= userProfile(profile, &f) }
        for member in t.changedGroupMemberInfoList { d &+= groupMember(member, &f) }
        return d
    }

    static func groupMember(_ m: GroupMemberInfo.View, _ f: inout UInt64) -> UInt64 {
        var d: UInt64 = 1
        d &+= s(m.userID, &f) &+ s(m.nickName, &f) &+ s(m.friendRemark, &f) &+ s(m.nameCard, &f) &+ s(m.faceURL, &f)
        d &+= i(m.role.rawValue) &+ m.joinTime &+ m.muteUntil &+ map(m.customInfo, &f)
        return d
    }

    static func userProfile(_ p: UserProfile.View, _ f: inout UInt64) -> UInt64 {
        1 &+ s(p.userID, &f) &+ s(p.nickName, &f) &+ s(p.faceURL, &f) &+ s(p.selfSignature, &f) &+ map(p.customInfo, &f)
    }
}
