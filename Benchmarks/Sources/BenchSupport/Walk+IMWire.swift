// The walk every harness runs after a decode: every field of every message type read once through
// the implementation's public API, as a consumer reads a message (renders it, indexes it, forwards
// it, validates it). It returns the digest that Docs/benchmarks.md defines ("The walk"), which
// Scripts/bench compares across implementations, so a walker that skips a field is caught:
//   W(message) = 1 + Σ F(field); a string its UTF-8 byte count, bytes their count, integers and
//   enums their value (int32 sign-extended), a bool 0 or 1, a double its bit pattern, a present
//   sub-message W of it, a repeated field the sum over its elements, a map Σ (key bytes + value
//   bytes), a oneof F of its member; unknown fields are not read. Wrapping arithmetic.
// This file walks IMWire's model; Walk+SwiftProtobuf.swift the same over swift-protobuf's.

// The module that brings what the walk reads, so that a client depending on that product alone
// (Benchmarks/Size) and the one-module library of the eager harness (eager.sh) both compile it.
#if canImport(IMWireBinary)
import IMWireBinary
#else
import IMWire
#endif

public enum IMWireWalk {
    @inline(__always) static func s(_ value: String) -> UInt64 { UInt64(value.utf8.count) }
    @inline(__always) static func b(_ value: [UInt8]) -> UInt64 { UInt64(value.count) }
    @inline(__always) static func i(_ value: Int32) -> UInt64 { UInt64(bitPattern: Int64(value)) }
    @inline(__always) static func flag(_ value: Bool) -> UInt64 { value ? 1 : 0 }

    static func map(_ map: StringBytesMap) -> UInt64 {
        var d: UInt64 = 0
        for entry in map { d &+= s(entry.key) &+ b(entry.value) }
        return d
    }

    public static func message(_ m: Message) -> UInt64 {
        var d: UInt64 = 1
        d &+= s(m.msgID) &+ s(m.sender)
        switch m.target {
        case .receiver(let id)?: d &+= s(id)
        case .groupID(let id)?: d &+= s(id)
        case .roomID(let id)?: d &+= s(id)
        case nil: break
        }
        d &+= m.timestampMs &+ m.seq &+ m.random &+ i(m.priority.rawValue)
        for elem in m.elems { d &+= self.elem(elem) }
        for id in m.atUserList { d &+= s(id) }
        for id in m.targetedReceivers { d &+= s(id) }
        d &+= b(m.cloudCustomData)
        if let push = m.offlinePushInfo { d &+= offlinePushInfo(push) }
        d &+= flag(m.needReadReceipt) &+ flag(m.excludedFromUnreadCount) &+ flag(m.excludedFromLastMessage)
        d &+= flag(m.onlineUserOnly) &+ flag(m.supportMessageExtension)
        d &+= s(m.topicID) &+ flag(m.barrage)
        switch m.signal {
        case .recallNotice(let n)?: d &+= 1 &+ s(n.msgID) &+ s(n.recalledBy) &+ s(n.reason)
        case .groupReadReceipt(let r)?: d &+= 1 &+ s(r.msgID) &+ r.readCount &+ r.unreadCount
        case .c2cReadReceipt(let r)?: d &+= 1 &+ s(r.userID) &+ r.readTimestampMs
        case nil: break
        }
        return d
    }

    static func offlinePushInfo(_ p: OfflinePushInfo) -> UInt64 {
        var d: UInt64 = 1
        d &+= s(p.title) &+ s(p.desc) &+ s(p.ext) &+ flag(p.disablePush) &+ s(p.iosSound) &+ s(p.androidSound)
        d &+= flag(p.ignoreIOSBadge) &+ i(p.iosPushType.rawValue) &+ s(p.iosTitle) &+ s(p.iosSubtitle)
        d &+= s(p.iosImage) &+ flag(p.iosMutableContent)
        return d
    }

    static func elem(_ e: Elem) -> UInt64 {
        var d: UInt64 = 1
        switch e.content {
        case .text(let t)?: d &+= 1 &+ s(t.text)
        case .custom(let c)?: d &+= 1 &+ b(c.data) &+ s(c.desc) &+ s(c.ext) &+ s(c.sound)
        case .image(let image)?:
            d &+= 1 &+ i(image.format.rawValue)
            for info in image.images {
                d &+= 1 &+ i(info.type.rawValue) &+ s(info.uuid) &+ info.size &+ UInt64(info.width)
                d &+= UInt64(info.height) &+ s(info.url)
            }
        case .sound(let v)?:
            d &+= 1 &+ s(v.uuid) &+ s(v.url) &+ v.dataSize &+ UInt64(v.duration) &+ s(v.format)
        case .video(let v)?:
            d &+= 1 &+ s(v.videoUUID) &+ s(v.videoURL) &+ v.videoSize &+ s(v.videoFormat) &+ UInt64(v.duration)
            d &+= s(v.snapshotUUID) &+ s(v.snapshotURL) &+ v.snapshotSize &+ UInt64(v.snapshotWidth)
            d &+= UInt64(v.snapshotHeight) &+ s(v.snapshotFormat)
        case .file(let f)?: d &+= 1 &+ s(f.uuid) &+ s(f.url) &+ s(f.fileName) &+ f.fileSize
        case .location(let l)?: d &+= 1 &+ s(l.desc) &+ l.longitude.bitPattern &+ l.latitude.bitPattern
        case .face(let f)?: d &+= 1 &+ i(f.index) &+ b(f.data)
        case .groupTips(let t)?: d &+= groupTips(t)
        case .merger(let m)?:
            d &+= 1 &+ s(m.title)
            for abstract in m.abstractList { d &+= s(abstract) }
            d &+= s(m.compatibleText) &+ flag(m.layersOverLimit)
            for message in m.messages { d &+= self.message(message) }
            d &+= s(m.jsonMsgKey) &+ UInt64(m.msgNum)
        case .groupSystem(let g)?:
            d &+= 1 &+ i(g.type.rawValue) &+ s(g.groupID) &+ s(g.opUser) &+ s(g.reason) &+ g.msgKey
            d &+= b(g.authKey) &+ b(g.userData)
            if let member = g.opMember { d &+= groupMember(member) }
            d &+= s(g.platform)
            if let profile = g.opUserInfo { d &+= userProfile(profile) }
        case nil: break
        }
        return d
    }

    static func groupTips(_ t: GroupTipsElem) -> UInt64 {
        var d: UInt64 = 1
        d &+= s(t.groupID) &+ i(t.type.rawValue)
        if let member = t.opMember { d &+= groupMember(member) }
        for member in t.memberList { d &+= groupMember(member) }
        for change in t.groupChangeList {
            d &+= 1 &+ i(change.type.rawValue) &+ s(change.value) &+ s(change.key) &+ flag(change.boolValue)
            d &+= UInt64(change.intValue) &+ change.uint64Value
        }
        for change in t.memberChangeList { d &+= 1 &+ s(change.userID) &+ UInt64(change.muteTime) }
        d &+= UInt64(t.memberCount) &+ s(t.groupName) &+ s(t.platform)
        if let profile = t.opUserInfo { d &+= userProfile(profile) }
        for profile in t.changedUserInfoList { d &+= userProfile(profile) }
        for member in t.changedGroupMemberInfoList { d &+= groupMember(member) }
        return d
    }

    static func groupMember(_ m: GroupMemberInfo) -> UInt64 {
        var d: UInt64 = 1
        d &+= s(m.userID) &+ s(m.nickName) &+ s(m.friendRemark) &+ s(m.nameCard) &+ s(m.faceURL)
        d &+= i(m.role.rawValue) &+ m.joinTime &+ m.muteUntil &+ map(m.customInfo)
        return d
    }

    static func userProfile(_ p: UserProfile) -> UInt64 {
        1 &+ s(p.userID) &+ s(p.nickName) &+ s(p.faceURL) &+ s(p.selfSignature) &+ map(p.customInfo)
    }
}
