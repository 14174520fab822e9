import IMWireCore
import IMWireJSONText

/// The keys of one kind of tim-rest object that IMWire reads. The cases are the object's slots (in
/// declaration order, so `rawValue` is the slot); ``name`` is the key exactly as Tencent spells it.
protocol TIMRESTObjectKey: CaseIterable, RawRepresentable where RawValue == Int {
    var name: String { get }
    /// The table that finds a key's slot from its bytes.
    static var table: TIMRESTKeyTable { get }
}

/// Finds the slot of a key by its UTF-8 bytes: the candidates of the key's length only, each
/// compared as two 64-bit words (its first and last eight bytes), and the bytes between them, for the
/// few keys longer than sixteen bytes, with `memcmp`. No allocation, no `String`. Knows, for the skip
/// path, what the object is called, the keys Tencent documents for it that IMWire does not read (and
/// why), and its key names, to suggest the key a misspelt one was meant to be.
struct TIMRESTKeyTable: Sendable {
    /// How many keys (slots) there are.
    let count: Int
    /// One key: its length, its first and last eight bytes (little-endian, zero-padded; the last
    /// are 0 for a key of eight bytes or fewer), its slot.
    struct Entry: Sendable {
        let length: Int
        let head: UInt64
        let tail: UInt64
        let slot: Int
    }
    /// The keys, by length.
    private let entries: [Entry]
    /// `firstEntry[n]..<firstEntry[n + 1]`: the entries of the keys of `n` bytes.
    private let firstEntry: [Int]
    /// The keys read, by slot.
    let names: [String]
    /// What the object is, for messages: `a TIMTextElem's MsgContent`.
    let object: String
    /// The keys Tencent documents for this object that the model has no field for, with what each
    /// is (Docs/tim-rest-keys.md): reported as ``SkippedKey/Reason/noField``.
    let documented: [String: String]

    init(_ names: [String], object: String, documented: [String: String] = [:]) {
        count = names.count
        let longest = names.map(\.utf8.count).max() ?? 0
        let sorted = names.enumerated().sorted { ($0.element.utf8.count, $0.offset) < ($1.element.utf8.count, $1.offset) }
        entries = sorted.map { slot, name in
            let bytes = Array(name.utf8)
            return Entry(
                length: bytes.count, head: Self.word(bytes.prefix(8)),
                tail: bytes.count > 8 ? Self.word(bytes.suffix(8)) : 0, slot: slot)
        }
        for (index, entry) in entries.enumerated() where entry.length > 16 {
            precondition(!entries[..<index].contains { $0.length == entry.length && $0.head == entry.head && $0.tail == entry.tail },
                         "two keys of \(object) share their length, first and last eight bytes")
        }
        precondition(entries.count <= Self.bucketCount / 2, "\(object) has more keys than its table's buckets hold")
        var buckets = [Int16](repeating: -1, count: Self.bucketCount)
        for (index, entry) in entries.enumerated() {
            var bucket = Self.bucket(length: entry.length, head: entry.head, tail: entry.tail)
            while buckets[bucket] >= 0 { bucket = (bucket + 1) & (Self.bucketCount - 1) }
            buckets[bucket] = Int16(index)
        }
        self.buckets = buckets
        // The keys of three bytes or more (all of Tencent's), each with its closing quote, as three
        // masked words, hashed by their first four bytes.
        var patterns: [Pattern] = []
        var patternBuckets = [Int16](repeating: -1, count: Self.patternBucketCount)
        for (slot, name) in names.enumerated() where (3...23).contains(name.utf8.count) {
            let quoted = Array(name.utf8) + [UInt8(ascii: "\"")]
            func word(_ at: Int) -> (UInt64, UInt64) {
                let bytes = quoted.dropFirst(at).prefix(8)
                return (Self.word(ArraySlice(bytes)), bytes.count == 8 ? .max : (1 << (UInt64(bytes.count) * 8)) - 1)
            }
            let (w1, m1) = word(0), (w2, m2) = word(8), (w3, m3) = word(16)
            let pattern = Pattern(
                prefix: UInt32(truncatingIfNeeded: w1), words: (w1, w2, w3), masks: (m1, m2, m3), length: name.utf8.count, slot: slot)
            var bucket = Self.patternBucket(pattern.prefix)
            while patternBuckets[bucket] >= 0 { bucket = (bucket + 1) & (Self.patternBucketCount - 1) }
            patternBuckets[bucket] = Int16(patterns.count)
            patterns.append(pattern)
        }
        precondition(patterns.count <= Self.patternBucketCount / 4, "\(object) has more keys than its patterns' buckets hold")
        self.patterns = patterns
        self.patternBuckets = patternBuckets
        firstEntry = (0...longest + 1).map { length in sorted.firstIndex { $0.element.utf8.count >= length } ?? sorted.count }
        self.names = names
        self.object = object
        self.documented = documented
    }

    init<K: TIMRESTObjectKey>(_ keys: K.Type, object: String, documented: [String: String] = [:]) {
        self.init(K.allCases.sorted { $0.rawValue < $1.rawValue }.map(\.name), object: object, documented: documented)
    }

    /// Up to eight bytes as a little-endian word.
    private static func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Every key Tencent documents for this object, read or not: the candidates of a suggestion.
    var documentedNames: [String] { names + documented.keys.sorted() }

    @inline(__always)
    func slot(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        // [unsafe: json-names] eight-byte loads at 0 and at `key.count - 8` only when `key.count >= 8`,
        // single bytes below `key.count` otherwise; `memcmp` of the bytes between the two words (only for
        // keys of more than sixteen bytes, whose name has as many).
        let length = key.count
        guard length + 1 < firstEntry.count, let base = key.baseAddress else { return nil }
        let head: UInt64, tail: UInt64
        if length >= 8 {
            let raw = UnsafeRawPointer(base)
            head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            tail = length > 8 ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)) : 0
        } else {
            var word: UInt64 = 0
            var index = length
            while index > 0 {
                index -= 1
                word = word << 8 | UInt64(base[index])
            }
            head = word
            tail = 0
        }
        guard let slot = slot(length: length, head: head, tail: tail) else { return nil }
        if length > 16, !middleMatches(slot, base, length) { return nil }
        return slot
    }

    /// The slot of the key of `length` bytes whose first and last eight bytes are `head` and `tail`
    /// (as ``Entry`` has them); for a key of sixteen bytes or fewer, that is the key. (Of the longer
    /// keys of one table, no two share their length, first and last eight bytes.)
    @inline(__always)
    func slot(length: Int, head: UInt64, tail: UInt64) -> Int? {
        var bucket = Self.bucket(length: length, head: head, tail: tail)
        while true {
            let index = Int(buckets[bucket])
            if index < 0 { return nil }
            let entry = entries[index]
            if entry.length == length, entry.head == head, entry.tail == tail { return entry.slot }
            bucket = (bucket &+ 1) & (Self.bucketCount &- 1)
        }
    }

    /// A key with its closing quote (`Text"`), as the three words a reader loads from the input at a
    /// key's first byte, with the masks that keep the key's bytes of each.
    struct Pattern: Sendable {
        let prefix: UInt32
        let words: (UInt64, UInt64, UInt64)
        let masks: (UInt64, UInt64, UInt64)
        let length: Int
        let slot: Int
    }
    private let patterns: [Pattern]
    /// Open addressing over the patterns by their first four bytes: a bucket holds a pattern's index
    /// or -1; at most a quarter full.
    private let patternBuckets: [Int16]
    static let patternBucketCount = 128

    @inline(__always)
    static func patternBucket(_ prefix: UInt32) -> Int {
        Int(truncatingIfNeeded: (prefix &* 0x9E37_79B1) &>> 25)
    }

    /// The slot and length of the key whose bytes, and closing quote, start the three words
    /// `first`, `second`, `third` (little-endian, from the byte after the key's opening quote);
    /// `nil` if no key of the table does.
    @inline(__always)
    func slot(first: UInt64, second: UInt64, third: UInt64) -> (slot: Int, length: Int)? {
        let prefix = UInt32(truncatingIfNeeded: first)
        var bucket = Self.patternBucket(prefix)
        while true {
            let index = Int(patternBuckets[bucket])
            if index < 0 { return nil }
            let pattern = patterns[index]
            if pattern.prefix == prefix, first & pattern.masks.0 == pattern.words.0, second & pattern.masks.1 == pattern.words.1,
               third & pattern.masks.2 == pattern.words.2 {
                return (pattern.slot, pattern.length)
            }
            bucket = (bucket &+ 1) & (Self.patternBucketCount &- 1)
        }
    }

    /// Open addressing over the entries: a bucket holds an entry's index or -1; at most half full.
    static let bucketCount = 64
    private let buckets: [Int16]

    @inline(__always)
    static func bucket(length: Int, head: UInt64, tail: UInt64) -> Int {
        Int(truncatingIfNeeded: (((head ^ (tail &* 31)) &+ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
    }

    /// Whether the bytes of a key longer than sixteen bytes, between its first and last eight, are
    /// those of the name at `slot`.
    @inline(never)
    private func middleMatches(_ slot: Int, _ base: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        // [unsafe: json-names] bytes 8..<length-8 of the key, which has `length` bytes, as the name does.
        var name = names[slot]
        return name.withUTF8 { memcmp($0.baseAddress! + 8, base + 8, length - 16) == 0 }
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
