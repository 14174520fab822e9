/// Writes a ``Message`` as Tencent Cloud IM REST JSON ("tim-rest", SPEC §2.3) in the canonical
/// tim-rest form (README "tim-rest", "Canonical output").
///
/// The target picks the shape: a group message is a `send_group_msg` request (`GroupId`,
/// `Random`, `OnlineOnlyFlag`, a `To_Account` array for a targeted message), a C2C message a
/// `sendmsg` request (`To_Account`, `MsgRandom`, `MsgLifeTime` 0 for online-only), a message
/// without a target the C2C shape without `To_Account`; messages inside a `TIMRelayElem`'s
/// `MsgList` always say `MsgRandom`, as Tencent writes them. Whatever REST cannot carry fails with
/// `not_representable` and the model path — or, for the field-level losses listed at
/// ``TIMRESTEncodingOptions/allowsLossyConversion``, is left out when the caller allows it.
struct TIMRESTEncoder {
    private let options: TIMRESTEncodingOptions

    static func encode(_ message: Message, options: TIMRESTEncodingOptions) throws(IMWireError) -> [UInt8] {
        let encoder = TIMRESTEncoder(options: options)
        let value = try encoder.message(message, path: "", depth: 1, inMsgList: false)
        return TIMRESTWriter.write(value, pretty: options.prettyPrinted)
    }

    private init(options: TIMRESTEncodingOptions) {
        self.options = options
    }

    // MARK: - Errors

    private static func join(_ path: String, _ field: String) -> String {
        path.isEmpty ? field : path + "." + field
    }

    private func notRepresentable(_ reason: String, path: String) -> IMWireError {
        IMWireError(code: .notRepresentable, reason: reason, path: path.isEmpty ? nil : path)
    }

    /// A field-level loss: fails unless the options allow it, in which case the caller leaves the
    /// value out.
    private func lossy(_ reason: String, path: String) throws(IMWireError) {
        guard options.allowsLossyConversion else { throw notRepresentable(reason, path: path) }
    }

    private func checkUnknownFields(_ fields: UnknownFields, path: String) throws(IMWireError) {
        if !fields.isEmpty {
            try lossy("Tencent REST has no form for the \(fields.bytes.count) bytes of fields this schema does not know", path: path)
        }
    }

    private func checkDepth(_ depth: Int, path: String) throws(IMWireError) {
        guard depth <= options.maxDepth else {
            throw IMWireError(
                code: .depthLimitExceeded, reason: "message nesting exceeds the encoder's limit of \(options.maxDepth) levels",
                path: path.isEmpty ? nil : path)
        }
    }

    // MARK: - Envelope

    private func message(_ message: Message, path: String, depth: Int, inMsgList: Bool) throws(IMWireError) -> JSONValue {
        try checkDepth(depth, path: path)
        try checkUnknownFields(message.unknownFields, path: path)
        var members: [(key: String, value: JSONValue)] = []
        var isGroup = false
        var isC2C = false
        switch message.target {
        case .groupID(let groupID)?:
            isGroup = true
            members.append(("GroupId", .string(groupID)))
        case .roomID?:
            throw notRepresentable(
                "Tencent REST has no live-room target; an AVChatRoom is addressed as a group (set target to .groupID)",
                path: Self.join(path, "room_id"))
        case .receiver?:
            isC2C = true
        case nil:
            break
        }
        if !message.sender.isEmpty { members.append(("From_Account", .string(message.sender))) }
        if case .receiver(let receiver)? = message.target { members.append(("To_Account", .string(receiver))) }
        if !message.targetedReceivers.isEmpty {
            guard isGroup else {
                throw notRepresentable(
                    "targeted receivers are a group feature: REST writes them as a To_Account array next to GroupId",
                    path: Self.join(path, "targeted_receivers"))
            }
            members.append(("To_Account", .array(message.targetedReceivers.map(JSONValue.string))))
        }
        if message.seq != 0 { members.append(("MsgSeq", .number(String(message.seq)))) }
        if message.random > UInt64(UInt32.max) {
            throw notRepresentable(
                "random is \(message.random); Tencent REST's MsgRandom / Random is a 32-bit unsigned integer (at most 4294967295)",
                path: Self.join(path, "random"))
        }
        if message.random != 0 {
            members.append((isGroup && !inMsgList ? "Random" : "MsgRandom", .number(String(message.random))))
        }
        if message.timestampMs % 1000 != 0 {
            try lossy(
                "timestamp_ms \(message.timestampMs) has a sub-second part; Tencent REST's MsgTimeStamp is in whole seconds",
                path: Self.join(path, "timestamp_ms"))
        }
        if message.timestampMs / 1000 != 0 { members.append(("MsgTimeStamp", .number(String(message.timestampMs / 1000)))) }
        if !message.msgID.isEmpty { members.append(("MsgKey", .string(message.msgID))) }
        if message.priority != .default {
            let value: JSONValue = TIMRESTPriority.name(of: message.priority).map(JSONValue.string)
                ?? .number(String(message.priority.rawValue))
            members.append(("MsgPriority", value))
        }

        var body: [JSONValue] = []
        body.reserveCapacity(message.elems.count)
        for (index, elem) in message.elems.enumerated() {
            body.append(try self.elem(elem, path: Self.join(path, "elems[\(index)]"), depth: depth + 1))
        }
        members.append(("MsgBody", .array(body)))
        if !message.cloudCustomData.isEmpty {
            let data = try timRESTString(utf8: message.cloudCustomData, path: Self.join(path, "cloud_custom_data"))
            members.append(("CloudCustomData", .string(data)))
        }

        if !message.atUserList.isEmpty {
            members.append(("GroupAtInfo", .array(message.atUserList.map(Self.atInfo))))
        }
        var controls: [JSONValue] = []
        if message.excludedFromUnreadCount { controls.append(.string("NoUnread")) }
        if message.excludedFromLastMessage { controls.append(.string("NoLastMsg")) }
        if !controls.isEmpty { members.append(("SendMsgControl", .array(controls))) }
        if message.onlineUserOnly {
            // sendmsg has no online-only flag: a lifetime of 0 means "online users only, not stored".
            members.append(isC2C ? ("MsgLifeTime", .number("0")) : ("OnlineOnlyFlag", .number("1")))
        }
        if message.needReadReceipt { members.append(("IsNeedReadReceipt", .number("1"))) }
        if message.supportMessageExtension { members.append(("SupportMessageExtension", .number("1"))) }
        if let info = message.offlinePushInfo {
            members.append(("OfflinePushInfo", try offlinePushInfo(info, path: Self.join(path, "offline_push_info"), depth: depth + 1)))
        }
        return .object(members)
    }

    private static func atInfo(_ userID: String) -> JSONValue {
        if userID == Message.atAllUserID || userID == Message.atAllUserIDAlternateSpelling {
            return .object([("GroupAtAllFlag", .number("1"))])
        }
        return .object([("GroupAtAllFlag", .number("0")), ("GroupAt_Account", .string(userID))])
    }

    private func offlinePushInfo(_ info: OfflinePushInfo, path: String, depth: Int) throws(IMWireError) -> JSONValue {
        try checkDepth(depth, path: path)
        try checkUnknownFields(info.unknownFields, path: path)
        if info.iosPushType != .apns {
            try lossy("Tencent REST's OfflinePushInfo has no iOS push type; only APNs pushes can be written",
                      path: Self.join(path, "ios_push_type"))
        }
        var members: [(key: String, value: JSONValue)] = []
        if info.disablePush { members.append(("PushFlag", .number("1"))) }
        if !info.title.isEmpty { members.append(("Title", .string(info.title))) }
        if !info.desc.isEmpty { members.append(("Desc", .string(info.desc))) }
        if !info.ext.isEmpty { members.append(("Ext", .string(info.ext))) }
        if !info.androidSound.isEmpty { members.append(("AndroidInfo", .object([("Sound", .string(info.androidSound))]))) }
        var apns: [(key: String, value: JSONValue)] = []
        if !info.iosSound.isEmpty { apns.append(("Sound", .string(info.iosSound))) }
        if info.ignoreIOSBadge { apns.append(("BadgeMode", .number("1"))) }
        if !apns.isEmpty { members.append(("ApnsInfo", .object(apns))) }
        return .object(members)
    }

    // MARK: - Elements

    private func elem(_ elem: Elem, path: String, depth: Int) throws(IMWireError) -> JSONValue {
        try checkDepth(depth, path: path)
        try checkUnknownFields(elem.unknownFields, path: path)
        guard let content = elem.content else {
            throw notRepresentable("the elem is of a kind this schema does not know (kept only as unknown fields)", path: path)
        }
        let type: TIMRESTMsgType
        let value: JSONValue
        let inner = depth + 1
        switch content {
        case .text(let text):
            (type, value) = (.text, try flat(TIMRESTContent.text, text, text.unknownFields, Self.join(path, "text"), inner))
        case .location(let location):
            (type, value) = (.location, try flat(TIMRESTContent.location, location, location.unknownFields, Self.join(path, "location"), inner))
        case .face(let face):
            (type, value) = (.face, try flat(TIMRESTContent.face, face, face.unknownFields, Self.join(path, "face"), inner))
        case .custom(let custom):
            (type, value) = (.custom, try flat(TIMRESTContent.custom, custom, custom.unknownFields, Self.join(path, "custom"), inner))
        case .sound(let sound):
            if !sound.format.isEmpty {
                try lossy("Tencent REST's TIMSoundElem has no format key (\"\(sound.format)\")", path: Self.join(path, "sound.format"))
            }
            (type, value) = (.sound, try flat(TIMRESTContent.sound, sound, sound.unknownFields, Self.join(path, "sound"), inner))
        case .image(let image):
            (type, value) = (.image, try self.image(image, path: Self.join(path, "image"), depth: inner))
        case .video(let video):
            (type, value) = (.video, try flat(TIMRESTContent.video, video, video.unknownFields, Self.join(path, "video"), inner))
        case .file(let file):
            (type, value) = (.file, try flat(TIMRESTContent.file, file, file.unknownFields, Self.join(path, "file"), inner))
        case .merger(let merger):
            (type, value) = (.relay, try relay(merger, path: Self.join(path, "merger"), depth: inner))
        case .groupTips:
            throw notRepresentable(
                "Tencent REST has no element for group tips (the server sends them to SDK clients only)",
                path: Self.join(path, "group_tips"))
        case .groupSystem:
            throw notRepresentable(
                "Tencent REST has no element for group system notifications (the server sends them to SDK clients only)",
                path: Self.join(path, "group_system"))
        }
        return .object([("MsgType", .string(type.rawValue)), ("MsgContent", value)])
    }

    private func flat<Content>(
        _ fields: [TIMRESTField<Content>], _ content: Content, _ unknownFields: UnknownFields, _ path: String, _ depth: Int
    ) throws(IMWireError) -> JSONValue {
        try checkDepth(depth, path: path)
        try checkUnknownFields(unknownFields, path: path)
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(fields.count)
        for field in fields {
            members.append((field.key, try field.value(of: content, path: path)))
        }
        return .object(members)
    }

    private func image(_ image: ImageElem, path: String, depth: Int) throws(IMWireError) -> JSONValue {
        try checkDepth(depth, path: path)
        try checkUnknownFields(image.unknownFields, path: path)
        // REST has one UUID per image elem; the model one per Image.
        let uuid = image.images.first(where: { !$0.uuid.isEmpty })?.uuid ?? ""
        if let index = image.images.firstIndex(where: { $0.uuid != uuid }) {
            try lossy(
                "Tencent REST has one UUID per TIMImageElem, but image \(index) has \"\(image.images[index].uuid)\" and another \"\(uuid)\"",
                path: Self.join(path, "images[\(index)].uuid"))
        }
        var infos: [JSONValue] = []
        infos.reserveCapacity(image.images.count)
        for (index, entry) in image.images.enumerated() {
            infos.append(try flat(TIMRESTContent.image, entry, entry.unknownFields, Self.join(path, "images[\(index)]"), depth + 1))
        }
        return .object([
            ("UUID", .string(uuid)),
            ("ImageFormat", .number(String(image.format.rawValue))),
            ("ImageInfoArray", .array(infos)),
        ])
    }

    private func relay(_ merger: MergerElem, path: String, depth: Int) throws(IMWireError) -> JSONValue {
        try checkDepth(depth, path: path)
        // JsonMsgKey lives in the merger's unknown fields; anything else there has no REST form.
        var download = merger.timRESTExactJSONMsgKey
        if download == nil, !merger.unknownFields.isEmpty {
            try lossy(
                "Tencent REST has no form for the \(merger.unknownFields.bytes.count) bytes of fields this schema does not know",
                path: path)
            // Keep a key among the foreign bytes only where it cannot clash with an inline list.
            if merger.messages.isEmpty { download = merger.timRESTJSONMsgKey.map { ($0, merger.timRESTMsgNum) } }
        }
        if merger.layersOverLimit {
            try lossy("Tencent REST's TIMRelayElem has no layers-over-limit key", path: Self.join(path, "layers_over_limit"))
        }
        let key = download?.key
        if key != nil, !merger.messages.isEmpty {
            throw notRepresentable(
                "a TIMRelayElem has either MsgList or JsonMsgKey; this merger has \(merger.messages.count) inline messages and a JsonMsgKey",
                path: Self.join(path, "messages"))
        }
        let count = download.map { Int($0.count) } ?? merger.messages.count
        var members: [(key: String, value: JSONValue)] = [
            ("Title", .string(merger.title)),
            ("MsgNum", .number(String(count))),
            ("CompatibleText", .string(merger.compatibleText)),
            ("AbstractList", .array(merger.abstractList.map(JSONValue.string))),
        ]
        if let key {
            members.append(("JsonMsgKey", .string(key)))
        } else {
            var list: [JSONValue] = []
            list.reserveCapacity(merger.messages.count)
            for (index, inner) in merger.messages.enumerated() {
                list.append(try message(inner, path: Self.join(path, "messages[\(index)]"), depth: depth + 1, inMsgList: true))
            }
            members.append(("MsgList", .array(list)))
        }
        return .object(members)
    }
}
