import IMWireCore
import IMWireJSONText

// Part of TIMRESTDecoder (TIMRESTDecoder.swift: the reader's state and the document's shapes), split
// by aspect: the elements of MsgBody — flat contents, images, relays.

extension TIMRESTDecoder {
    // MARK: - Elements

    mutating func elems(_ array: Int, depth: Int) throws(IMWireError) -> [Elem] {
        var elems: [Elem] = []
        elems.reserveCapacity(Int(tape[array].count))
        for (index, value) in tape.elements(of: array).enumerated() {
            path.push(index)
            elems.append(try elem(value, depth: depth))
            path.pop()
        }
        return elems
    }

    mutating func elem(_ value: Int, depth: Int) throws(IMWireError) -> Elem {
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
    func elemType(_ value: Int) throws(IMWireError) -> (TIMRESTMsgType, Int) {
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
    func flatElem(_ type: TIMRESTMsgType, _ value: Int) throws(IMWireError) -> Elem {
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
    func flat<Content: TIMRESTDefaultInitializable>(
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

    mutating func image(_ value: Int, depth: Int) throws(IMWireError) -> ImageElem {
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

    mutating func relay(_ value: Int, depth: Int) throws(IMWireError) -> MergerElem {
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
    func relayHead(_ object: TIMRESTMembers<TIMRESTRelayKey>) throws(IMWireError) -> MergerElem {
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
}
