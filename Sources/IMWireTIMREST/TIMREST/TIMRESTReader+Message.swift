import IMWireCore
import IMWireJSONText

// Part of TIMRESTReader (TIMRESTReader.swift: the scanner, keys and typed values): the message, its
// elements and their contents, with the tape decoder's rules (TIMRESTDecoder+Envelope.swift and
// TIMRESTDecoder+Elements.swift) applied once an object's members are all read.

extension TIMRESTReader {
    // MARK: - Envelope

    /// A message object: the envelope keys in any order, `MsgBody` read where it comes.
    mutating func envelope(depth: Int, isRoot: Bool) throws(IMWireError) -> Message {
        try checkDepth(depth)
        var members = try openObject()
        var first = true
        var message = Message()
        var groupID: String?
        var receiver: String?
        var receivers: [String]?
        var msgRandom: UInt64?, random: UInt64?, stamp: UInt64?, time: UInt64?
        var onlineOnly: Bool?, msgOnlineOnly: Bool?, lifeTime: UInt64?, isNeedReadReceipt: Bool?, needReadReceipt: Bool?
        var callback: TIMRESTCallback?
        while let slot = try nextSlot(TIMRESTEnvelopeKey.table, &members, first: &first) {
            switch TIMRESTEnvelopeKey(rawValue: slot)! {
            case .fromAccount: message.sender = try string()
            case .toAccount:
                switch scanner.peek() {
                case UInt8(ascii: "\"")?: receiver = try string()
                case UInt8(ascii: "[")?: receivers = try strings()
                default: throw Self.notHere
                }
            case .groupID: groupID = try string()
            case .topicID: message.topicID = try string()
            case .msgSeq: message.seq = try unsigned()
            case .msgRandom: msgRandom = try unsigned(max: UInt64(UInt32.max))
            case .random: random = try unsigned(max: UInt64(UInt32.max))
            case .msgTimeStamp: stamp = try unsigned(max: UInt64.max / 1000)
            case .msgTime: time = try unsigned(max: UInt64.max / 1000)
            case .msgKey: message.msgID = try string()
            case .msgPriority: message.priority = try priority()
            case .msgBody: message.elems = try elems(depth: depth + 1)
            case .cloudCustomData: message.cloudCustomData = Array(try string().utf8)
            case .groupAtInfo: message.atUserList = try atUserList()
            case .sendMsgControl:
                let controls = try strings()
                message.excludedFromUnreadCount = controls.contains("NoUnread")
                message.excludedFromLastMessage = controls.contains("NoLastMsg")
            case .onlineOnlyFlag: onlineOnly = try flag()
            case .msgOnlineOnlyFlag: msgOnlineOnly = try flag()
            case .msgLifeTime: lifeTime = try unsigned()
            case .isNeedReadReceipt: isNeedReadReceipt = try flag()
            case .needReadReceipt: needReadReceipt = try flag()
            case .supportMessageExtension: message.supportMessageExtension = try flag()
            case .offlinePushInfo:
                try checkDepth(depth + 1)
                message.offlinePushInfo = try offlinePushInfo()
            case .callbackCommand:
                // Read at the root (a webhook body's command); elsewhere a key no field has.
                guard isRoot else {
                    try skipValue()
                    continue
                }
                guard scanner.peek() == UInt8(ascii: "\"") else { throw Self.notHere }
                let scanned = try scanner.scanString()
                callback = scanner.withBytes(scanned) { TIMRESTCallback(bytes: $0) }
            case .msgType, .msgContent:
                // An element's keys: skipped in a message; at the root, the document may be a single
                // element, which the tape decoder reads (below).
                try skipValue()
            }
        }
        if let callback {
            for key in callback.requiredKeys where !members[key.rawValue] { throw Self.notHere }
        }
        // No MsgBody: a single element at the root, or an error; the tape decoder tells which.
        guard members[TIMRESTEnvelopeKey.msgBody.rawValue] else { throw Self.notHere }

        if let groupID { message.target = .groupID(groupID) }
        if let receiver {
            guard groupID == nil else { throw Self.notHere }
            message.target = .receiver(receiver)
        }
        if let receivers {
            guard groupID != nil else { throw Self.notHere }
            message.targetedReceivers = receivers
        }
        message.random = msgRandom ?? random ?? 0
        message.timestampMs = (stamp ?? time ?? 0) * 1000
        message.onlineUserOnly = (onlineOnly ?? msgOnlineOnly ?? false) || lifeTime == 0
        message.needReadReceipt = isNeedReadReceipt ?? needReadReceipt ?? false
        return message
    }

    mutating func atUserList() throws(IMWireError) -> [String] {
        var list: [String] = []
        guard try openArray() else { return list }
        repeat {
            var members = try openObject()
            var first = true
            var allFlag: UInt64 = 0
            var account: String?
            var accountIsString = true
            while let slot = try nextSlot(TIMRESTGroupAtKey.table, &members, first: &first) {
                switch TIMRESTGroupAtKey(rawValue: slot)! {
                case .groupAtAllFlag: allFlag = try unsigned()
                case .groupAtAccount:
                    // Read only when the flag is 0, which may come after it.
                    if scanner.peek() == UInt8(ascii: "\"") {
                        account = try string()
                    } else {
                        accountIsString = false
                        try skipValue()
                    }
                }
            }
            switch allFlag {
            case 1:
                list.append(Message.atAllUserID)
            case 0:
                guard accountIsString, let account else { throw Self.notHere }
                list.append(Message.isAtAllUserID(account) ? Message.atAllUserID : account)
            default:
                throw Self.notHere
            }
        } while try nextElement()
        return list
    }

    mutating func offlinePushInfo() throws(IMWireError) -> OfflinePushInfo {
        var info = OfflinePushInfo()
        var members = try openObject()
        var first = true
        while let slot = try nextSlot(TIMRESTPushKey.table, &members, first: &first) {
            switch TIMRESTPushKey(rawValue: slot)! {
            case .pushFlag: info.disablePush = try flag()
            case .title: info.title = try string()
            case .desc: info.desc = try string()
            case .ext: info.ext = try string()
            case .androidInfo:
                var android = try openObject()
                var first = true
                while try nextSlot(TIMRESTAndroidKey.table, &android, first: &first) != nil {
                    info.androidSound = try string()
                }
            case .apnsInfo:
                var apns = try openObject()
                var first = true
                while let slot = try nextSlot(TIMRESTApnsKey.table, &apns, first: &first) {
                    switch TIMRESTApnsKey(rawValue: slot)! {
                    case .sound: info.iosSound = try string()
                    case .badgeMode: info.ignoreIOSBadge = try flag()
                    case .title: info.iosTitle = try string()
                    case .subTitle: info.iosSubtitle = try string()
                    case .image: info.iosImage = try string()
                    case .mutableContent: info.iosMutableContent = try flag()
                    }
                }
            }
        }
        return info
    }

    // MARK: - Elements

    mutating func elems(depth: Int) throws(IMWireError) -> [Elem] {
        var elems: [Elem] = []
        guard try openArray() else { return elems }
        repeat { elems.append(try elem(depth: depth)) } while try nextElement()
        return elems
    }

    /// A `MsgBody` element. A `MsgContent` before `MsgType` is checked, stepped over and read after.
    mutating func elem(depth: Int) throws(IMWireError) -> Elem {
        try checkDepth(depth)
        var members = try openObject()
        let level = jsonDepth
        var first = true
        var type: TIMRESTMsgType?
        var elem: Elem?
        var deferred: Int?
        while let slot = try nextSlot(TIMRESTElementKey.table, &members, first: &first) {
            if slot == TIMRESTElementKey.msgType.rawValue {
                guard scanner.peek() == UInt8(ascii: "\"") else { throw Self.notHere }
                let scanned = try scanner.scanString()
                guard let found = scanner.withBytes(scanned, { Self.msgTypes.slot(of: $0) }) else { throw Self.notHere }
                type = TIMRESTMsgType.allCases[found]
            } else if let type {
                elem = try content(type, depth: depth)
            } else {
                guard deferrals < Self.maxDeferrals else { throw Self.notHere }
                deferred = scanner.position
                guard stepOverObject() else { throw Self.notHere }
            }
        }
        guard let type else { throw Self.notHere }
        if let elem { return elem }
        guard let deferred else { throw Self.notHere }
        // Back to the content, as deep as it was, and on after the element once it is read.
        let resume = scanner.position
        let outside = jsonDepth
        scanner.position = deferred
        jsonDepth = level
        deferrals += 1
        let content = try content(type, depth: depth)
        deferrals -= 1
        scanner.position = resume
        jsonDepth = outside
        return content
    }

    /// `MsgType`'s values, by slot in ``TIMRESTMsgType/allCases``.
    static let msgTypes = TIMRESTKeyTable(TIMRESTMsgType.allCases.map(\.rawValue), object: "MsgType")

    /// The `MsgContent` of an element of `type`, at the position.
    mutating func content(_ type: TIMRESTMsgType, depth: Int) throws(IMWireError) -> Elem {
        guard scanner.peek() == UInt8(ascii: "{") else { throw Self.notHere }
        try checkDepth(depth + 1)
        switch type {
        case .text: return .text(try flat(TIMRESTContent.text))
        case .location: return .location(try flat(TIMRESTContent.location))
        case .face: return .face(try flat(TIMRESTContent.face))
        case .custom: return .custom(try flat(TIMRESTContent.custom))
        case .sound: return .sound(try flat(TIMRESTContent.sound))
        case .file: return .file(try flat(TIMRESTContent.file))
        case .video: return .video(try flat(TIMRESTContent.video))
        case .image: return .image(try image(depth: depth + 1))
        case .relay: return .merger(try relay(depth: depth + 1))
        }
    }

    /// A flat content object: keys by its table, values by the type's own switch.
    mutating func flat<Content: TIMRESTFlatContent>(_ table: TIMRESTContentTable<Content>) throws(IMWireError) -> Content {
        var members = try openObject()
        var first = true
        var content = Content()
        while let slot = try nextSlot(table.keys, &members, first: &first) {
            try content.read(slot, from: &self)
        }
        if members.present & table.required != table.required { throw Self.notHere }
        return content
    }

    mutating func image(depth: Int) throws(IMWireError) -> ImageElem {
        var members = try openObject()
        var first = true
        var image = ImageElem()
        var uuid: String?
        var images: [Image]?
        while let slot = try nextSlot(TIMRESTImageKey.table, &members, first: &first) {
            switch TIMRESTImageKey(rawValue: slot)! {
            case .uuid: uuid = try string()
            case .imageFormat: image.format = ImageFormat(rawValue: try int32())
            case .imageInfoArray:
                var entries: [Image] = []
                if try openArray() {
                    repeat {
                        try checkDepth(depth + 1)
                        entries.append(try flat(TIMRESTContent.image))
                    } while try nextElement()
                }
                images = entries
            }
        }
        guard let uuid, var images, !images.isEmpty || uuid.isEmpty else { throw Self.notHere }
        for index in images.indices { images[index].uuid = uuid }
        image.images = images
        return image
    }

    mutating func relay(depth: Int) throws(IMWireError) -> MergerElem {
        var members = try openObject()
        var first = true
        var merger = MergerElem()
        var messageCount: UInt64?
        var list: [Message]?
        var key: String?
        while let slot = try nextSlot(TIMRESTRelayKey.table, &members, first: &first) {
            switch TIMRESTRelayKey(rawValue: slot)! {
            case .title: merger.title = try string()
            case .msgNum: messageCount = try unsigned(max: UInt64(UInt32.max))
            case .compatibleText: merger.compatibleText = try string()
            case .abstractList: merger.abstractList = try strings()
            case .jsonMsgKey: key = try string()
            case .msgList:
                var messages: [Message] = []
                if try openArray() {
                    repeat { messages.append(try envelope(depth: depth + 1, isRoot: false)) } while try nextElement()
                }
                list = messages
            }
        }
        switch (list, key) {
        case (let list?, nil):
            // Collected in a local array and stored once: `merger.messages` is a computed property.
            merger.messages = list
        case (nil, let key?):
            guard !key.isEmpty else { throw Self.notHere }
            merger.jsonMsgKey = key
            merger.msgNum = UInt32(messageCount ?? 0)
        default:
            throw Self.notHere
        }
        return merger
    }
}

// MARK: - Flat contents, field by field

/// A flat content type the reader fills field by field: `slot` is the key's index in the type's
/// table (``TIMRESTContent``), whose order these switches follow. (The tables' key paths serve the
/// tape decoder and the writer; a key path write costs the reader more than the value it writes. The
/// tests hold the two readers to the same messages for every type.)
protocol TIMRESTFlatContent: TIMRESTDefaultInitializable {
    mutating func read(_ slot: Int, from reader: inout TIMRESTReader) throws(IMWireError)
}

extension TextElem: TIMRESTFlatContent {
    mutating func read(_ slot: Int, from reader: inout TIMRESTReader) throws(IMWireError) {
        text = try reader.string()
    }
}

extension LocationElem: TIMRESTFlatContent {
    mutating func read(_ slot: Int, from reader: inout TIMRESTReader) throws(IMWireError) {
        switch slot {
        case 0: desc = try reader.string()
        case 1: latitude = try reader.double()
        default: longitude = try reader.double()
        }
    }
}

extension FaceElem: TIMRESTFlatContent {
    mutating func read(_ slot: Int, from reader: inout TIMRESTReader) throws(IMWireError) {
        switch slot {
        case 0: index = try reader.int32()
        default: data = Array(try reader.string().utf8)
        }
    }
}

extension CustomElem: TIMRESTFlatContent {
    mutating func read(_ slot: Int, from reader: inout TIMRESTReader) throws(IMWireError) {
        switch slot {
        case 0: data = Array(try reader.string().utf8)
        case 1: desc = try reader.string()
        case 2: ext = try reader.string()
        default: sound = try reader.string()
        }
    }
}

extension SoundElem: TIMRESTFlatContent {
    mutating func read(_ slot: Int, from reader: inout TIMRESTReader) throws(IMWireError) {
        switch slot {
        case 0: url = try reader.string()
        case 1: uuid = try reader.string()
        case 2: dataSize = try reader.unsigned()
        case 3: duration = UInt32(try reader.unsigned(max: UInt64(UInt32.max)))
        default: _ = try reader.unsigned()
        }
    }
}

extension Image: TIMRESTFlatContent {
    mutating func read(_ slot: Int, from reader: inout TIMRESTReader) throws(IMWireError) {
        switch slot {
        case 0: type = ImageType(rawValue: try reader.int32())
        case 1: size = try reader.unsigned()
        case 2: width = UInt32(try reader.unsigned(max: UInt64(UInt32.max)))
        case 3: height = UInt32(try reader.unsigned(max: UInt64(UInt32.max)))
        default: url = try reader.string()
        }
    }
}

extension FileElem: TIMRESTFlatContent {
    mutating func read(_ slot: Int, from reader: inout TIMRESTReader) throws(IMWireError) {
        switch slot {
        case 0: url = try reader.string()
        case 1: uuid = try reader.string()
        case 2: fileSize = try reader.unsigned()
        case 3: fileName = try reader.string()
        default: _ = try reader.unsigned()
        }
    }
}

extension VideoElem: TIMRESTFlatContent {
    mutating func read(_ slot: Int, from reader: inout TIMRESTReader) throws(IMWireError) {
        switch slot {
        case 0: videoURL = try reader.string()
        case 1: videoUUID = try reader.string()
        case 2: videoSize = try reader.unsigned()
        case 3: duration = UInt32(try reader.unsigned(max: UInt64(UInt32.max)))
        case 4: videoFormat = try reader.string()
        case 6: snapshotURL = try reader.string()
        case 7: snapshotUUID = try reader.string()
        case 8: snapshotSize = try reader.unsigned()
        case 9: snapshotWidth = UInt32(try reader.unsigned(max: UInt64(UInt32.max)))
        case 10: snapshotHeight = UInt32(try reader.unsigned(max: UInt64(UInt32.max)))
        case 11: snapshotFormat = try reader.string()
        default: _ = try reader.unsigned()  // the two download flags
        }
    }
}
