import IMWireCore
import IMWireJSONText

/// Writes a ``Message`` as Tencent Cloud IM REST JSON ("tim-rest") in the canonical tim-rest form,
/// straight from the model into one byte buffer — no intermediate tree — with model paths for
/// errors put together only when there is an error, so time and memory are linear in the output
/// whatever the nesting.
///
/// The target picks the shape: a group message is a `send_group_msg` request (`GroupId`,
/// `TopicId`, `Random`, `OnlineOnlyFlag`, a `To_Account` array for a targeted message), a C2C
/// message a `sendmsg` request (`To_Account`, `MsgRandom`, `MsgLifeTime` 0 for online-only), a
/// message without a target the C2C shape without `To_Account`; messages inside a
/// `TIMRelayElem`'s `MsgList` always say `MsgRandom`, as Tencent writes them. Whatever REST cannot
/// carry fails with `not_representable` and the model path — or, for the field-level losses listed
/// at ``TIMRESTEncodingOptions/allowsLossyConversion``, is left out when the caller allows it.
struct TIMRESTEncoder {
    private let options: TIMRESTEncodingOptions
    /// Written into a growing buffer of its own (the proto3 JSON writer's), copied out once at the end.
    private var out: JSONTextWriter<OutputBytes>
    private var path = TIMRESTPath()
    private var stackGuard = StackGuard()

    static func encode(_ message: Message, options: TIMRESTEncodingOptions) throws(IMWireError) -> [UInt8] {
        var encoder = TIMRESTEncoder(options: options)
        defer { encoder.out.output.deallocate() }
        try encoder.message(message, depth: 1, inMsgList: false)
        return encoder.out.output.bytes()
    }

    /// The message's content only — `{"MsgBody":[…],"CloudCustomData":"…"}` (the second key only
    /// when set) — in the canonical form, and nothing of its envelope: the shape of the message a
    /// before-send webhook answers with (IMWireWebhooks). Fails like ``encode(_:options:)`` for
    /// content REST cannot carry, and with `not_representable` for a signal, which has no body.
    @usableFromInline package static func encodeContent(_ message: Message, options: TIMRESTEncodingOptions) throws(IMWireError) -> [UInt8] {
        var encoder = TIMRESTEncoder(options: options)
        defer { encoder.out.output.deallocate() }
        try encoder.checkDepth(1)
        try encoder.checkNoSignal(message)
        encoder.out.beginObject()
        try encoder.content(message, depth: 1)
        encoder.out.endObject()
        return encoder.out.output.bytes()
    }

    private init(options: TIMRESTEncodingOptions) {
        self.options = options
        out = JSONTextWriter(into: OutputBytes(capacity: 256), pretty: options.prettyPrinted)
    }

    // MARK: - Errors

    private func notRepresentable(_ reason: String, at field: String? = nil) -> IMWireError {
        let path = field.map { self.path.rendered(appending: $0) } ?? self.path.renderedOrNil
        return .notRepresentable(reason, path: path)
    }

    /// A field-level loss: fails unless the options allow it, in which case the caller leaves the
    /// value out.
    private func lossy(_ reason: String, at field: String? = nil) throws(IMWireError) {
        guard options.allowsLossyConversion else { throw notRepresentable(reason, at: field) }
    }

    private func checkUnknownFields(_ fields: UnknownFields) throws(IMWireError) {
        if !fields.isEmpty {
            try lossy("Tencent REST has no form for fields this schema does not know (\(counted(fields.bytes.count, "byte")))")
        }
    }

    private mutating func checkDepth(_ depth: Int) throws(IMWireError) {
        guard depth <= options.maxDepth else {
            throw .depthLimitExceeded(.encodedMessages, limit: options.maxDepth, path: path.renderedOrNil)
        }
        try stackGuard.check(depth: depth, path: path.renderedOrNil)
    }

    /// `bytes` as a REST string: their UTF-8, or `not_representable` (at `field`) when they are not.
    private func utf8(_ bytes: [UInt8], field: String) throws(IMWireError) -> String {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw notRepresentable(
                "the value (\(counted(bytes.count, "byte"))) is not valid UTF-8, and Tencent REST carries it as a JSON string", at: field)
        }
        return string
    }

    private func checkNoSignal(_ message: Message) throws(IMWireError) {
        guard let signal = message.signal else { return }
        // The documents IMWire follows give no REST or webhook body for these signals, so no REST
        // shape is made up for them.
        let (field, what) = switch signal {
        case .recallNotice: ("recall_notice", "a recall notice")
        case .groupReadReceipt: ("group_read_receipt", "a group read receipt")
        case .c2cReadReceipt: ("c2c_read_receipt", "a one-to-one read receipt")
        }
        throw notRepresentable(
            "Tencent REST writes message bodies (MsgBody); \(what) is a signal about other messages, and IMWire maps no REST form for it",
            at: field)
    }

    // MARK: - Envelope

    private mutating func message(_ message: Message, depth: Int, inMsgList: Bool) throws(IMWireError) {
        try checkDepth(depth)
        let isC2C = try messageHead(message, inMsgList: inMsgList)
        try content(message, depth: depth)
        try messageTail(message, isC2C: isC2C, depth: depth)
        out.endObject()
    }

    /// The envelope keys before `MsgBody` (the object opened); returns whether the target is a
    /// user. Not inlined, like ``messageTail(_:isC2C:depth:)``: ``message(_:depth:inMsgList:)``
    /// is one frame per nesting level on the recursive path, and these keys' temporaries would
    /// multiply its size.
    @inline(never)
    private mutating func messageHead(_ message: Message, inMsgList: Bool) throws(IMWireError) -> Bool {
        try checkUnknownFields(message.unknownFields)
        var isGroup = false
        var isC2C = false
        out.beginObject()
        switch message.target {
        case .groupID(let groupID)?:
            isGroup = true
            out.member("GroupId", string: groupID)
        case .roomID?:
            throw notRepresentable(
                "Tencent REST has no live-room target; an AVChatRoom is addressed as a group (set target to .groupID)", at: "room_id")
        case .receiver?:
            isC2C = true
        case nil:
            break
        }
        try checkNoSignal(message)
        if message.barrage {
            try lossy("Tencent has no barrage message type (a ZIM room comment); REST writes only the text", at: "barrage")
        }
        if !message.topicID.isEmpty {
            guard isGroup else {
                throw notRepresentable("a topic belongs to a community group: REST writes TopicId next to GroupId", at: "topic_id")
            }
            out.member("TopicId", string: message.topicID)
        }
        if !message.sender.isEmpty { out.member("From_Account", string: message.sender) }
        if case .receiver(let receiver)? = message.target { out.member("To_Account", string: receiver) }
        if !message.targetedReceivers.isEmpty {
            guard isGroup else {
                throw notRepresentable(
                    "targeted receivers are a group feature: REST writes them as a To_Account array next to GroupId",
                    at: "targeted_receivers")
            }
            out.member("To_Account", strings: message.targetedReceivers)
        }
        if message.seq != 0 { out.member("MsgSeq", number: message.seq) }
        if message.random > UInt64(UInt32.max) {
            throw notRepresentable(
                "random is \(message.random); Tencent REST's MsgRandom / Random is a 32-bit unsigned integer (at most 4294967295)",
                at: "random")
        }
        if message.random != 0 { out.member(isGroup && !inMsgList ? "Random" : "MsgRandom", number: message.random) }
        if message.timestampMs % 1000 != 0 {
            try lossy(
                "timestamp_ms \(message.timestampMs) has a sub-second part; Tencent REST's MsgTimeStamp is in whole seconds",
                at: "timestamp_ms")
        }
        if message.timestampMs / 1000 != 0 { out.member("MsgTimeStamp", number: message.timestampMs / 1000) }
        if !message.msgID.isEmpty { out.member("MsgKey", string: message.msgID) }
        if message.priority != .default {
            if let name = TIMRESTPriority.name(of: message.priority) {
                out.member("MsgPriority", string: name)
            } else {
                out.key("MsgPriority")
                out.integer(Int64(message.priority.rawValue))
            }
        }
        return isC2C
    }

    /// The envelope keys after `MsgBody` and `CloudCustomData`.
    @inline(never)
    private mutating func messageTail(_ message: Message, isC2C: Bool, depth: Int) throws(IMWireError) {

        if !message.atUserList.isEmpty {
            out.key("GroupAtInfo")
            out.beginArray()
            for userID in message.atUserList {
                out.element()
                out.beginObject()
                if Message.isAtAllUserID(userID) {
                    out.member("GroupAtAllFlag", number: 1)
                } else {
                    out.member("GroupAtAllFlag", number: 0)
                    out.member("GroupAt_Account", string: userID)
                }
                out.endObject()
            }
            out.endArray()
        }
        if message.excludedFromUnreadCount || message.excludedFromLastMessage {
            var controls: [String] = []
            if message.excludedFromUnreadCount { controls.append("NoUnread") }
            if message.excludedFromLastMessage { controls.append("NoLastMsg") }
            out.member("SendMsgControl", strings: controls)
        }
        if message.onlineUserOnly {
            // sendmsg has no online-only flag: a lifetime of 0 means "online users only, not stored".
            if isC2C { out.member("MsgLifeTime", number: 0) } else { out.member("OnlineOnlyFlag", number: 1) }
        }
        // send_group_msg spells it NeedReadReceipt, sendmsg IsNeedReadReceipt (each page's request fields).
        if message.needReadReceipt {
            let isGroup = if case .groupID? = message.target { true } else { false }
            out.member(isGroup ? "NeedReadReceipt" : "IsNeedReadReceipt", number: 1)
        }
        if message.supportMessageExtension { out.member("SupportMessageExtension", number: 1) }
        if let info = message.offlinePushInfo {
            path.push("offline_push_info")
            try offlinePushInfo(info, depth: depth + 1)
            path.pop()
        }
    }

    /// `"MsgBody": […]` and, when set, `"CloudCustomData"`: what a message says, as opposed to where
    /// it goes.
    private mutating func content(_ message: Message, depth: Int) throws(IMWireError) {
        out.key("MsgBody")
        out.beginArray()
        for (index, elem) in message.elems.enumerated() {
            out.element()
            path.push("elems")
            path.push(index)
            try self.elem(elem, depth: depth + 1)
            path.pop()
            path.pop()
        }
        out.endArray()
        if !message.cloudCustomData.isEmpty {
            out.member("CloudCustomData", string: try utf8(message.cloudCustomData, field: "cloud_custom_data"))
        }
    }

    private mutating func offlinePushInfo(_ info: OfflinePushInfo, depth: Int) throws(IMWireError) {
        try checkDepth(depth)
        try checkUnknownFields(info.unknownFields)
        if info.iosPushType != .apns {
            try lossy("Tencent REST's OfflinePushInfo has no iOS push type; only APNs pushes can be written", at: "ios_push_type")
        }
        out.key("OfflinePushInfo")
        out.beginObject()
        if info.disablePush { out.member("PushFlag", number: 1) }
        if !info.title.isEmpty { out.member("Title", string: info.title) }
        if !info.desc.isEmpty { out.member("Desc", string: info.desc) }
        if !info.ext.isEmpty { out.member("Ext", string: info.ext) }
        if !info.androidSound.isEmpty {
            out.key("AndroidInfo")
            out.beginObject()
            out.member("Sound", string: info.androidSound)
            out.endObject()
        }
        if !info.iosSound.isEmpty || info.ignoreIOSBadge || !info.iosTitle.isEmpty || !info.iosSubtitle.isEmpty
            || !info.iosImage.isEmpty || info.iosMutableContent
        {
            out.key("ApnsInfo")
            out.beginObject()
            if !info.iosSound.isEmpty { out.member("Sound", string: info.iosSound) }
            if info.ignoreIOSBadge { out.member("BadgeMode", number: 1) }
            if !info.iosTitle.isEmpty { out.member("Title", string: info.iosTitle) }
            if !info.iosSubtitle.isEmpty { out.member("SubTitle", string: info.iosSubtitle) }
            if !info.iosImage.isEmpty { out.member("Image", string: info.iosImage) }
            if info.iosMutableContent { out.member("MutableContent", number: 1) }
            out.endObject()
        }
        out.endObject()
    }

    // MARK: - Elements

    private mutating func elem(_ elem: Elem, depth: Int) throws(IMWireError) {
        try checkDepth(depth)
        try checkUnknownFields(elem.unknownFields)
        guard let content = elem.content else {
            throw notRepresentable("the elem is of a kind this schema does not know (kept only as unknown fields)")
        }
        let inner = depth + 1
        switch content {
        case .groupTips:
            throw notRepresentable("Tencent REST has no element for group tips (the server sends them to SDK clients only)", at: "group_tips")
        case .groupSystem:
            throw notRepresentable(
                "Tencent REST has no element for group system notifications (the server sends them to SDK clients only)",
                at: "group_system")
        default:
            break
        }
        out.beginObject()
        if case .merger(let merger) = content {
            out.member("MsgType", string: TIMRESTMsgType.relay.rawValue)
            path.push("merger")
            try relay(merger, depth: inner)
            path.pop()
        } else {
            try leafContent(content, depth: inner)
        }
        out.endObject()
    }

    /// Every content but a merger (which recurses): not inlined, so that the recursive frame of
    /// ``elem(_:depth:)`` does not hold room for each content type's temporaries.
    @inline(never)
    private mutating func leafContent(_ content: Elem.Content, depth inner: Int) throws(IMWireError) {
        switch content {
        case .text(let text):
            try flat(.text, TIMRESTContent.text, text, text.unknownFields, "text", inner)
        case .location(let location):
            try flat(.location, TIMRESTContent.location, location, location.unknownFields, "location", inner)
        case .face(let face):
            try flat(.face, TIMRESTContent.face, face, face.unknownFields, "face", inner)
        case .custom(let custom):
            try flat(.custom, TIMRESTContent.custom, custom, custom.unknownFields, "custom", inner)
        case .sound(let sound):
            if !sound.format.isEmpty {
                try lossy("Tencent REST's TIMSoundElem has no format key (\"\(sound.format)\")", at: "sound.format")
            }
            try flat(.sound, TIMRESTContent.sound, sound, sound.unknownFields, "sound", inner)
        case .image(let image):
            out.member("MsgType", string: TIMRESTMsgType.image.rawValue)
            path.push("image")
            try self.image(image, depth: inner)
            path.pop()
        case .video(let video):
            try flat(.video, TIMRESTContent.video, video, video.unknownFields, "video", inner)
        case .file(let file):
            try flat(.file, TIMRESTContent.file, file, file.unknownFields, "file", inner)
        case .merger, .groupTips, .groupSystem:
            preconditionFailure("handled by elem(_:depth:)")
        }
    }

    /// `"MsgType": type, "MsgContent": {…}` for a flat content type.
    private mutating func flat<Content>(
        _ type: TIMRESTMsgType, _ table: TIMRESTContentTable<Content>, _ content: Content, _ unknownFields: UnknownFields,
        _ field: String, _ depth: Int
    ) throws(IMWireError) {
        out.member("MsgType", string: type.rawValue)
        path.push(field)
        out.key("MsgContent")
        try flatContent(table, content, unknownFields, depth)
        path.pop()
    }

    /// The `{…}` of a flat content object: every key, in the table's order.
    private mutating func flatContent<Content>(
        _ table: TIMRESTContentTable<Content>, _ content: Content, _ unknownFields: UnknownFields, _ depth: Int
    ) throws(IMWireError) {
        try checkDepth(depth)
        try checkUnknownFields(unknownFields)
        out.beginObject()
        for field in table.fields {
            out.key(field.key)
            switch field.kind {
            case .string(let keyPath):
                out.string(content[keyPath: keyPath])
            case .utf8Bytes(let keyPath):
                out.string(try utf8(content[keyPath: keyPath], field: field.model))
            case .uint64(let keyPath):
                out.integer(content[keyPath: keyPath])
            case .uint32(let keyPath):
                out.integer(UInt64(content[keyPath: keyPath]))
            case .int32(let keyPath):
                out.integer(Int64(content[keyPath: keyPath]))
            case .double(let keyPath):
                let value = content[keyPath: keyPath]
                guard value.isFinite else { throw notRepresentable("JSON numbers cannot be \(value)", at: field.model) }
                out.double(value)
            case .downloadFlag:
                out.integer(UInt64(timRESTDownloadFlag))
            }
        }
        out.endObject()
    }

    private mutating func image(_ image: ImageElem, depth: Int) throws(IMWireError) {
        try checkDepth(depth)
        try checkUnknownFields(image.unknownFields)
        // REST has one UUID per image elem; the model one per Image.
        let uuid = image.images.first(where: { !$0.uuid.isEmpty })?.uuid ?? ""
        if let index = image.images.firstIndex(where: { $0.uuid != uuid }) {
            try lossy(
                "Tencent REST has one UUID per TIMImageElem, but image \(index) has \"\(image.images[index].uuid)\" and another \"\(uuid)\"",
                at: "images[\(index)].uuid")
        }
        out.key("MsgContent")
        out.beginObject()
        out.member("UUID", string: uuid)
        out.key("ImageFormat")
        out.integer(Int64(image.format.rawValue))
        out.key("ImageInfoArray")
        out.beginArray()
        for (index, entry) in image.images.enumerated() {
            out.element()
            path.push("images")
            path.push(index)
            try flatContent(TIMRESTContent.image, entry, entry.unknownFields, depth + 1)
            path.pop()
            path.pop()
        }
        out.endArray()
        out.endObject()
    }

    private mutating func relay(_ merger: MergerElem, depth: Int) throws(IMWireError) {
        try checkDepth(depth)
        if try relayHead(merger) {
            out.member("JsonMsgKey", string: merger.jsonMsgKey)
        } else {
            out.key("MsgList")
            out.beginArray()
            for (index, inner) in merger.messages.enumerated() {
                out.element()
                path.push("messages")
                path.push(index)
                try message(inner, depth: depth + 1, inMsgList: true)
                path.pop()
                path.pop()
            }
            out.endArray()
        }
        out.endObject()
    }

    /// A relay's checks and keys before its messages (the content object opened); returns whether
    /// it has a `JsonMsgKey` instead of a `MsgList`. Not inlined: see ``messageHead(_:inMsgList:)``.
    @inline(never)
    private mutating func relayHead(_ merger: MergerElem) throws(IMWireError) -> Bool {
        try checkUnknownFields(merger.unknownFields)
        if merger.layersOverLimit {
            try lossy("Tencent REST's TIMRelayElem has no layers-over-limit key", at: "layers_over_limit")
        }
        let hasKey = !merger.jsonMsgKey.isEmpty
        if hasKey, !merger.messages.isEmpty {
            throw notRepresentable(
                "a TIMRelayElem has either MsgList or JsonMsgKey; this merger has \(counted(merger.messages.count, "inline message")) and a JsonMsgKey",
                at: "messages")
        }
        if !hasKey, merger.msgNum != 0 {
            try lossy(
                "msg_num \(merger.msgNum) goes with a JsonMsgKey; for inline messages Tencent REST's MsgNum is their count (\(merger.messages.count))",
                at: "msg_num")
        }
        out.key("MsgContent")
        out.beginObject()
        out.member("Title", string: merger.title)
        out.member("MsgNum", number: hasKey ? UInt64(merger.msgNum) : UInt64(merger.messages.count))
        out.member("CompatibleText", string: merger.compatibleText)
        out.member("AbstractList", strings: merger.abstractList)
        return hasKey
    }
}
