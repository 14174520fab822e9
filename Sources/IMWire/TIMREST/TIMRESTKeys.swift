/// The keys of one kind of tim-rest object that IMWire reads. The cases are the object's slots (in
/// declaration order, so `rawValue` is the slot); ``name`` is the key exactly as Tencent spells it.
protocol TIMRESTObjectKey: CaseIterable, RawRepresentable where RawValue == Int {
    var name: String { get }
    /// The table that finds a key's slot from its bytes.
    static var table: TIMRESTKeyTable { get }
}

/// Finds the slot of a key by its UTF-8 bytes: the candidates of the key's length only, compared
/// with `memcmp`. No allocation, no `String`.
struct TIMRESTKeyTable: Sendable {
    /// How many keys (slots) there are.
    let count: Int
    /// `byLength[n]`: the keys of `n` bytes and their slots.
    private let byLength: [[(bytes: [UInt8], slot: Int)]]

    init(_ names: [String]) {
        count = names.count
        var byLength = [[(bytes: [UInt8], slot: Int)]](repeating: [], count: (names.map(\.utf8.count).max() ?? 0) + 1)
        for (slot, name) in names.enumerated() {
            byLength[name.utf8.count].append((Array(name.utf8), slot))
        }
        self.byLength = byLength
    }

    init<K: TIMRESTObjectKey>(_ keys: K.Type) {
        self.init(K.allCases.sorted { $0.rawValue < $1.rawValue }.map(\.name))
    }

    func slot(of key: UnsafeBufferPointer<UInt8>) -> Int? {
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

/// ``TIMRESTSlots`` addressed by an object kind's keys.
struct TIMRESTMembers<Key: TIMRESTObjectKey> {
    let slots: TIMRESTSlots

    subscript(key: Key) -> Int? { slots[key.rawValue] }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The object kinds

/// A message: send requests, webhook bodies, history entries, `MsgList` entries; and the root
/// object, which may also be a single element (`MsgType`, `MsgContent`).
enum TIMRESTEnvelopeKey: Int, TIMRESTObjectKey {
    case fromAccount, toAccount, groupID, topicID, msgSeq, msgRandom, random, msgTimeStamp, msgTime, msgKey
    case msgPriority, msgBody, cloudCustomData, groupAtInfo, sendMsgControl, onlineOnlyFlag, msgOnlineOnlyFlag
    case msgLifeTime, isNeedReadReceipt, needReadReceipt, supportMessageExtension, offlinePushInfo
    case msgType, msgContent

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
        case .msgType: "MsgType"
        case .msgContent: "MsgContent"
        }
    }

    static let table = TIMRESTKeyTable(Self.self)
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

    static let table = TIMRESTKeyTable(Self.self)
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

    static let table = TIMRESTKeyTable(Self.self)
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

    static let table = TIMRESTKeyTable(Self.self)
}

/// `OfflinePushInfo.AndroidInfo` (the vendor channel keys are not read).
enum TIMRESTAndroidKey: Int, TIMRESTObjectKey {
    case sound

    var name: String { "Sound" }

    static let table = TIMRESTKeyTable(Self.self)
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

    static let table = TIMRESTKeyTable(Self.self)
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

    static let table = TIMRESTKeyTable(Self.self)
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

    static let table = TIMRESTKeyTable(Self.self)
}
