import IMWireCore
import IMWireView

// What the validator reads, as protocols that the owned model and the message view both satisfy, so
// one set of rules validates a decoded `Message` and a `Message.View` over bytes alike. The view
// types have the owned types' property names, so most conformances are declarations only; what
// differs (the oneofs, whose enums are each side's own) is mapped to the enums below.

/// A string field: `String` or ``StringView``.
protocol ValidatedString: Equatable {
    var isEmpty: Bool { get }
    var utf8Count: Int { get }
    var utf16Count: Int { get }
    /// An owned copy, for a violation's text and for set lookups.
    var owned: String { get }
}

extension String: ValidatedString {
    var utf8Count: Int { utf8.count }
    var utf16Count: Int { utf16.count }
    var owned: String { self }
}

extension StringView: ValidatedString {
    var utf8Count: Int { count }
    /// A scalar of 4 UTF-8 bytes is two UTF-16 code units, any other one: every byte but the
    /// continuation bytes starts a unit, a 4-byte lead starts two.
    var utf16Count: Int {
        if isASCII { return count }
        var units = 0
        for byte in self where byte & 0xC0 != 0x80 { units &+= byte >= 0xF0 ? 2 : 1 }
        return units
    }
    var owned: String { String(self) }
}

/// A type with a user ID: group member, user profile, member change.
protocol ValidatedUser {
    associatedtype Text: ValidatedString
    var userID: Text { get }
}

protocol ValidatedGroupChange {
    associatedtype Text: ValidatedString
    var type: GroupInfoChangeType { get }
    var value: Text { get }
}

protocol ValidatedImageInfo {
    var type: ImageType { get }
    var size: UInt64 { get }
}

protocol ValidatedGroupTips {
    associatedtype Text: ValidatedString
    associatedtype Member: ValidatedUser where Member.Text == Text
    associatedtype Profile: ValidatedUser where Profile.Text == Text
    associatedtype MemberChange: ValidatedUser where MemberChange.Text == Text
    associatedtype Change: ValidatedGroupChange where Change.Text == Text
    associatedtype Members: Collection<Member>
    associatedtype Profiles: Collection<Profile>
    associatedtype MemberChanges: Collection<MemberChange>
    associatedtype Changes: Collection<Change>
    var opMember: Member? { get }
    var memberList: Members { get }
    var groupChangeList: Changes { get }
    var memberChangeList: MemberChanges { get }
    var groupName: Text { get }
    var platform: Text { get }
    var opUserInfo: Profile? { get }
    var changedUserInfoList: Profiles { get }
    var changedGroupMemberInfoList: Members { get }
}

protocol ValidatedMerger {
    associatedtype Text: ValidatedString
    associatedtype Texts: Collection<Text>
    associatedtype MessageType
    associatedtype Messages: Collection<MessageType>
    var abstractList: Texts { get }
    var messages: Messages { get }
    var jsonMsgKey: Text { get }
    var msgNum: UInt32 { get }
}

/// An elem's content as the rules read it.
enum ValidatedContent<M: ValidatedMessage> {
    case text(M.Text)
    case custom(data: M.Bytes)
    case image(format: ImageFormat, images: M.Images)
    case sound(dataSize: UInt64, duration: UInt32, format: M.Text)
    case video(videoSize: UInt64, videoFormat: M.Text)
    case file(fileSize: UInt64)
    case location(longitude: Double, latitude: Double)
    case face
    case groupTips(M.Tips)
    case merger(M.Merger)
    case groupSystem(opUser: M.Text, opMemberUserID: M.Text?, platform: M.Text, opUserInfoUserID: M.Text?)
}

enum ValidatedTarget<Text> {
    case receiver(Text), groupID(Text), roomID(Text)
}

enum ValidatedSignal<Text> {
    case recallNotice(msgID: Text, recalledBy: Text)
    case groupReadReceipt(msgID: Text)
    case c2cReadReceipt(userID: Text)
}

protocol ValidatedElem {
    associatedtype M: ValidatedMessage
    var kind: ElemKind? { get }
    var validatedContent: ValidatedContent<M>? { get }
}

/// A message as the validator reads it, and the family of types it reads through it.
protocol ValidatedMessage {
    associatedtype Text: ValidatedString
    associatedtype Bytes: Collection<UInt8>
    associatedtype Texts: Collection<Text>
    associatedtype ImageInfo: ValidatedImageInfo
    associatedtype Images: Collection<ImageInfo>
    associatedtype Tips: ValidatedGroupTips where Tips.Text == Text
    associatedtype Merger: ValidatedMerger where Merger.Text == Text, Merger.MessageType == Self
    associatedtype ElemType: ValidatedElem where ElemType.M == Self
    associatedtype Elems: Collection<ElemType>
    var sender: Text { get }
    var validatedTarget: ValidatedTarget<Text>? { get }
    var priority: Priority { get }
    var elems: Elems { get }
    var validatedSignal: ValidatedSignal<Text>? { get }
    var atUserList: Texts { get }
    var targetedReceivers: Texts { get }
    var barrage: Bool { get }
    /// ``Message/contentByteCount``.
    var contentSize: UInt64 { get }
}

// The conformances of the owned types and of their views are generated from one description
// (Generated/ValidatedConformances.swift; `Config.validated` of Scripts/gen_swift_model.py). What
// follows is the rules' own: the content-size rule, computed over either side.

extension Message {
    var contentSize: UInt64 { ContentSize.of(self) }
}

extension Message.View {
    var contentSize: UInt64 { ContentSize.of(self) }
}
