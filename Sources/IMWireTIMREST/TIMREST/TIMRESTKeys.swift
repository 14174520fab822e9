import IMWireCore
import IMWireJSONText

/// The keys of one kind of tim-rest object that IMWire reads. The cases are the object's slots (in
/// declaration order, so `rawValue` is the slot); ``name`` is the key exactly as Tencent spells it.
protocol TIMRESTObjectKey: CaseIterable, RawRepresentable where RawValue == Int {
    var name: String { get }
    /// The table that finds a key's slot from its bytes.
    static var table: TIMRESTKeyTable { get }
}

/// Finds the slot of a key by its UTF-8 bytes: the candidates of the key's length only, compared
/// with `memcmp`. No allocation, no `String`. Knows, for the skip path, what the object is called,
/// the keys Tencent documents for it that IMWire does not read (and why), and its key names, to
/// suggest the key a misspelt one was meant to be.
struct TIMRESTKeyTable: Sendable {
    /// How many keys (slots) there are.
    let count: Int
    /// `byLength[n]`: the keys of `n` bytes and their slots.
    private let byLength: [[(bytes: [UInt8], slot: Int)]]
    /// The keys read, by slot.
    let names: [String]
    /// What the object is, for messages: `a TIMTextElem's MsgContent`.
    let object: String
    /// The keys Tencent documents for this object that the model has no field for, with what each
    /// is (Docs/tim-rest-keys.md): reported as ``SkippedKey/Reason/noField``.
    let documented: [String: String]

    init(_ names: [String], object: String, documented: [String: String] = [:]) {
        count = names.count
        var byLength = [[(bytes: [UInt8], slot: Int)]](repeating: [], count: (names.map(\.utf8.count).max() ?? 0) + 1)
        for (slot, name) in names.enumerated() {
            byLength[name.utf8.count].append((Array(name.utf8), slot))
        }
        self.byLength = byLength
        self.names = names
        self.object = object
        self.documented = documented
    }

    init<K: TIMRESTObjectKey>(_ keys: K.Type, object: String, documented: [String: String] = [:]) {
        self.init(K.allCases.sorted { $0.rawValue < $1.rawValue }.map(\.name), object: object, documented: documented)
    }

    /// Every key Tencent documents for this object, read or not: the candidates of a suggestion.
    var documentedNames: [String] { names + documented.keys.sorted() }

    func slot(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        // [unsafe: json-names] `key.count < byLength.count`; each candidate in `byLength[key.count]` has
        // `key.count` bytes, at least one (a key has a base address here), so both buffers have them.
        guard key.count < byLength.count, let base = key.baseAddress else { return nil }
        for candidate in byLength[key.count] {
            let equal = candidate.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, key.count) == 0 }
            if equal { return candidate.slot }
        }
        return nil
    }
}

/// The members of one object that a table knows: the tape index of each slot's value, -1 when the
/// key is absent or `null`.
struct TIMRESTSlots {
    var values: [Int32]

    subscript(slot: Int) -> Int? {
        let value = values[slot]
        return value < 0 ? nil : Int(value)
    }
}

/// ``TIMRESTSlots`` addressed by an object kind's keys, and the tape index of the object.
struct TIMRESTMembers<Key: TIMRESTObjectKey> {
    let slots: TIMRESTSlots
    let index: Int

    subscript(key: Key) -> Int? { slots[key.rawValue] }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The object kinds

/// A message: send requests, webhook bodies, history entries, `MsgList` entries; and the root
/// object, which may also be a single element (`MsgType`, `MsgContent`: keys of the element, so
/// in an envelope they are reported as unknown) or a webhook body (`CallbackCommand`).
enum TIMRESTEnvelopeKey: Int, TIMRESTObjectKey {
    case fromAccount, toAccount, groupID, topicID, msgSeq, msgRandom, random, msgTimeStamp, msgTime, msgKey
    case msgPriority, msgBody, cloudCustomData, groupAtInfo, sendMsgControl, onlineOnlyFlag, msgOnlineOnlyFlag
    case msgLifeTime, isNeedReadReceipt, needReadReceipt, supportMessageExtension, offlinePushInfo
    case callbackCommand, msgType, msgContent

    var name: String {
        switch self {
        case .fromAccount: "From_Account"
        case .toAccount: "To_Account"
        case .groupID: "GroupId"
        case .topicID: "TopicId"
        case .msgSeq: "MsgSeq"
        case .msgRandom: "MsgRandom"
        case .random: "Random"
        case .msgTimeStamp: "MsgTimeStamp"
        case .msgTime: "MsgTime"
        case .msgKey: "MsgKey"
        case .msgPriority: "MsgPriority"
        case .msgBody: "MsgBody"
        case .cloudCustomData: "CloudCustomData"
        case .groupAtInfo: "GroupAtInfo"
        case .sendMsgControl: "SendMsgControl"
        case .onlineOnlyFlag: "OnlineOnlyFlag"
        case .msgOnlineOnlyFlag: "MsgOnlineOnlyFlag"
        case .msgLifeTime: "MsgLifeTime"
        case .isNeedReadReceipt: "IsNeedReadReceipt"
        case .needReadReceipt: "NeedReadReceipt"
        case .supportMessageExtension: "SupportMessageExtension"
        case .offlinePushInfo: "OfflinePushInfo"
        case .callbackCommand: "CallbackCommand"
        case .msgType: "MsgType"
        case .msgContent: "MsgContent"
        }
    }

    static let table = TIMRESTKeyTable(Self.self, object: "a message envelope", documented: [
        "EventTime": "callback metadata: when the webhook fired",
        "Type": "the group's type, a property of the group and not of the message",
        "Operator_Account": "callback metadata: who made the request",
        "SendMsgResult": "callback metadata: the delivery result",
        "ErrorInfo": "callback metadata: the delivery error text",
        "UnreadMsgNum": "read state: the receiver's unread count",
        "MsgClientTime": "the sender's client clock; the model keeps the server time",
        "MsgId": "the client's message ID; msg_id is read from MsgKey",
        "SyncOtherMachine": "delivery control of one request",
        "ForbidCallbackControl": "delivery control of one request",
        "MsgFlagBits": "message state: recalled or not",
        "IsPeerRead": "read state",
        "IsPlaceMsg": "storage state of a history entry",
        "IsSystemMsg": "a history entry's system flag",
    ])
}

/// The keys Tencent documents for a tim-rest root object — every envelope key, read or not, and a
/// single element's `MsgType` and `MsgContent` — for `imwire`'s format detection.
@usableFromInline package enum TIMRESTRootKeys {
    @usableFromInline package static let all: Set<String> = Set(TIMRESTEnvelopeKey.table.documentedNames)
}

/// A `MsgBody` element.
enum TIMRESTElementKey: Int, TIMRESTObjectKey {
    case msgType, msgContent

    var name: String {
        switch self {
        case .msgType: "MsgType"
        case .msgContent: "MsgContent"
        }
    }

    static let table = TIMRESTKeyTable(Self.self, object: "a MsgBody element")
}

/// A `GroupAtInfo` entry.
enum TIMRESTGroupAtKey: Int, TIMRESTObjectKey {
    case groupAtAllFlag, groupAtAccount

    var name: String {
        switch self {
        case .groupAtAllFlag: "GroupAtAllFlag"
        case .groupAtAccount: "GroupAt_Account"
        }
    }

    static let table = TIMRESTKeyTable(Self.self, object: "a GroupAtInfo entry")
}

/// `OfflinePushInfo`.
enum TIMRESTPushKey: Int, TIMRESTObjectKey {
    case pushFlag, title, desc, ext, androidInfo, apnsInfo

    var name: String {
        switch self {
        case .pushFlag: "PushFlag"
        case .title: "Title"
        case .desc: "Desc"
        case .ext: "Ext"
        case .androidInfo: "AndroidInfo"
        case .apnsInfo: "ApnsInfo"
        }
    }

    static let table = TIMRESTKeyTable(Self.self, object: "OfflinePushInfo")
}

/// `OfflinePushInfo.AndroidInfo` (the vendor channel keys are not read).
enum TIMRESTAndroidKey: Int, TIMRESTObjectKey {
    case sound

    var name: String { "Sound" }

    static let table = TIMRESTKeyTable(Self.self, object: "AndroidInfo", documented: Dictionary(uniqueKeysWithValues: [
        "XiaoMiChannelID", "OPPOChannelID", "OPPOCategory", "OPPOPrivateMsgTemplateId", "VIVOCategory", "HuaWeiCategory",
        "HonorImportance", "MeiZuNoticeMsgType", "HuaWeiChannelID", "GoogleChannelID", "VIVOClassification",
        "HuaWeiImportance", "ExtAsHuaweiIntentParam", "HuaWeiImage", "HonorImage", "GoogleImage", "PushStyle",
    ].map { ($0, "a vendor push-channel setting") }))
}

/// `OfflinePushInfo.ApnsInfo`, in Tencent's documented order (the canonical output order).
enum TIMRESTApnsKey: Int, TIMRESTObjectKey {
    case sound, badgeMode, title, subTitle, image, mutableContent

    var name: String {
        switch self {
        case .sound: "Sound"
        case .badgeMode: "BadgeMode"
        case .title: "Title"
        case .subTitle: "SubTitle"
        case .image: "Image"
        case .mutableContent: "MutableContent"
        }
    }

    static let table = TIMRESTKeyTable(Self.self, object: "ApnsInfo", documented: [
        "InterruptionLevel": "the iOS 15 interruption level",
        "ContentAvailable": "a silent (background) push",
    ])
}

/// A `TIMImageElem`'s `MsgContent` (its entries are the flat ``TIMRESTContent/image``).
enum TIMRESTImageKey: Int, TIMRESTObjectKey {
    case uuid, imageFormat, imageInfoArray

    var name: String {
        switch self {
        case .uuid: "UUID"
        case .imageFormat: "ImageFormat"
        case .imageInfoArray: "ImageInfoArray"
        }
    }

    static let table = TIMRESTKeyTable(Self.self, object: "a TIMImageElem's MsgContent")
}

/// A `TIMRelayElem`'s `MsgContent`, in the canonical output order.
enum TIMRESTRelayKey: Int, TIMRESTObjectKey {
    case title, msgNum, compatibleText, abstractList, msgList, jsonMsgKey

    var name: String {
        switch self {
        case .title: "Title"
        case .msgNum: "MsgNum"
        case .compatibleText: "CompatibleText"
        case .abstractList: "AbstractList"
        case .msgList: "MsgList"
        case .jsonMsgKey: "JsonMsgKey"
        }
    }

    static let table = TIMRESTKeyTable(Self.self, object: "a TIMRelayElem's MsgContent")
}
