import IMWireCore
import IMWireJSONText

// Part of TIMRESTDecoder (TIMRESTDecoder.swift: the reader's state and the document's shapes), split
// by aspect: the envelope — callback, message head and tail, push info.

extension TIMRESTDecoder {
    // MARK: - Envelope

    /// The root's `CallbackCommand`: a webhook body IMWire knows the keys of, or `nil` (no command,
    /// or one it does not know: ``auditCallbackCommand(_:)`` reports it).
    func callback(_ root: TIMRESTMembers<TIMRESTEnvelopeKey>) throws(IMWireError) -> TIMRESTCallback? {
        guard let value = root[.callbackCommand] else { return nil }
        guard tape[value].kind == .string else { throw wrongType(value, key: "CallbackCommand", expected: "a string") }
        return try tape.withBytes(value) { (bytes) throws(IMWireError) in TIMRESTCallback(bytes: bytes) }
    }

    /// `CallbackCommand` in a message object: callback metadata at the root (a command IMWire does
    /// not know is an unknown value), an unknown key anywhere else.
    @inline(never)
    func auditCallbackCommand(_ object: TIMRESTMembers<TIMRESTEnvelopeKey>) throws(IMWireError) {
        guard let value = object[.callbackCommand] else { return }
        guard path.isRoot else {
            try skip(
                .unknownKey, key: "CallbackCommand", token: value - 1, path: path.rendered(appending: "CallbackCommand"),
                detail: "\"CallbackCommand\" belongs to a webhook body, the root object, not to a message inside it")
            return
        }
        let command = try string(value, key: "CallbackCommand")
        let known = TIMRESTCallback.allCases.map(\.rawValue)
        if known.contains(command) {
            try skip(
                .noField, key: "CallbackCommand", token: value - 1, path: "CallbackCommand",
                detail: "Tencent documents \"CallbackCommand\" (callback metadata: which webhook this is, here \(command)); the model has no field for it")
        } else {
            let suggestion = KeySuggestion.best(for: command, among: known)
            try skip(
                .unknownValue, key: "CallbackCommand", token: value, path: "CallbackCommand", suggestion: suggestion,
                detail: "\"\(command)\" is not a webhook IMWire knows the keys of (\(known.joined(separator: ", "))); its keys are read as a message's, none required"
                    + KeySuggestion.clause(suggestion),
                strictCode: .invalidValue)
        }
    }

    /// A message object: the envelope keys and its `MsgBody`. The keys before and after the body
    /// are read by non-inlined helpers, so that this frame, one per message level on the recursive
    /// path, stays small.
    mutating func message(_ object: TIMRESTMembers<TIMRESTEnvelopeKey>, depth: Int) throws(IMWireError) -> Message {
        try checkDepth(depth)
        var message = try envelopeHead(object)
        guard let body = object[.msgBody] else { throw missing("MsgBody", in: "a message") }
        guard tape[body].kind == .array else { throw wrongType(body, key: "MsgBody", expected: "an array") }
        path.push("MsgBody")
        message.elems = try elems(body, depth: depth + 1)
        path.pop()
        try envelopeTail(object, depth: depth, into: &message)
        return message
    }

    /// The envelope keys before `MsgBody`: sender, target, sequence, random, time, key, priority.
    @inline(never)
    func envelopeHead(_ object: TIMRESTMembers<TIMRESTEnvelopeKey>) throws(IMWireError) -> Message {
        var message = Message()
        message.sender = try string(object, .fromAccount) ?? ""

        let groupID = try string(object, .groupID)
        if let groupID { message.target = .groupID(groupID) }
        if let to = object[.toAccount] {
            switch tape[to].kind {
            case .string:
                guard groupID == nil else {
                    throw .oneofConflict(
                        "a message has one target, but it names both a group (GroupId) and a C2C receiver (To_Account)",
                        path: path.rendered(appending: "To_Account"))
                }
                message.target = .receiver(tape.string(to))
            case .array:
                let receivers = try strings(object, .toAccount) ?? []
                guard groupID != nil else {
                    throw .notRepresentable(
                        "a To_Account array without GroupId is a batch C2C send (batchsendmsg) to \(counted(receivers.count, "user")); a message has one receiver",
                        path: path.rendered(appending: "To_Account"))
                }
                message.targetedReceivers = receivers
            default:
                throw wrongType(to, key: "To_Account", expected: "a string (C2C) or an array of user IDs (targeted group message)")
            }
        }
        message.topicID = try string(object, .topicID) ?? ""

        message.seq = try unsigned(object, .msgSeq) ?? 0
        // C2C and history use MsgRandom, group requests and callbacks Random; MsgRandom wins.
        let msgRandom = try unsigned(object, .msgRandom, max: UInt64(UInt32.max))
        let random = try unsigned(object, .random, max: UInt64(UInt32.max))
        message.random = msgRandom ?? random ?? 0
        // Requests and history use MsgTimeStamp, callbacks MsgTime; MsgTimeStamp wins.
        let stamp = try unsigned(object, .msgTimeStamp, max: UInt64.max / 1000)
        let time = try unsigned(object, .msgTime, max: UInt64.max / 1000)
        message.timestampMs = (stamp ?? time ?? 0) * 1000
        message.msgID = try string(object, .msgKey) ?? ""
        message.priority = try priority(object) ?? .default
        if auditing {
            try disagreement(object, .random, random, .msgRandom, msgRandom)
            try disagreement(object, .msgTime, time, .msgTimeStamp, stamp)
            for key in [TIMRESTEnvelopeKey.msgType, .msgContent] where object[key] != nil {
                try skip(
                    .unknownKey, key: key.name, token: object[key]! - 1, path: path.rendered(appending: key.name),
                    detail: "\"\(key.name)\" is a key of a MsgBody element, not of a message envelope (which has MsgBody)")
            }
            if !path.isRoot { try auditCallbackCommand(object) }
        }
        return message
    }

    /// Reports `other` as overridden when both spellings of one field came with different values
    /// (`Random` next to a different `MsgRandom`): the value of `read` is the one the model holds.
    func disagreement<Value: Equatable>(
        _ object: TIMRESTMembers<TIMRESTEnvelopeKey>, _ other: TIMRESTEnvelopeKey, _ otherValue: Value?,
        _ read: TIMRESTEnvelopeKey, _ readValue: Value?
    ) throws(IMWireError) {
        guard let otherValue, let readValue, otherValue != readValue, let token = object[other] else { return }
        try skip(
            .overridden, key: other.name, token: token - 1, path: path.rendered(appending: other.name),
            detail: "\"\(other.name)\" (\(otherValue)) disagrees with \"\(read.name)\" (\(readValue)), which is read",
            strictCode: .duplicateKey)
    }

    /// The envelope keys after `MsgBody`: custom data, @ list, controls, flags, push info.
    @inline(never)
    mutating func envelopeTail(
        _ object: TIMRESTMembers<TIMRESTEnvelopeKey>, depth: Int, into message: inout Message
    ) throws(IMWireError) {
        if let data = try string(object, .cloudCustomData) { message.cloudCustomData = Array(data.utf8) }

        if let entries = object[.groupAtInfo] {
            guard tape[entries].kind == .array else { throw wrongType(entries, key: "GroupAtInfo", expected: "an array") }
            path.push("GroupAtInfo")
            message.atUserList = try atUserList(entries)
            path.pop()
        }
        if let controls = try strings(object, .sendMsgControl) {
            message.excludedFromUnreadCount = controls.contains("NoUnread")
            message.excludedFromLastMessage = controls.contains("NoLastMsg")
            if auditing { try auditSendMsgControl(controls, object[.sendMsgControl]!) }
        }
        // Group requests and all callbacks say OnlineOnlyFlag (old group docs MsgOnlineOnlyFlag);
        // a C2C sendmsg request says MsgLifeTime 0 ("online users only, not stored").
        let onlineOnly = try flag(object, .onlineOnlyFlag)
        let msgOnlineOnly = try flag(object, .msgOnlineOnlyFlag)
        let lifeTime = try unsigned(object, .msgLifeTime)
        message.onlineUserOnly = (onlineOnly ?? msgOnlineOnly ?? false) || lifeTime == 0
        let isNeedReadReceipt = try flag(object, .isNeedReadReceipt)
        let needReadReceipt = try flag(object, .needReadReceipt)
        message.needReadReceipt = isNeedReadReceipt ?? needReadReceipt ?? false
        if auditing {
            try disagreement(object, .msgOnlineOnlyFlag, msgOnlineOnly, .onlineOnlyFlag, onlineOnly)
            try disagreement(object, .needReadReceipt, needReadReceipt, .isNeedReadReceipt, isNeedReadReceipt)
            try auditLifeTime(object, lifeTime, flags: [(.onlineOnlyFlag, onlineOnly), (.msgOnlineOnlyFlag, msgOnlineOnly)])
        }
        message.supportMessageExtension = try flag(object, .supportMessageExtension) ?? false
        if let push = object[.offlinePushInfo] {
            path.push("OfflinePushInfo")
            try checkDepth(depth + 1)
            message.offlinePushInfo = try offlinePushInfo(try self.object(push, what: "OfflinePushInfo", TIMRESTPushKey.self))
            path.pop()
        }
    }

    /// `MsgLifeTime`: 0 means online users only and is read; another lifetime is the offline
    /// storage time, which the model has no field for; and a flag that says "not online only" next
    /// to lifetime 0 is overridden by it.
    func auditLifeTime(
        _ object: TIMRESTMembers<TIMRESTEnvelopeKey>, _ lifeTime: UInt64?, flags: [(TIMRESTEnvelopeKey, Bool?)]
    ) throws(IMWireError) {
        guard let lifeTime, let token = object[.msgLifeTime] else { return }
        if lifeTime != 0 {
            try skip(
                .noField, key: "MsgLifeTime", token: token - 1, path: path.rendered(appending: "MsgLifeTime"),
                detail: "Tencent documents \"MsgLifeTime\" \(lifeTime) (offline storage time in seconds: delivery control of one request); only 0, online users only, has a field (online_user_only)")
            return
        }
        for (key, value) in flags where value == false {
            try skip(
                .overridden, key: key.name, token: object[key]! - 1, path: path.rendered(appending: key.name),
                detail: "\"\(key.name)\" 0 disagrees with \"MsgLifeTime\" 0 (online users only), which is read",
                strictCode: .invalidValue)
        }
    }

    /// `SendMsgControl` entries the model has no flag for: `WithMuteNotifications` (documented,
    /// delivery control) and any other (unknown).
    func auditSendMsgControl(_ controls: [String], _ array: Int) throws(IMWireError) {
        let documented = ["NoUnread", "NoLastMsg", "WithMuteNotifications"]
        for (index, (token, control)) in zip(tape.elements(of: array), controls).enumerated()
        where control != "NoUnread" && control != "NoLastMsg" {
            let at = path.rendered(appending: "SendMsgControl") + "[\(index)]"
            if control == "WithMuteNotifications" {
                try skip(
                    .noField, key: "SendMsgControl", token: token, path: at,
                    detail: "Tencent documents \"WithMuteNotifications\" (honour the receiver's do-not-disturb: delivery control of one request); the model has no field for it")
            } else {
                let suggestion = KeySuggestion.best(for: control, among: documented)
                try skip(
                    .unknownValue, key: "SendMsgControl", token: token, path: at, suggestion: suggestion,
                    detail: "\"\(control)\" is not a SendMsgControl value (\(documented.joined(separator: ", ")))" + KeySuggestion.clause(suggestion),
                    strictCode: .invalidValue)
            }
        }
    }

    /// `MsgPriority`: "High" / "Normal" / "Low" / "Lowest" (send requests, case-sensitive) or the
    /// number (history: 1 high … 4 lowest).
    func priority(_ object: TIMRESTMembers<TIMRESTEnvelopeKey>) throws(IMWireError) -> Priority? {
        guard let value = object[.msgPriority] else { return nil }
        if tape[value].kind == .string {
            let name = tape.string(value)
            if let priority = TIMRESTPriority.byName[name] { return priority }
            let numeric = try tape.withBytes(value) { (bytes) throws(IMWireError) in
                try JSONScanner.withNumber(in: bytes) { (_, _) throws(IMWireError) in true }
            }
            if numeric == nil {
                throw .invalidValue(
                    "\"MsgPriority\" is \"\(name)\"; Tencent's priorities are High, Normal, Low and Lowest (case-sensitive) or their numbers 1-4",
                    path: path.rendered(appending: "MsgPriority"))
            }
        }
        return try int32(object, .msgPriority).map(Priority.init(rawValue:))
    }

    mutating func atUserList(_ array: Int) throws(IMWireError) -> [String] {
        var list: [String] = []
        list.reserveCapacity(Int(tape[array].count))
        for (index, entry) in tape.elements(of: array).enumerated() {
            path.push(index)
            let object = try self.object(entry, what: "a GroupAtInfo entry", TIMRESTGroupAtKey.self)
            switch try unsigned(object, .groupAtAllFlag) ?? 0 {
            case 1:
                list.append(Message.atAllUserID)
                if auditing, let account = try string(object, .groupAtAccount), !Message.isAtAllUserID(account) {
                    try skip(
                        .overridden, key: "GroupAt_Account", token: object[.groupAtAccount]! - 1,
                        path: path.rendered(appending: "GroupAt_Account"),
                        detail: "\"GroupAt_Account\" (\(account)) is not read: \"GroupAtAllFlag\" 1 mentions everyone",
                        strictCode: .invalidValue)
                }
            case 0:
                guard let id = try string(object, .groupAtAccount) else {
                    throw missing("GroupAt_Account", in: "a GroupAtInfo entry with GroupAtAllFlag 0", object: entry)
                }
                list.append(Message.isAtAllUserID(id) ? Message.atAllUserID : id)
            case let flag:
                throw .invalidValue(
                    "\"GroupAtAllFlag\" is \(flag); it is 1 (@all) or 0 (@GroupAt_Account)",
                    path: path.rendered(appending: "GroupAtAllFlag"))
            }
            path.pop()
        }
        return list
    }

    mutating func offlinePushInfo(_ object: TIMRESTMembers<TIMRESTPushKey>) throws(IMWireError) -> OfflinePushInfo {
        var info = OfflinePushInfo()
        info.disablePush = try flag(object, .pushFlag) ?? false
        info.title = try string(object, .title) ?? ""
        info.desc = try string(object, .desc) ?? ""
        info.ext = try string(object, .ext) ?? ""
        if let android = object[.androidInfo] {
            path.push("AndroidInfo")
            let android = try self.object(android, what: "AndroidInfo", TIMRESTAndroidKey.self)
            info.androidSound = try string(android, .sound) ?? ""
            path.pop()
        }
        if let apns = object[.apnsInfo] {
            path.push("ApnsInfo")
            let apns = try self.object(apns, what: "ApnsInfo", TIMRESTApnsKey.self)
            info.iosSound = try string(apns, .sound) ?? ""
            info.ignoreIOSBadge = try flag(apns, .badgeMode) ?? false
            info.iosTitle = try string(apns, .title) ?? ""
            info.iosSubtitle = try string(apns, .subTitle) ?? ""
            info.iosImage = try string(apns, .image) ?? ""
            info.iosMutableContent = try flag(apns, .mutableContent) ?? false
            path.pop()
        }
        return info
    }
}
