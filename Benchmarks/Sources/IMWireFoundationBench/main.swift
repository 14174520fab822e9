// imwire-foundation-bench: the Codable peer of Scripts/bench's tim-rest table. What a Swift server
// writes without IMWire: Foundation's JSONDecoder into `Codable` structs whose properties are Tencent's
// keys (Docs/tim-rest-keys.md), conformances synthesized, then every property read once. Synthesized
// Codable cannot choose MsgContent's shape by MsgType, so MsgContent is one struct with every content key
// optional. Two keys change type, so their types decode by hand (`init(from:)`): `To_Account`, a string
// in a C2C message and an array of strings in a targeted group message, and `MsgPriority`, a name
// (`High`…) or a number (a history entry's, or a value with no name). The harness is imwire-bench's (Harness.swift): the
// `run` and `digest` commands, implementation "Foundation Codable", operation tim-rest-decode-read (JSON
// Data made from each record untimed), on the tim-rest corpora. The digest is the JSON-value digest of
// Benchmarks/Harness/timrest_corpus.py, computed from the properties read: a key the structs lack, or a
// value read wrong, makes it differ from the reference.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BenchSupport

// MARK: - Tencent's keys

struct TIMMessage: Codable {
    var CallbackCommand: String?
    var From_Account: String?
    var To_Account: TIMAccounts?
    var GroupId: String?
    var TopicId: String?
    var MsgSeq: UInt64?
    var MsgRandom: UInt64?
    var Random: UInt64?
    var MsgTime: UInt64?
    var MsgTimeStamp: UInt64?
    var MsgKey: String?
    var MsgPriority: TIMPriority?
    var MsgBody: [TIMMsgElement]?
    var CloudCustomData: String?
    var GroupAtInfo: [TIMGroupAt]?
    var SendMsgControl: [String]?
    var OnlineOnlyFlag: Int64?
    var MsgOnlineOnlyFlag: Int64?
    var MsgLifeTime: Int64?
    var IsNeedReadReceipt: Int64?
    var NeedReadReceipt: Int64?
    var SupportMessageExtension: Int64?
    var OfflinePushInfo: TIMOfflinePushInfo?
}

/// `To_Account`: one receiver (C2C) or the members a targeted group message goes to.
enum TIMAccounts: Codable {
    case one(String)
    case some([String])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let id = try? container.decode(String.self) {
            self = .one(id)
        } else {
            self = .some(try container.decode([String].self))
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .one(let id): try container.encode(id)
        case .some(let ids): try container.encode(ids)
        }
    }
}

/// `MsgPriority`: a name or a number.
enum TIMPriority: Codable {
    case name(String)
    case number(Int64)

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let name = try? container.decode(String.self) {
            self = .name(name)
        } else {
            self = .number(try container.decode(Int64.self))
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .name(let name): try container.encode(name)
        case .number(let number): try container.encode(number)
        }
    }
}

struct TIMMsgElement: Codable {
    var MsgType: String?
    var MsgContent: TIMMsgContent?
}

/// Every MsgType's content keys in one struct (synthesized Codable cannot switch on MsgType).
struct TIMMsgContent: Codable {
    var Text: String?  // TIMTextElem
    var Desc: String?  // TIMLocationElem, TIMCustomElem
    var Latitude: Double?
    var Longitude: Double?
    var Index: Int64?  // TIMFaceElem
    var Data: String?  // TIMFaceElem, TIMCustomElem
    var Ext: String?  // TIMCustomElem
    var Sound: String?
    var Url: String?  // TIMSoundElem, TIMFileElem
    var UUID: String?  // TIMSoundElem, TIMFileElem, TIMImageElem
    var Size: UInt64?
    var Second: UInt64?
    var Download_Flag: Int64?
    var ImageFormat: Int64?  // TIMImageElem
    var ImageInfoArray: [TIMImageInfo]?
    var FileSize: UInt64?  // TIMFileElem
    var FileName: String?
    var VideoUrl: String?  // TIMVideoFileElem
    var VideoUUID: String?
    var VideoSize: UInt64?
    var VideoSecond: UInt64?
    var VideoFormat: String?
    var VideoDownloadFlag: Int64?
    var ThumbUrl: String?
    var ThumbUUID: String?
    var ThumbSize: UInt64?
    var ThumbWidth: UInt64?
    var ThumbHeight: UInt64?
    var ThumbFormat: String?
    var ThumbDownloadFlag: Int64?
    var Title: String?  // TIMRelayElem
    var MsgNum: UInt64?
    var CompatibleText: String?
    var AbstractList: [String]?
    var MsgList: [TIMMessage]?
    var JsonMsgKey: String?
}

struct TIMImageInfo: Codable {
    var `Type`: Int64?
    var Size: UInt64?
    var Width: UInt64?
    var Height: UInt64?
    var URL: String?
}

struct TIMGroupAt: Codable {
    var GroupAtAllFlag: Int64?
    var GroupAt_Account: String?
}

struct TIMOfflinePushInfo: Codable {
    var PushFlag: Int64?
    var Title: String?
    var Desc: String?
    var Ext: String?
    var AndroidInfo: TIMAndroidInfo?
    var ApnsInfo: TIMApnsInfo?
}

struct TIMAndroidInfo: Codable {
    var Sound: String?
}

struct TIMApnsInfo: Codable {
    var Sound: String?
    var BadgeMode: Int64?
    var Title: String?
    var SubTitle: String?
    var Image: String?
    var MutableContent: Int64?
}

// MARK: - The walk: every property read once, folded into the JSON-value digest

enum Walk {
    // A present key: its UTF-8 length plus its value's digest; an absent one: 0.
    @inline(__always) static func k(_ key: StaticString) -> UInt64 { UInt64(key.utf8CodeUnitCount) }
    @inline(__always) static func s(_ key: StaticString, _ v: String?) -> UInt64 {
        guard let v else { return 0 }
        return k(key) &+ UInt64(v.utf8.count)
    }
    @inline(__always) static func u(_ key: StaticString, _ v: UInt64?) -> UInt64 {
        guard let v else { return 0 }
        return k(key) &+ v
    }
    @inline(__always) static func i(_ key: StaticString, _ v: Int64?) -> UInt64 {
        guard let v else { return 0 }
        return k(key) &+ UInt64(bitPattern: v)
    }
    @inline(__always) static func d(_ key: StaticString, _ v: Double?) -> UInt64 {
        guard let v else { return 0 }
        if v == v.rounded(.down) && v >= -9223372036854775808.0 && v < 18446744073709551616.0 {
            return k(key) &+ (v < 0 ? UInt64(bitPattern: Int64(v)) : UInt64(v))
        }
        return k(key) &+ v.bitPattern
    }
    @inline(__always) static func strings(_ key: StaticString, _ v: [String]?) -> UInt64 {
        guard let v else { return 0 }
        var sum: UInt64 = 1
        for e in v { sum &+= UInt64(e.utf8.count) }
        return k(key) &+ sum
    }
    @inline(__always) static func array<T>(_ key: StaticString, _ v: [T]?, _ walk: (T) -> UInt64) -> UInt64 {
        guard let v else { return 0 }
        var sum: UInt64 = 1
        for e in v { sum &+= walk(e) }
        return k(key) &+ sum
    }
    @inline(__always) static func object<T>(_ key: StaticString, _ v: T?, _ walk: (T) -> UInt64) -> UInt64 {
        guard let v else { return 0 }
        return k(key) &+ walk(v)
    }

    static func message(_ m: TIMMessage) -> UInt64 {
        var sum: UInt64 = 1
        sum &+= s("CallbackCommand", m.CallbackCommand) &+ s("From_Account", m.From_Account)
        switch m.To_Account {
        case .one(let id)?: sum &+= s("To_Account", id)
        case .some(let ids)?: sum &+= strings("To_Account", ids)
        case nil: break
        }
        sum &+= s("GroupId", m.GroupId) &+ s("TopicId", m.TopicId)
        sum &+= u("MsgSeq", m.MsgSeq) &+ u("MsgRandom", m.MsgRandom) &+ u("Random", m.Random)
        sum &+= u("MsgTime", m.MsgTime) &+ u("MsgTimeStamp", m.MsgTimeStamp)
        sum &+= s("MsgKey", m.MsgKey)
        switch m.MsgPriority {
        case .name(let name)?: sum &+= s("MsgPriority", name)
        case .number(let number)?: sum &+= i("MsgPriority", number)
        case nil: break
        }
        sum &+= array("MsgBody", m.MsgBody, element)
        sum &+= s("CloudCustomData", m.CloudCustomData)
        sum &+= array("GroupAtInfo", m.GroupAtInfo) { 1 &+ i("GroupAtAllFlag", $0.GroupAtAllFlag) &+ s("GroupAt_Account", $0.GroupAt_Account) }
        sum &+= strings("SendMsgControl", m.SendMsgControl)
        sum &+= i("OnlineOnlyFlag", m.OnlineOnlyFlag) &+ i("MsgOnlineOnlyFlag", m.MsgOnlineOnlyFlag)
        sum &+= i("MsgLifeTime", m.MsgLifeTime) &+ i("IsNeedReadReceipt", m.IsNeedReadReceipt)
        sum &+= i("NeedReadReceipt", m.NeedReadReceipt) &+ i("SupportMessageExtension", m.SupportMessageExtension)
        sum &+= object("OfflinePushInfo", m.OfflinePushInfo, offlinePushInfo)
        return sum
    }

    static func element(_ e: TIMMsgElement) -> UInt64 {
        1 &+ s("MsgType", e.MsgType) &+ object("MsgContent", e.MsgContent, content)
    }

    static func content(_ c: TIMMsgContent) -> UInt64 {
        var sum: UInt64 = 1
        sum &+= s("Text", c.Text) &+ s("Desc", c.Desc) &+ d("Latitude", c.Latitude) &+ d("Longitude", c.Longitude)
        sum &+= i("Index", c.Index) &+ s("Data", c.Data) &+ s("Ext", c.Ext) &+ s("Sound", c.Sound)
        sum &+= s("Url", c.Url) &+ s("UUID", c.UUID) &+ u("Size", c.Size) &+ u("Second", c.Second)
        sum &+= i("Download_Flag", c.Download_Flag) &+ i("ImageFormat", c.ImageFormat)
        sum &+= array("ImageInfoArray", c.ImageInfoArray) { info in
            1 &+ i("Type", info.`Type`) &+ u("Size", info.Size) &+ u("Width", info.Width) &+ u("Height", info.Height)
                &+ s("URL", info.URL)
        }
        sum &+= u("FileSize", c.FileSize) &+ s("FileName", c.FileName)
        sum &+= s("VideoUrl", c.VideoUrl) &+ s("VideoUUID", c.VideoUUID) &+ u("VideoSize", c.VideoSize)
        sum &+= u("VideoSecond", c.VideoSecond) &+ s("VideoFormat", c.VideoFormat) &+ i("VideoDownloadFlag", c.VideoDownloadFlag)
        sum &+= s("ThumbUrl", c.ThumbUrl) &+ s("ThumbUUID", c.ThumbUUID) &+ u("ThumbSize", c.ThumbSize)
        sum &+= u("ThumbWidth", c.ThumbWidth) &+ u("ThumbHeight", c.ThumbHeight) &+ s("ThumbFormat", c.ThumbFormat)
        sum &+= i("ThumbDownloadFlag", c.ThumbDownloadFlag)
        sum &+= s("Title", c.Title) &+ u("MsgNum", c.MsgNum) &+ s("CompatibleText", c.CompatibleText)
        sum &+= strings("AbstractList", c.AbstractList) &+ array("MsgList", c.MsgList, message)
        sum &+= s("JsonMsgKey", c.JsonMsgKey)
        return sum
    }

    static func offlinePushInfo(_ p: TIMOfflinePushInfo) -> UInt64 {
        var sum: UInt64 = 1
        sum &+= i("PushFlag", p.PushFlag) &+ s("Title", p.Title) &+ s("Desc", p.Desc) &+ s("Ext", p.Ext)
        sum &+= object("AndroidInfo", p.AndroidInfo) { 1 &+ s("Sound", $0.Sound) }
        sum &+= object("ApnsInfo", p.ApnsInfo) { a in
            1 &+ s("Sound", a.Sound) &+ i("BadgeMode", a.BadgeMode) &+ s("Title", a.Title) &+ s("SubTitle", a.SubTitle)
                &+ s("Image", a.Image) &+ i("MutableContent", a.MutableContent)
        }
        return sum
    }
}

// MARK: - The harness

let foundationCodable = HarnessImplementation(
    name: "Foundation Codable",
    workload: { operation, corpus in
        guard operation == .timRESTDecodeRead, !corpus.timREST.isEmpty else { return nil }
        let inputs = corpus.timREST.map { Data($0) }
        let decoder = JSONDecoder()
        return Workload(
            implementation: "Foundation Codable", operation: operation, corpus: corpus,
            size: (inputs.count, corpus.timRESTBytes)
        ) {
            for input in inputs { blackHole(Walk.message(try decoder.decode(TIMMessage.self, from: input))) }
        }
    },
    digests: { corpus in
        guard !corpus.timREST.isEmpty else { return [] }
        let decoder = JSONDecoder()
        var sum: UInt64 = 0
        for record in corpus.timREST { sum &+= Walk.message(try decoder.decode(TIMMessage.self, from: Data(record))) }
        return [("", sum)]
    },
    memory: { _, _ in [] })

runHarness("imwire-foundation-bench", [foundationCodable], arguments: Array(CommandLine.arguments.dropFirst()))
