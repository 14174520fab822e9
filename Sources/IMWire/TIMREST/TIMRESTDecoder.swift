/// Reads Tencent Cloud IM REST JSON ("tim-rest", SPEC §2.3) into a ``Message``.
///
/// The input is parsed by the strict generic JSON reader (UTF-8, escapes, duplicate keys, depth and
/// size limits as for proto3 JSON), then mapped key by key. Accepted shapes: a bare `MsgBody`
/// array, a single `{"MsgType", "MsgContent"}` element, or any object holding `MsgBody` (a
/// `sendmsg` / `send_group_msg` request, a `*.CallbackAfterSendMsg` webhook body, a history entry,
/// a `MsgList` entry). Keys Tencent defines but the model has no field for, and keys it does not
/// know, are ignored. README "tim-rest" has the full mapping.
struct TIMRESTDecoder {
    private let maxDepth: Int

    static func decode(_ buffer: UnsafeBufferPointer<UInt8>, options: TIMRESTDecodingOptions) throws(IMWireError) -> Message {
        let jsonOptions = JSONDecodingOptions(maxDepth: Self.jsonDepth(forMessageDepth: options.maxDepth), maxInputSize: options.maxInputSize)
        let value = try JSONReader.parseValue(buffer, options: jsonOptions)
        do {
            return try TIMRESTDecoder(maxDepth: options.maxDepth).document(value)
        } catch {
            // Errors about the document as a whole have the empty path: locate them at its start.
            guard error.path?.isEmpty ?? true, error.offset == nil else { throw error }
            throw IMWireError(code: error.code, reason: error.reason, offset: 0)
        }
    }

    /// The JSON nesting that `messageDepth` message levels need at most: each relay layer is three
    /// message levels (message, elem, content) and five JSON levels (message object, MsgBody array,
    /// element object, MsgContent object, MsgList array); the deepest leaf (an ImageInfoArray entry,
    /// GroupAtInfo, ApnsInfo) adds a few more. Deeper JSON — also inside ignored keys — is refused
    /// by the reader before it recurses further.
    static func jsonDepth(forMessageDepth messageDepth: Int) -> Int {
        let depth = max(messageDepth, 1)
        return depth > Int.max / 8 ? Int.max : depth * 5 / 3 + 8
    }

    private init(maxDepth: Int) {
        self.maxDepth = maxDepth
    }

    // MARK: - Shapes

    private func document(_ value: JSONValue) throws(IMWireError) -> Message {
        switch value {
        case .array(let body):
            try checkDepth(1, path: "")
            var message = Message()
            message.elems = try elems(body, path: "", depth: 2)
            return message
        case .object:
            let object = try TIMRESTObject(value, path: "", what: "the input")
            if object.contains("MsgBody") {
                return try message(object, depth: 1)
            }
            if object.contains("MsgType") || object.contains("MsgContent") {
                try checkDepth(1, path: "")
                var message = Message()
                message.elems = [try elem(value, path: "", depth: 2)]
                return message
            }
            throw IMWireError(
                code: .missingField,
                reason: "the input object has neither \"MsgBody\" (a message) nor \"MsgType\" (a single element)",
                offset: 0)
        default:
            throw IMWireError(
                code: .invalidValue,
                reason: "expected a MsgBody array or a JSON object, found \(value.timRESTTypeName)",
                offset: 0)
        }
    }

    private func checkDepth(_ depth: Int, path: String) throws(IMWireError) {
        guard depth <= maxDepth else {
            throw IMWireError(
                code: .depthLimitExceeded, reason: "nesting exceeds the limit of \(maxDepth) message levels",
                path: path.isEmpty ? nil : path)
        }
    }

    // MARK: - Envelope

    /// A message object: the envelope keys and its `MsgBody`.
    private func message(_ object: TIMRESTObject, depth: Int) throws(IMWireError) -> Message {
        try checkDepth(depth, path: object.path)
        var message = Message()
        message.sender = try object.string("From_Account") ?? ""

        let groupID = try object.string("GroupId")
        if let groupID { message.target = .groupID(groupID) }
        if let to = object["To_Account"] {
            switch to {
            case .string(let receiver):
                guard groupID == nil else {
                    throw IMWireError(
                        code: .oneofConflict,
                        reason: "a message has one target, but it names both a group (GroupId) and a C2C receiver (To_Account)",
                        path: object.path("To_Account"))
                }
                message.target = .receiver(receiver)
            case .array:
                let receivers = try object.strings("To_Account") ?? []
                guard groupID != nil else {
                    throw IMWireError(
                        code: .notRepresentable,
                        reason: "a To_Account array without GroupId is a batch C2C send (batchsendmsg) to \(receivers.count) users; a message has one receiver",
                        path: object.path("To_Account"))
                }
                message.targetedReceivers = receivers
            default:
                throw object.wrongType("To_Account", expected: "a string (C2C) or an array of user IDs (targeted group message)", found: to)
            }
        }

        message.seq = try object.unsigned("MsgSeq") ?? 0
        // C2C and history use MsgRandom, group requests and callbacks Random; MsgRandom wins.
        let msgRandom = try object.unsigned("MsgRandom", max: UInt64(UInt32.max))
        let random = try object.unsigned("Random", max: UInt64(UInt32.max))
        message.random = msgRandom ?? random ?? 0
        // Requests and history use MsgTimeStamp, callbacks MsgTime; MsgTimeStamp wins.
        let stamp = try object.unsigned("MsgTimeStamp", max: UInt64.max / 1000)
        let time = try object.unsigned("MsgTime", max: UInt64.max / 1000)
        message.timestampMs = (stamp ?? time ?? 0) * 1000
        message.msgID = try object.string("MsgKey") ?? ""
        message.priority = try priority(object) ?? .default

        let body = try object.requiredArray("MsgBody", in: "a message")
        message.elems = try elems(body, path: object.path("MsgBody"), depth: depth + 1)
        if let data = try object.string("CloudCustomData") { message.cloudCustomData = Array(data.utf8) }

        if let entries = try object.array("GroupAtInfo") {
            message.atUserList = try atUserList(entries, path: object.path("GroupAtInfo"))
        }
        if let controls = try object.strings("SendMsgControl") {
            message.excludedFromUnreadCount = controls.contains("NoUnread")
            message.excludedFromLastMessage = controls.contains("NoLastMsg")
        }
        // Group requests and all callbacks say OnlineOnlyFlag (old group docs MsgOnlineOnlyFlag);
        // a C2C sendmsg request says MsgLifeTime 0 ("online users only, not stored").
        let onlineOnly = try object.flag("OnlineOnlyFlag")
        let msgOnlineOnly = try object.flag("MsgOnlineOnlyFlag")
        let lifeTime = try object.unsigned("MsgLifeTime")
        message.onlineUserOnly = (onlineOnly ?? msgOnlineOnly ?? false) || lifeTime == 0
        let isNeedReadReceipt = try object.flag("IsNeedReadReceipt")
        let needReadReceipt = try object.flag("NeedReadReceipt")
        message.needReadReceipt = isNeedReadReceipt ?? needReadReceipt ?? false
        message.supportMessageExtension = try object.flag("SupportMessageExtension") ?? false
        if let push = object["OfflinePushInfo"] {
            try checkDepth(depth + 1, path: object.path("OfflinePushInfo"))
            message.offlinePushInfo = try offlinePushInfo(TIMRESTObject(push, path: object.path("OfflinePushInfo"), what: "OfflinePushInfo"))
        }
        return message
    }

    /// `MsgPriority`: "High" / "Normal" / "Low" / "Lowest" (send requests, case-sensitive) or the
    /// number (history: 1 high … 4 lowest).
    private func priority(_ object: TIMRESTObject) throws(IMWireError) -> Priority? {
        guard let value = object["MsgPriority"] else { return nil }
        if case .string(let name) = value, let priority = TIMRESTPriority.byName[name] {
            return priority
        }
        if case .string(let text) = value, !TIMRESTObject.looksNumeric(text) {
            throw IMWireError(
                code: .invalidValue,
                reason: "\"MsgPriority\" is \"\(text)\"; Tencent's priorities are High, Normal, Low and Lowest (case-sensitive) or their numbers 1-4",
                path: object.path("MsgPriority"))
        }
        return try object.int32("MsgPriority").map(Priority.init(rawValue:))
    }

    private func atUserList(_ entries: [JSONValue], path: String) throws(IMWireError) -> [String] {
        var list: [String] = []
        list.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            let object = try TIMRESTObject(entry, path: "\(path)[\(index)]", what: "a GroupAtInfo entry")
            switch try object.unsigned("GroupAtAllFlag") ?? 0 {
            case 1:
                list.append(Message.atAllUserID)
            case 0:
                let id = try object.requiredString("GroupAt_Account", in: "a GroupAtInfo entry with GroupAtAllFlag 0")
                list.append(id == Message.atAllUserIDAlternateSpelling ? Message.atAllUserID : id)
            case let flag:
                throw IMWireError(
                    code: .invalidValue, reason: "\"GroupAtAllFlag\" is \(flag); it is 1 (@all) or 0 (@GroupAt_Account)",
                    path: object.path("GroupAtAllFlag"))
            }
        }
        return list
    }

    private func offlinePushInfo(_ object: TIMRESTObject) throws(IMWireError) -> OfflinePushInfo {
        var info = OfflinePushInfo()
        info.disablePush = try object.flag("PushFlag") ?? false
        info.title = try object.string("Title") ?? ""
        info.desc = try object.string("Desc") ?? ""
        info.ext = try object.string("Ext") ?? ""
        if let android = object["AndroidInfo"] {
            let android = try TIMRESTObject(android, path: object.path("AndroidInfo"), what: "AndroidInfo")
            info.androidSound = try android.string("Sound") ?? ""
        }
        if let apns = object["ApnsInfo"] {
            let apns = try TIMRESTObject(apns, path: object.path("ApnsInfo"), what: "ApnsInfo")
            info.iosSound = try apns.string("Sound") ?? ""
            info.ignoreIOSBadge = try apns.flag("BadgeMode") ?? false
        }
        return info
    }

    // MARK: - Elements

    private func elems(_ body: [JSONValue], path: String, depth: Int) throws(IMWireError) -> [Elem] {
        var elems: [Elem] = []
        elems.reserveCapacity(body.count)
        for (index, value) in body.enumerated() {
            elems.append(try elem(value, path: "\(path)[\(index)]", depth: depth))
        }
        return elems
    }

    private func elem(_ value: JSONValue, path: String, depth: Int) throws(IMWireError) -> Elem {
        try checkDepth(depth, path: path)
        let object = try TIMRESTObject(value, path: path, what: "a MsgBody element")
        let typeName = try object.requiredString("MsgType", in: "a MsgBody element")
        guard let type = TIMRESTMsgType(rawValue: typeName) else {
            throw IMWireError(
                code: .unknownMsgType,
                reason: "MsgType \"\(typeName)\" is not one of \(TIMRESTMsgType.allCases.map(\.rawValue).joined(separator: ", "))",
                path: object.path("MsgType"))
        }
        guard let contentValue = object["MsgContent"] else { throw object.missing("MsgContent", "a \(typeName) element") }
        let content = try TIMRESTObject(contentValue, path: object.path("MsgContent"), what: "the MsgContent of a \(typeName)")
        try checkDepth(depth + 1, path: content.path)
        switch type {
        case .text: return .text(try flat(TIMRESTContent.text, content, typeName))
        case .location: return .location(try flat(TIMRESTContent.location, content, typeName))
        case .face: return .face(try flat(TIMRESTContent.face, content, typeName))
        case .custom: return .custom(try flat(TIMRESTContent.custom, content, typeName))
        case .sound: return .sound(try flat(TIMRESTContent.sound, content, typeName))
        case .image: return .image(try image(content, depth: depth + 1))
        case .file: return .file(try flat(TIMRESTContent.file, content, typeName))
        case .video: return .video(try flat(TIMRESTContent.video, content, typeName))
        case .relay: return .merger(try relay(content, depth: depth + 1))
        }
    }

    private func flat<Content: TIMRESTDefaultInitializable>(
        _ fields: [TIMRESTField<Content>], _ object: TIMRESTObject, _ typeName: String
    ) throws(IMWireError) -> Content {
        var content = Content()
        for field in fields {
            try field.read(from: object, into: &content, what: "a \(typeName)")
        }
        return content
    }

    private func image(_ object: TIMRESTObject, depth: Int) throws(IMWireError) -> ImageElem {
        var image = ImageElem()
        let uuid = try object.requiredString("UUID", in: "a TIMImageElem")
        if let format = try object.int32("ImageFormat") { image.format = ImageFormat(rawValue: format) }
        let infos = try object.requiredArray("ImageInfoArray", in: "a TIMImageElem")
        if infos.isEmpty, !uuid.isEmpty {
            // The model keeps REST's one UUID on each Image; with no Image there is nowhere to keep it.
            throw IMWireError(
                code: .notRepresentable,
                reason: "a TIMImageElem with a UUID and an empty ImageInfoArray cannot be represented (the UUID is kept on each image)",
                path: object.path("ImageInfoArray"))
        }
        image.images.reserveCapacity(infos.count)
        for (index, info) in infos.enumerated() {
            let path = object.path("ImageInfoArray") + "[\(index)]"
            try checkDepth(depth + 1, path: path)
            var entry: Image = try flat(TIMRESTContent.image, TIMRESTObject(info, path: path, what: "an ImageInfoArray entry"), "ImageInfoArray entry")
            entry.uuid = uuid
            image.images.append(entry)
        }
        return image
    }

    private func relay(_ object: TIMRESTObject, depth: Int) throws(IMWireError) -> MergerElem {
        var merger = MergerElem()
        merger.title = try object.string("Title") ?? ""
        let messageCount = try object.unsigned("MsgNum", max: UInt64(UInt32.max))
        merger.compatibleText = try object.string("CompatibleText") ?? ""
        merger.abstractList = try object.strings("AbstractList") ?? []
        let list = try object.array("MsgList")
        let key = try object.string("JsonMsgKey")
        switch (list, key) {
        case (let list?, nil):
            merger.messages.reserveCapacity(list.count)
            for (index, value) in list.enumerated() {
                let entry = try TIMRESTObject(value, path: object.path("MsgList") + "[\(index)]", what: "a MsgList message")
                merger.messages.append(try message(entry, depth: depth + 1))
            }
        case (nil, let key?):
            merger.timRESTJSONMsgKey = key
            merger.timRESTMsgNum = UInt32(messageCount ?? 0)
        case (nil, nil):
            throw IMWireError(
                code: .missingField, reason: "a TIMRelayElem has neither \"MsgList\" nor \"JsonMsgKey\"", path: object.path)
        case (_?, _?):
            throw IMWireError(
                code: .invalidValue, reason: "a TIMRelayElem has both \"MsgList\" and \"JsonMsgKey\"; Tencent sends one or the other",
                path: object.path("JsonMsgKey"))
        }
        return merger
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
