// Build+IMWire.swift's values built in code, with swift-protobuf's generated setters: every message of
// a corpus made again field by field, strings and bytes in new storage.

import Foundation
import SwiftProtobufPeer

public enum SwiftProtobufBuild {
    @inline(never) static func s(_ value: String) -> String { String(decoding: Array(value.utf8), as: UTF8.self) }
    @inline(never) static func b(_ value: Data) -> Data { Data(Array(value)) }

    static func map(_ map: [String: Data]) -> [String: Data] {
        var built: [String: Data] = [:]
        for (key, value) in map { built[s(key)] = b(value) }
        return built
    }

    public static func message(_ m: Imwire_V1_Message) -> Imwire_V1_Message {
        var out = Imwire_V1_Message()
        out.msgID = s(m.msgID)
        out.sender = s(m.sender)
        switch m.target {
        case .receiver(let id)?: out.receiver = s(id)
        case .groupID(let id)?: out.groupID = s(id)
        case .roomID(let id)?: out.roomID = s(id)
        case nil: break
        }
        out.timestampMs = m.timestampMs
        out.seq = m.seq
        out.random = m.random
        out.priority = m.priority
        out.elems = m.elems.map(elem)
        out.atUserList = m.atUserList.map(s)
        out.targetedReceivers = m.targetedReceivers.map(s)
        out.cloudCustomData = b(m.cloudCustomData)
        if m.hasOfflinePushInfo {
            let p = m.offlinePushInfo
            var push = Imwire_V1_OfflinePushInfo()
            push.title = s(p.title)
            push.desc = s(p.desc)
            push.ext = s(p.ext)
            push.disablePush = p.disablePush
            push.iosSound = s(p.iosSound)
            push.androidSound = s(p.androidSound)
            push.ignoreIosBadge = p.ignoreIosBadge
            push.iosPushType = p.iosPushType
            push.iosTitle = s(p.iosTitle)
            push.iosSubtitle = s(p.iosSubtitle)
            push.iosImage = s(p.iosImage)
            push.iosMutableContent = p.iosMutableContent
            out.offlinePushInfo = push
        }
        out.needReadReceipt = m.needReadReceipt
        out.excludedFromUnreadCount = m.excludedFromUnreadCount
        out.excludedFromLastMessage = m.excludedFromLastMessage
        out.onlineUserOnly = m.onlineUserOnly
        out.supportMessageExtension = m.supportMessageExtension
        out.topicID = s(m.topicID)
        out.barrage = m.barrage
        switch m.signal {
        case .recallNotice(let n)?:
            var notice = Imwire_V1_RecallNotice()
            notice.msgID = s(n.msgID)
            notice.recalledBy = s(n.recalledBy)
            notice.reason = s(n.reason)
            out.recallNotice = notice
        case .groupReadReceipt(let r)?:
            var receipt = Imwire_V1_GroupReadReceipt()
            receipt.msgID = s(r.msgID)
            receipt.readCount = r.readCount
            receipt.unreadCount = r.unreadCount
            out.groupReadReceipt = receipt
        case .c2CReadReceipt(let r)?:
            var receipt = Imwire_V1_C2CReadReceipt()
            receipt.userID = s(r.userID)
            receipt.readTimestampMs = r.readTimestampMs
            out.c2CReadReceipt = receipt
        case nil: break
        }
        return out
    }

    static func elem(_ e: Imwire_V1_Elem) -> Imwire_V1_Elem {
        var out = Imwire_V1_Elem()
        switch e.content {
        case .text(let t)?:
            var text = Imwire_V1_TextElem()
            text.text = s(t.text)
            out.text = text
        case .custom(let c)?:
            var custom = Imwire_V1_CustomElem()
            custom.data = b(c.data)
            custom.desc = s(c.desc)
            custom.ext = s(c.ext)
            custom.sound = s(c.sound)
            out.custom = custom
        case .image(let i)?:
            var image = Imwire_V1_ImageElem()
            image.format = i.format
            image.images = i.images.map { info in
                var built = Imwire_V1_Image()
                built.type = info.type
                built.uuid = s(info.uuid)
                built.size = info.size
                built.width = info.width
                built.height = info.height
                built.url = s(info.url)
                return built
            }
            out.image = image
        case .sound(let v)?:
            var sound = Imwire_V1_SoundElem()
            sound.uuid = s(v.uuid)
            sound.url = s(v.url)
            sound.dataSize = v.dataSize
            sound.duration = v.duration
            sound.format = s(v.format)
            out.sound = sound
        case .video(let v)?:
            var video = Imwire_V1_VideoElem()
            video.videoUuid = s(v.videoUuid)
            video.videoURL = s(v.videoURL)
            video.videoSize = v.videoSize
            video.videoFormat = s(v.videoFormat)
            video.duration = v.duration
            video.snapshotUuid = s(v.snapshotUuid)
            video.snapshotURL = s(v.snapshotURL)
            video.snapshotSize = v.snapshotSize
            video.snapshotWidth = v.snapshotWidth
            video.snapshotHeight = v.snapshotHeight
            video.snapshotFormat = s(v.snapshotFormat)
            out.video = video
        case .file(let f)?:
            var file = Imwire_V1_FileElem()
            file.uuid = s(f.uuid)
            file.url = s(f.url)
            file.fileName = s(f.fileName)
            file.fileSize = f.fileSize
            out.file = file
        case .location(let l)?:
            var location = Imwire_V1_LocationElem()
            location.desc = s(l.desc)
            location.longitude = l.longitude
            location.latitude = l.latitude
            out.location = location
        case .face(let f)?:
            var face = Imwire_V1_FaceElem()
            face.index = f.index
            face.data = b(f.data)
            out.face = face
        case .groupTips(let t)?:
            var tips = Imwire_V1_GroupTipsElem()
            tips.groupID = s(t.groupID)
            tips.type = t.type
            if t.hasOpMember { tips.opMember = groupMember(t.opMember) }
            tips.memberList = t.memberList.map(groupMember)
            tips.groupChangeList = t.groupChangeList.map { change in
                var built = Imwire_V1_GroupChangeInfo()
                built.type = change.type
                built.value = s(change.value)
                built.key = s(change.key)
                built.boolValue = change.boolValue
                built.intValue = change.intValue
                built.uint64Value = change.uint64Value
                return built
            }
            tips.memberChangeList = t.memberChangeList.map { change in
                var built = Imwire_V1_MemberChangeInfo()
                built.userID = s(change.userID)
                built.muteTime = change.muteTime
                return built
            }
            tips.memberCount = t.memberCount
            tips.groupName = s(t.groupName)
            tips.platform = s(t.platform)
            if t.hasOpUserInfo { tips.opUserInfo = userProfile(t.opUserInfo) }
            tips.changedUserInfoList = t.changedUserInfoList.map(userProfile)
            tips.changedGroupMemberInfoList = t.changedGroupMemberInfoList.map(groupMember)
            out.groupTips = tips
        case .merger(let m)?:
            var merger = Imwire_V1_MergerElem()
            merger.title = s(m.title)
            merger.abstractList = m.abstractList.map(s)
            merger.compatibleText = s(m.compatibleText)
            merger.layersOverLimit = m.layersOverLimit
            merger.messages = m.messages.map(message)
            merger.jsonMsgKey = s(m.jsonMsgKey)
            merger.msgNum = m.msgNum
            out.merger = merger
        case .groupSystem(let g)?:
            var system = Imwire_V1_GroupSystemElem()
            system.type = g.type
            system.groupID = s(g.groupID)
            system.opUser = s(g.opUser)
            system.reason = s(g.reason)
            system.msgKey = g.msgKey
            system.authKey = b(g.authKey)
            system.userData = b(g.userData)
            if g.hasOpMember { system.opMember = groupMember(g.opMember) }
            system.platform = s(g.platform)
            if g.hasOpUserInfo { system.opUserInfo = userProfile(g.opUserInfo) }
            out.groupSystem = system
        case nil:
            break
        }
        return out
    }

    static func groupMember(_ m: Imwire_V1_GroupMemberInfo) -> Imwire_V1_GroupMemberInfo {
        var out = Imwire_V1_GroupMemberInfo()
        out.userID = s(m.userID)
        out.nickName = s(m.nickName)
        out.friendRemark = s(m.friendRemark)
        out.nameCard = s(m.nameCard)
        out.faceURL = s(m.faceURL)
        out.role = m.role
        out.joinTime = m.joinTime
        out.muteUntil = m.muteUntil
        out.customInfo = map(m.customInfo)
        return out
    }

    static func userProfile(_ p: Imwire_V1_UserProfile) -> Imwire_V1_UserProfile {
        var out = Imwire_V1_UserProfile()
        out.userID = s(p.userID)
        out.nickName = s(p.nickName)
        out.faceURL = s(p.faceURL)
        out.selfSignature = s(p.selfSignature)
        out.customInfo = map(p.customInfo)
        return out
    }
}
