/// Reads Tencent Cloud IM REST JSON ("tim-rest") into a ``Message``.
///
/// The input is tokenized once into a flat ``JSONTape`` by the lexer both JSON dialects share (UTF-8,
/// escapes, numbers, duplicate keys, depth and size limits as for proto3 JSON), then mapped key by
/// key: each object's members are matched against the keys its kind documents in one pass, by their
/// bytes, and each value is read once, straight into the model. Time and memory are linear in the
/// input whatever its shape; paths for errors are put together only when there is an error.
///
/// Accepted shapes: a bare `MsgBody` array, a single `{"MsgType", "MsgContent"}` element, or any
/// object holding `MsgBody` (a `sendmsg` / `send_group_msg` request, a `*.CallbackAfterSendMsg`
/// webhook body, a history entry, a `MsgList` entry). A webhook body (`CallbackCommand`) must have
/// the keys Tencent always sends for its kind (``TIMRESTCallback``). Keys the model has no field
/// for, and keys Tencent does not document, are skipped: reported when the caller asks for a
/// ``DecodingReport`` (or refused with ``TIMRESTDecodingOptions/rejectsUnknownKeys``), with the key
/// a misspelt one was probably meant to be. Docs/tim-rest-keys.md lists every documented key.
///
/// The report costs nothing until it is asked for: objects are read through their key tables as
/// always, and only a reporting (or strict) decode walks each object's keys a second time for the
/// ones no table holds.
struct TIMRESTDecoder {
    private let tape: JSONTape
    private let maxDepth: Int
    private var path = TIMRESTPath()
    private var stackGuard = StackGuard()
    /// Where skipped keys go when the caller asked for a report; `nil` otherwise.
    private let skips: UnsafeMutablePointer<[SkippedKey]>?
    /// ``TIMRESTDecodingOptions/rejectsUnknownKeys``.
    private let rejectsUnknownKeys: Bool
    /// Whether skipped keys are looked for: for a report, or to refuse them.
    private var auditing: Bool { skips != nil || rejectsUnknownKeys }

    static func decode(_ buffer: UnsafeBufferPointer<UInt8>, options: TIMRESTDecodingOptions) throws(IMWireError) -> Message {
        try decode(buffer, options: options, skips: nil)
    }

    /// Decodes as ``decode(_:options:)`` and replaces `report`'s content with the keys skipped.
    static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, options: TIMRESTDecodingOptions, report: inout DecodingReport
    ) throws(IMWireError) -> Message {
        var skips: [SkippedKey] = []
        let message = try withUnsafeMutablePointer(to: &skips) { (pointer) throws(IMWireError) in
            try decode(buffer, options: options, skips: pointer)
        }
        report = DecodingReport(skippedKeys: skips)
        return message
    }

    private static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, options: TIMRESTDecodingOptions, skips: UnsafeMutablePointer<[SkippedKey]>?
    ) throws(IMWireError) -> Message {
        guard buffer.count <= options.maxInputSize else {
            throw .inputTooLarge(size: buffer.count, limit: options.maxInputSize)
        }
        let jsonDepth = Self.jsonDepth(forMessageDepth: options.maxDepth)
        let tape: JSONTape
        do {
            tape = try JSONTape(buffer, maxDepth: jsonDepth)
        } catch where error.code == .depthLimitExceeded {
            // The lexer's limit is derived from maxDepth: say it in the terms the caller set.
            throw .timRESTDepthLimitExceeded(limit: options.maxDepth, jsonDepth: jsonDepth, offset: error.offset)
        }
        var decoder = TIMRESTDecoder(tape: tape, options: options, skips: skips)
        do {
            return try decoder.document()
        } catch {
            // Errors about the document as a whole have the empty path: locate them at its start.
            guard error.path?.isEmpty ?? true, error.offset == nil else { throw error }
            throw error.at(offset: 0)
        }
    }

    /// The JSON nesting that `messageDepth` message levels need at most: each relay layer is three
    /// message levels (message, elem, content) and five JSON levels (message object, MsgBody array,
    /// element object, MsgContent object, MsgList array); the deepest leaf (an ImageInfoArray entry,
    /// GroupAtInfo, ApnsInfo) adds a few more. Deeper JSON — also inside ignored keys — is refused
    /// by the lexer.
    static func jsonDepth(forMessageDepth messageDepth: Int) -> Int {
        let depth = max(messageDepth, 1)
        return depth > Int.max / 8 ? Int.max : depth * 5 / 3 + 8
    }

    private init(tape: JSONTape, options: TIMRESTDecodingOptions, skips: UnsafeMutablePointer<[SkippedKey]>?) {
        self.tape = tape
        self.maxDepth = options.maxDepth
        self.skips = skips
        self.rejectsUnknownKeys = options.rejectsUnknownKeys
    }

    // MARK: - Shapes

    private mutating func document() throws(IMWireError) -> Message {
        switch tape[0].kind {
        case .array:
            try checkDepth(1)
            var message = Message()
            message.elems = try elems(0, depth: 2)
            return message
        case .object:
            // Read before the shape is known: the keys no table holds are looked for below, once
            // the object's kind is.
            let members = TIMRESTMembers<TIMRESTEnvelopeKey>(slots: slots(0, TIMRESTEnvelopeKey.table), index: 0)
            let callback = try callback(members)
            if let callback {
                for key in callback.requiredKeys where members[key] == nil {
                    throw missing(key.name, in: "a \(callback.rawValue) body", object: 0, atKey: true)
                }
            }
            if callback != nil || members[.msgBody] != nil {
                if auditing {
                    try auditCallbackCommand(members)
                    try audit(0, TIMRESTEnvelopeKey.table, object: callback.map { "a \($0.rawValue) body" })
                }
                return try message(members, depth: 1)
            }
            if members[.msgType] != nil || members[.msgContent] != nil {
                try checkDepth(1)
                var message = Message()
                message.elems = [try elem(0, depth: 2)]
                return message
            }
            let meant = suggestion(for: "MsgBody", in: 0) ?? suggestion(for: "MsgType", in: 0)
            throw .missingField(
                "the input object has neither \"MsgBody\" (a message) nor \"MsgType\" (a single element)"
                    + KeySuggestion.clause(meant),
                offset: 0)
        default:
            throw .invalidValue(
                "expected a MsgBody array or a JSON object, found \(typeName(0))",
                offset: 0)
        }
    }

    private mutating func checkDepth(_ depth: Int) throws(IMWireError) {
        guard depth <= maxDepth else {
            throw .depthLimitExceeded(.timREST, limit: maxDepth, path: path.renderedOrNil)
        }
        try stackGuard.check(depth: depth, path: path.renderedOrNil)
    }

    // MARK: - Envelope

    /// The root's `CallbackCommand`: a webhook body IMWire knows the keys of, or `nil` (no command,
    /// or one it does not know: ``auditCallbackCommand(_:)`` reports it).
    private func callback(_ root: TIMRESTMembers<TIMRESTEnvelopeKey>) throws(IMWireError) -> TIMRESTCallback? {
        guard let value = root[.callbackCommand] else { return nil }
        guard tape[value].kind == .string else { throw wrongType(value, key: "CallbackCommand", expected: "a string") }
        return try tape.withBytes(value) { (bytes) throws(IMWireError) in TIMRESTCallback(bytes: bytes) }
    }

    /// `CallbackCommand` in a message object: callback metadata at the root (a command IMWire does
    /// not know is an unknown value), an unknown key anywhere else.
    @inline(never)
    private func auditCallbackCommand(_ object: TIMRESTMembers<TIMRESTEnvelopeKey>) throws(IMWireError) {
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
    private mutating func message(_ object: TIMRESTMembers<TIMRESTEnvelopeKey>, depth: Int) throws(IMWireError) -> Message {
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
    private func envelopeHead(_ object: TIMRESTMembers<TIMRESTEnvelopeKey>) throws(IMWireError) -> Message {
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
    private func disagreement<Value: Equatable>(
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
    private mutating func envelopeTail(
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
    private func auditLifeTime(
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
    private func auditSendMsgControl(_ controls: [String], _ array: Int) throws(IMWireError) {
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
    private func priority(_ object: TIMRESTMembers<TIMRESTEnvelopeKey>) throws(IMWireError) -> Priority? {
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

    private mutating func atUserList(_ array: Int) throws(IMWireError) -> [String] {
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

    private mutating func offlinePushInfo(_ object: TIMRESTMembers<TIMRESTPushKey>) throws(IMWireError) -> OfflinePushInfo {
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

    // MARK: - Elements

    private mutating func elems(_ array: Int, depth: Int) throws(IMWireError) -> [Elem] {
        var elems: [Elem] = []
        elems.reserveCapacity(Int(tape[array].count))
        for (index, value) in tape.elements(of: array).enumerated() {
            path.push(index)
            elems.append(try elem(value, depth: depth))
            path.pop()
        }
        return elems
    }

    private mutating func elem(_ value: Int, depth: Int) throws(IMWireError) -> Elem {
        try checkDepth(depth)
        let (type, contentValue) = try elemType(value)
        path.push("MsgContent")
        defer { path.pop() }
        try checkDepth(depth + 1)
        switch type {
        case .image: return .image(try image(contentValue, depth: depth + 1))
        case .relay: return .merger(try relay(contentValue, depth: depth + 1))
        default: return try flatElem(type, contentValue)
        }
    }

    /// A `MsgBody` element's type and the tape index of its `MsgContent` object.
    @inline(never)
    private func elemType(_ value: Int) throws(IMWireError) -> (TIMRESTMsgType, Int) {
        // The root object read as a single element: its envelope keys, if any, are not read.
        let name = value == 0 ? "a single MsgBody element (an object without MsgBody)" : nil
        let object = try self.object(value, what: "a MsgBody element", TIMRESTElementKey.self, object: name)
        guard let typeName = try string(object, .msgType) else { throw missing("MsgType", in: "a MsgBody element", object: value) }
        guard let type = TIMRESTMsgType(rawValue: typeName) else {
            let names = TIMRESTMsgType.allCases.map(\.rawValue)
            throw .unknownMsgType(
                "MsgType \"\(typeName)\" is not one of \(names.joined(separator: ", "))"
                    + KeySuggestion.clause(KeySuggestion.best(for: typeName, among: names)),
                path: path.rendered(appending: "MsgType"))
        }
        guard let contentValue = object[.msgContent] else { throw missing("MsgContent", in: "a \(typeName) element", object: value) }
        guard tape[contentValue].kind == .object else {
            throw .invalidValue(
                "expected the MsgContent of a \(typeName) as a JSON object, found \(self.typeName(contentValue))",
                path: path.rendered(appending: "MsgContent"))
        }
        return (type, contentValue)
    }

    /// An elem whose content is flat (every type but image and relay).
    @inline(never)
    private func flatElem(_ type: TIMRESTMsgType, _ value: Int) throws(IMWireError) -> Elem {
        let typeName = type.rawValue
        switch type {
        case .text: return .text(try flat(TIMRESTContent.text, value, typeName))
        case .location: return .location(try flat(TIMRESTContent.location, value, typeName))
        case .face: return .face(try flat(TIMRESTContent.face, value, typeName))
        case .custom: return .custom(try flat(TIMRESTContent.custom, value, typeName))
        case .sound: return .sound(try flat(TIMRESTContent.sound, value, typeName))
        case .file: return .file(try flat(TIMRESTContent.file, value, typeName))
        case .video: return .video(try flat(TIMRESTContent.video, value, typeName))
        case .image, .relay: preconditionFailure("not flat")
        }
    }

    /// A flat content object read by its key table.
    private func flat<Content: TIMRESTDefaultInitializable>(
        _ table: TIMRESTContentTable<Content>, _ value: Int, _ typeName: String
    ) throws(IMWireError) -> Content {
        let object = slots(value, table.keys)
        if auditing { try audit(value, table.keys) }
        var content = Content()
        for (slot, field) in table.fields.enumerated() {
            guard let value = object[slot] else {
                if field.required { throw missing(field.key, in: withArticle(typeName), object: value) }
                continue
            }
            switch field.kind {
            case .string(let keyPath):
                content[keyPath: keyPath] = try string(value, key: field.key)
            case .utf8Bytes(let keyPath):
                content[keyPath: keyPath] = Array(try string(value, key: field.key).utf8)
            case .uint64(let keyPath):
                content[keyPath: keyPath] = try unsigned(value, key: field.key, max: .max)
            case .uint32(let keyPath):
                content[keyPath: keyPath] = UInt32(try unsigned(value, key: field.key, max: UInt64(UInt32.max)))
            case .int32(let keyPath):
                content[keyPath: keyPath] = try int32(value, key: field.key)
            case .double(let keyPath):
                content[keyPath: keyPath] = try double(value, key: field.key)
            case .downloadFlag:
                let flag = try unsigned(value, key: field.key, max: .max)
                if auditing, flag != UInt64(timRESTDownloadFlag) {
                    try skip(
                        .noField, key: field.key, token: value - 1, path: path.rendered(appending: field.key),
                        detail: "\"\(field.key)\" is \(flag); Tencent REST documents only \(timRESTDownloadFlag) (download from the URL), which is written back, and the model has no field for it")
                }
            }
        }
        return content
    }

    private mutating func image(_ value: Int, depth: Int) throws(IMWireError) -> ImageElem {
        let object = try members(value, TIMRESTImageKey.self)
        var image = ImageElem()
        guard let uuid = try string(object, .uuid) else { throw missing("UUID", in: "a TIMImageElem", object: value) }
        if let format = try int32(object, .imageFormat) { image.format = ImageFormat(rawValue: format) }
        guard let infos = object[.imageInfoArray] else { throw missing("ImageInfoArray", in: "a TIMImageElem", object: value) }
        guard tape[infos].kind == .array else { throw wrongType(infos, key: "ImageInfoArray", expected: "an array") }
        path.push("ImageInfoArray")
        defer { path.pop() }
        if tape[infos].count == 0, !uuid.isEmpty {
            // The model keeps REST's one UUID on each Image; with no Image there is nowhere to keep it.
            throw .notRepresentable(
                "a TIMImageElem with a UUID and an empty ImageInfoArray cannot be represented (the UUID is kept on each image)",
                path: path.renderedOrNil)
        }
        image.images.reserveCapacity(Int(tape[infos].count))
        for (index, info) in tape.elements(of: infos).enumerated() {
            path.push(index)
            try checkDepth(depth + 1)
            guard tape[info].kind == .object else {
                throw .invalidValue(
                    "expected an ImageInfoArray entry as a JSON object, found \(typeName(info))",
                    path: path.renderedOrNil)
            }
            var entry: Image = try flat(TIMRESTContent.image, info, "ImageInfoArray entry")
            entry.uuid = uuid
            image.images.append(entry)
            path.pop()
        }
        return image
    }

    private mutating func relay(_ value: Int, depth: Int) throws(IMWireError) -> MergerElem {
        let object = try members(value, TIMRESTRelayKey.self)
        var merger = try relayHead(object)
        if let list = object[.msgList] {
            path.push("MsgList")
            // Collected in a local array and stored once: `merger.messages` is a computed property
            // (NestedMessages storage), and appending through it costs an accessor call per message.
            var messages: [Message] = []
            messages.reserveCapacity(Int(tape[list].count))
            for (index, entry) in tape.elements(of: list).enumerated() {
                path.push(index)
                let members = try self.object(entry, what: "a MsgList message", TIMRESTEnvelopeKey.self)
                messages.append(try message(members, depth: depth + 1))
                path.pop()
            }
            merger.messages = messages
            path.pop()
        }
        return merger
    }

    /// A relay's keys but its `MsgList` (checked: an array, or else a `JsonMsgKey`).
    @inline(never)
    private func relayHead(_ object: TIMRESTMembers<TIMRESTRelayKey>) throws(IMWireError) -> MergerElem {
        var merger = MergerElem()
        merger.title = try string(object, .title) ?? ""
        let messageCount = try unsigned(object, .msgNum, max: UInt64(UInt32.max))
        merger.compatibleText = try string(object, .compatibleText) ?? ""
        merger.abstractList = try strings(object, .abstractList) ?? []
        let key = try string(object, .jsonMsgKey)
        switch (object[.msgList], key) {
        case (let list?, nil):
            guard tape[list].kind == .array else { throw wrongType(list, key: "MsgList", expected: "an array") }
            // MsgNum next to MsgList counts it: the list is read, a count that disagrees is not.
            if auditing, let messageCount, messageCount != UInt64(tape[list].count) {
                try skip(
                    .overridden, key: "MsgNum", token: object[.msgNum]! - 1, path: path.rendered(appending: "MsgNum"),
                    detail: "\"MsgNum\" (\(messageCount)) disagrees with the \(counted(tape[list].count, "message")) of \"MsgList\", which are read",
                    strictCode: .invalidValue)
            }
        case (nil, let key?):
            // An empty key would read back as a merger with neither key nor messages.
            guard !key.isEmpty else {
                throw .invalidValue(
                    "\"JsonMsgKey\" is empty; Tencent's download keys are not",
                    path: path.rendered(appending: "JsonMsgKey"))
            }
            merger.jsonMsgKey = key
            merger.msgNum = UInt32(messageCount ?? 0)
        case (nil, nil):
            throw .missingField(
                "a TIMRelayElem has neither \"MsgList\" nor \"JsonMsgKey\""
                    + KeySuggestion.clause(suggestion(for: "MsgList", in: object.index) ?? suggestion(for: "JsonMsgKey", in: object.index)),
                path: path.renderedOrNil)
        case (_?, _?):
            throw .invalidValue(
                "a TIMRelayElem has both \"MsgList\" and \"JsonMsgKey\"; Tencent sends one or the other",
                path: path.rendered(appending: "JsonMsgKey"))
        }
        return merger
    }

    // MARK: - Objects

    /// The members of the object at `index` that `table` knows, by slot (a key's slot is its
    /// index in the table).
    private func slots(_ index: Int, _ table: TIMRESTKeyTable) -> TIMRESTSlots {
        var values = [Int32](repeating: -1, count: table.count)
        for (key, value) in tape.members(of: index) where tape[value].kind != .null {
            let slot = try? tape.withBytes(key) { (bytes) throws(IMWireError) in table.slot(of: bytes) }
            if let slot = slot ?? nil { values[slot] = Int32(value) }
        }
        return TIMRESTSlots(values: values)
    }

    /// The members of the object at `index` (the current path), by `Key`; its other keys audited.
    private func members<Key: TIMRESTObjectKey>(_ index: Int, _ keys: Key.Type, object name: String? = nil) throws(IMWireError) -> TIMRESTMembers<Key> {
        if auditing { try audit(index, Key.table, object: name) }
        return TIMRESTMembers(slots: slots(index, Key.table), index: index)
    }

    /// `index` as an object of `Key`s; `invalid_value` (at the current path) otherwise.
    private func object<Key: TIMRESTObjectKey>(
        _ index: Int, what: String, _ keys: Key.Type, object name: String? = nil
    ) throws(IMWireError) -> TIMRESTMembers<Key> {
        guard tape[index].kind == .object else {
            throw .invalidValue("expected \(what) as a JSON object, found \(typeName(index))", path: path.renderedOrNil)
        }
        return try members(index, keys, object: name)
    }

    // MARK: - Skipped keys

    /// The keys of the object at `index` (the current path) that `table` does not hold: each a
    /// documented key the model has no field for, or an unknown one (with the key it was probably
    /// meant to be). Runs only when auditing.
    @inline(never)
    private func audit(_ index: Int, _ table: TIMRESTKeyTable, object name: String? = nil) throws(IMWireError) {
        for (key, _) in tape.members(of: index) {
            let slot = try? tape.withBytes(key) { (bytes) throws(IMWireError) in table.slot(of: bytes) }
            guard (slot ?? nil) == nil else { continue }
            let keyName = tape.string(key)
            let at = path.rendered(appending: keyName)
            if let note = table.documented[keyName] {
                try skip(.noField, key: keyName, token: key, path: at,
                         detail: "Tencent documents \"\(keyName)\" (\(note)); the model has no field for it")
            } else {
                let suggestion = KeySuggestion.best(for: keyName, among: table.documentedNames)
                try skip(.unknownKey, key: keyName, token: key, path: at, suggestion: suggestion,
                         detail: "\"\(keyName)\" is not a key of \(name ?? table.object)" + KeySuggestion.clause(suggestion))
            }
        }
    }

    /// How strict decoding refuses what a report would record: each with its code's factory.
    enum StrictRefusal {
        case unknownField, invalidValue, duplicateKey

        func error(_ detail: String, path: String) -> IMWireError {
            switch self {
            case .unknownField: .unknownField(detail, path: path)
            case .invalidValue: .invalidValue(detail, path: path)
            case .duplicateKey: .duplicateKey(detail, path: path)
            }
        }
    }

    /// Records a skipped key (or value) when a report was asked for; refuses it with `strictCode`
    /// instead under ``TIMRESTDecodingOptions/rejectsUnknownKeys`` when its reason is one strict
    /// decoding refuses. `token` is the tape index of the key (or value), for its offset.
    private func skip(
        _ reason: SkippedKey.Reason, key: String, token: Int, path: String, suggestion: String? = nil, detail: String,
        strictCode: StrictRefusal = .unknownField
    ) throws(IMWireError) {
        if rejectsUnknownKeys, reason.isRefusedWhenStrict {
            throw strictCode.error(detail, path: path)
        }
        guard let skips else { return }
        let found = tape[token]
        // A string's bytes start after its quote; an escaped one's are not in the input.
        let offset: Int? = found.isUnescaped ? nil : Int(found.start) - (found.kind == .string ? 1 : 0)
        skips.pointee.append(SkippedKey(reason: reason, key: key, path: path, offset: offset, suggestion: suggestion, detail: detail))
    }

    /// A key of the object at `index` that differs from `key` only by ASCII case or underscores.
    private func suggestion(for key: String, in index: Int) -> String? {
        guard tape[index].kind == .object else { return nil }
        return KeySuggestion.best(for: key, among: tape.members(of: index).lazy.map { self.tape.string($0.key) })
    }

    // MARK: - Errors

    /// `missing_field` for `key`, at the current path (or at the key itself: `atKey`), with the key
    /// of `object` it was probably meant to be.
    private func missing(_ key: String, in what: String, object: Int? = nil, atKey: Bool = false) -> IMWireError {
        let meant = object.flatMap { self.suggestion(for: key, in: $0) }
        return .missingField(
            "\(what) has no \"\(key)\"" + KeySuggestion.clause(meant),
            path: atKey ? path.rendered(appending: key) : path.renderedOrNil)
    }

    private func wrongType(_ value: Int, key: String, expected: String) -> IMWireError {
        .invalidValue("\"\(key)\" must be \(expected), found \(typeName(value))", path: path.rendered(appending: key))
    }

    /// "an object", "a string", … for error messages.
    private func typeName(_ index: Int) -> String {
        switch tape[index].kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "the number \(tape.string(index))"
        case .true: "true"
        case .false: "false"
        case .null: "null"
        }
    }

    // MARK: - Typed values
    //
    // Numbers follow Tencent's habits: an integer may come as a JSON number or as a string holding
    // one (`"EventTime": "1670574414123"`), a flag as `0`/`1` (any non-zero number is set),
    // `true`/`false` or such a string. Wrong types fail with `invalid_value`, malformed numbers with
    // `invalid_number`, numbers beyond the field's range with `number_out_of_range`; every error
    // names the REST path of the value (`MsgBody[1].MsgContent.Index`).

    private func string<Key>(_ object: TIMRESTMembers<Key>, _ key: Key) throws(IMWireError) -> String? {
        guard let value = object[key] else { return nil }
        return try string(value, key: key.name)
    }

    private func string(_ value: Int, key: String) throws(IMWireError) -> String {
        guard tape[value].kind == .string else { throw wrongType(value, key: key, expected: "a string") }
        return tape.string(value)
    }

    private func strings<Key>(_ object: TIMRESTMembers<Key>, _ key: Key) throws(IMWireError) -> [String]? {
        guard let array = object[key] else { return nil }
        guard tape[array].kind == .array else { throw wrongType(array, key: key.name, expected: "an array") }
        var strings: [String] = []
        strings.reserveCapacity(Int(tape[array].count))
        for (index, element) in tape.elements(of: array).enumerated() {
            guard tape[element].kind == .string else {
                throw .invalidValue(
                    "\"\(key.name)\" must hold strings, found \(typeName(element))",
                    path: path.rendered(appending: key.name) + "[\(index)]")
            }
            strings.append(tape.string(element))
        }
        return strings
    }

    private func unsigned<Key>(_ object: TIMRESTMembers<Key>, _ key: Key, max: UInt64 = .max) throws(IMWireError) -> UInt64? {
        guard let value = object[key] else { return nil }
        return try unsigned(value, key: key.name, max: max)
    }

    private func unsigned(_ value: Int, key: String, max: UInt64) throws(IMWireError) -> UInt64 {
        let (magnitude, negative) = try integer(value, key: key)
        guard !negative || magnitude == 0, magnitude <= max else {
            throw .numberOutOfRange(
                "\"\(key)\" is \(negative ? "-" : "")\(magnitude), outside 0...\(max)", path: path.rendered(appending: key))
        }
        return magnitude
    }

    private func int32<Key>(_ object: TIMRESTMembers<Key>, _ key: Key) throws(IMWireError) -> Int32? {
        guard let value = object[key] else { return nil }
        return try int32(value, key: key.name)
    }

    private func int32(_ value: Int, key: String) throws(IMWireError) -> Int32 {
        let (magnitude, negative) = try integer(value, key: key)
        let limit: UInt64 = negative ? UInt64(Int32.max) + 1 : UInt64(Int32.max)
        guard magnitude <= limit else {
            throw .numberOutOfRange(
                "\"\(key)\" is \(negative ? "-" : "")\(magnitude), outside the range of a 32-bit integer",
                path: path.rendered(appending: key))
        }
        return negative ? Int32(truncatingIfNeeded: 0 &- magnitude) : Int32(magnitude)
    }

    /// A flag: `0`/`1` (any non-zero integer is set), `true`/`false`, or a string of digits.
    private func flag<Key>(_ object: TIMRESTMembers<Key>, _ key: Key) throws(IMWireError) -> Bool? {
        guard let value = object[key] else { return nil }
        switch tape[value].kind {
        case .true: return true
        case .false: return false
        default: return try integer(value, key: key.name).magnitude != 0
        }
    }

    /// A finite double: a JSON number or a string holding one.
    private func double(_ value: Int, key: String) throws(IMWireError) -> Double {
        let kind = tape[value].kind
        guard kind == .number || kind == .string else { throw wrongType(value, key: key, expected: "a number") }
        let parsed = try tape.withBytes(value) { (bytes) throws(IMWireError) in
            try JSONScanner.withNumber(in: bytes) { (scanner, token) throws(IMWireError) in
                try? scanner.doubleValue(token)
            }
        }
        // `nil`: not one number; `.some(nil)`: a number beyond a double.
        guard let parsed, let double = parsed else {
            if kind == .string, parsed == nil {
                throw .invalidNumber("\"\(key)\" is a string that is not a number", path: path.rendered(appending: key))
            }
            throw .beyondDouble("\"\(key)\" (\(tape.string(value)))", path: path.rendered(appending: key))
        }
        return double
    }

    /// The exact integer a JSON number or a numeric string denotes: fractions and exponents are
    /// accepted when the value is integral (`1.0`, `1e3`).
    private func integer(_ value: Int, key: String) throws(IMWireError) -> (magnitude: UInt64, negative: Bool) {
        let kind = tape[value].kind
        guard kind == .number || kind == .string else { throw wrongType(value, key: key, expected: "an integer") }
        let result = try tape.withBytes(value) { (bytes) throws(IMWireError) in
            try JSONScanner.withNumber(in: bytes) { (scanner, token) throws(IMWireError) in
                Result { () throws(IMWireError) in try scanner.integerValue(token) }
            }
        }
        let text = tape.string(value)
        switch result {
        case .success(let integer)?:
            return integer
        case .failure(let error)? where error.code == .numberOutOfRange:
            throw .numberOutOfRange("\"\(key)\" (\(text)) does not fit in 64 bits", path: path.rendered(appending: key))
        default:
            throw .notAnInteger("\"\(key)\" (\(text))", path: path.rendered(appending: key))
        }
    }
}

/// The content types the flat tables fill: they start from their all-default value.
protocol TIMRESTDefaultInitializable { init() }
extension TextElem: TIMRESTDefaultInitializable {}
extension LocationElem: TIMRESTDefaultInitializable {}
extension FaceElem: TIMRESTDefaultInitializable {}
extension CustomElem: TIMRESTDefaultInitializable {}
extension SoundElem: TIMRESTDefaultInitializable {}
extension Image: TIMRESTDefaultInitializable {}
extension FileElem: TIMRESTDefaultInitializable {}
extension VideoElem: TIMRESTDefaultInitializable {}
