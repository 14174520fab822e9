import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

/// The routing view reads the envelope a full decode would give, checks framing and envelope
/// strings as a full decode does, and leaves elem contents unread.
@Suite struct RoutingViewTests {
    struct Envelope: Equatable, CustomStringConvertible {
        var msgID = "", sender = "", topicID = ""
        var target: Message.Target?
        var timestampMs: UInt64 = 0, seq: UInt64 = 0, random: UInt64 = 0
        var priority = Priority.default
        var flags: [Bool] = []
        var kinds: [ElemKind?] = []
        var hasOfflinePushInfo = false

        init(_ message: Message) {
            msgID = message.msgID; sender = message.sender; topicID = message.topicID
            target = message.target
            timestampMs = message.timestampMs; seq = message.seq; random = message.random
            priority = message.priority
            flags = [message.needReadReceipt, message.excludedFromUnreadCount, message.excludedFromLastMessage,
                     message.onlineUserOnly, message.supportMessageExtension]
            kinds = message.elems.map(\.kind)
            hasOfflinePushInfo = message.offlinePushInfo != nil
        }

        init(_ view: MessageRoutingView) {
            msgID = view.msgID; sender = view.sender; topicID = view.topicID
            target = view.target
            timestampMs = view.timestampMs; seq = view.seq; random = view.random
            priority = view.priority
            flags = [view.needReadReceipt, view.excludedFromUnreadCount, view.excludedFromLastMessage,
                     view.onlineUserOnly, view.supportMessageExtension]
            kinds = Array(view.elemKinds)
            #expect(view.elemCount == kinds.count)
            #expect(view.primaryElemKind == (kinds.first ?? nil))
            hasOfflinePushInfo = view.hasOfflinePushInfo
            // The in-place bytes are the strings' bytes.
            #expect(Array(view.msgIDUTF8) == Array(msgID.utf8))
            #expect(Array(view.senderUTF8) == Array(sender.utf8))
            #expect(Array(view.topicIDUTF8) == Array(topicID.utf8))
            let targetID: String = switch target {
            case .receiver(let id), .groupID(let id), .roomID(let id): id
            case nil: ""
            }
            #expect(Array(view.targetIDUTF8) == Array(targetID.utf8))
        }

        var description: String { "\(msgID) \(sender) \(String(describing: target)) \(kinds)" }
    }

    static func viewEnvelope(_ bytes: [UInt8]) throws -> Envelope {
        try Message.withRoutingView(serializedBytes: bytes) { Envelope($0) }
    }

    @Test func theViewReadsWhatAFullDecodeReads() async {
        await propertyCheck(count: PropertyIterations.count(default: 1000), input: IMWireGen.message()) { message in
            guard let bytes = try? message.serializedBytes() else { Issue.record("encode failed"); return }
            #expect((try? Self.viewEnvelope(bytes)) == Envelope(message), "\(TestWire.hex(bytes))")
        }
    }

    /// The kinds of the first eight elems are noted when the view opens; more are walked again:
    /// both give the kinds a decode gives, at every count around the boundary.
    @Test(arguments: [0, 1, 7, 8, 9, 20])
    func elemKindsAtEveryCount(count: Int) throws {
        let samples: [Elem] = [.text("t"), .custom(CustomElem(data: [1])), .face(FaceElem(index: 3)), Elem(), .merger(MergerElem(title: "m"))]
        let message = Message(msgID: "m", elems: (0..<count).map { samples[$0 % samples.count] })
        let bytes = try message.serializedBytes()
        let envelope = try Self.viewEnvelope(bytes)
        #expect(envelope.kinds == message.elems.map(\.kind))
        #expect(envelope.kinds.count == count)
    }

    /// Non-canonical input: repeated scalars (last wins), a oneof set twice, a known field with a
    /// wire type that does not fit (kept unknown), an elem whose content changes kind, groups.
    @Test func decoderSemanticsForNonCanonicalInput() throws {
        let bytes: [UInt8] = [
            0x0A, 0x01, 0x61,  // msg_id "a"
            0x0A, 0x01, 0x62,  // msg_id "b" (last wins)
            0x1A, 0x01, 0x72,  // receiver "r"
            0x22, 0x01, 0x67,  // group_id "g" (the oneof's last member wins)
            0x30, 0x05,  // timestamp 5
            0x31, 1, 2, 3, 4, 5, 6, 7, 8,  // field 6 as fixed64: unknown, timestamp stays 5
            0x52, 0x06, 0x0A, 0x00, 0x1A, 0x00, 0x08, 0x01,  // elem: text, then image, then field 1 as varint (unknown)
            0x53, 0x54,  // field 10 as a group: an unknown field, not an elem
            0x78, 0x02,  // need_read_receipt = 2 (true)
            0x48, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F,  // priority 2^32 - 1, truncated to int32 -1
        ]
        let decoded = try Message(serializedBytes: bytes)
        let envelope = try Self.viewEnvelope(bytes)
        #expect(envelope == Envelope(decoded))
        #expect(envelope.msgID == "b" && envelope.target == .groupID("g") && envelope.timestampMs == 5)
        #expect(envelope.kinds == [.image] && envelope.flags[0] && envelope.priority == .unrecognized(-1))
    }

    /// Every cut of a valid message: the view throws exactly when a full decode of the framing
    /// would, with the same code and offset (cuts land in framing the view checks).
    @Test func everyTruncationFailsAsAFullDecodeFails() throws {
        var message = Message(msgID: "m", sender: "alice", target: .receiver("bob"), timestampMs: 1_700_000_000_000,
                              elems: [.text("hello"), .image(ImageElem(format: .png, images: [Image(type: .thumb, uuid: "u", size: 9)]))])
        message.offlinePushInfo = OfflinePushInfo(title: "t")
        let bytes = try message.serializedBytes()
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[..<cut])
            let full = Result { () throws(IMWireError) in try Message(serializedBytes: prefix) }
            let view = Result { try Self.viewEnvelope(prefix) }
            switch (full, view) {
            case (.success(let decoded), .success(let envelope)):
                #expect(envelope == Envelope(decoded), "cut \(cut)")
            case (.failure(let decodeError), .failure(let viewError as IMWireError)):
                #expect(viewError.code == decodeError.code && viewError.offset == decodeError.offset,
                        "cut \(cut): view \(viewError), decode \(decodeError)")
            default:
                Issue.record("cut \(cut): decode \(full), view \(view)")
            }
        }
    }

    /// Corrupted bytes: whatever a full decode accepts the view accepts with the same envelope,
    /// and whatever the view rejects a full decode rejects too.
    @Test func corruptionNeverMakesTheViewDisagreeWithADecode() async {
        let input = zip(IMWireGen.message(.small), Gen.int(in: 0...10_000), Gen.int(in: 0...255))
        await propertyCheck(count: PropertyIterations.count(default: 1000), input: input) { message, position, byte in
            guard var bytes = try? message.serializedBytes(), !bytes.isEmpty else { return }
            bytes[position % bytes.count] = UInt8(byte)
            let full = try? Message(serializedBytes: bytes)
            let view = try? Self.viewEnvelope(bytes)
            if let full { #expect(view == Envelope(full), "\(TestWire.hex(bytes))") }
            if view == nil { #expect(full == nil, "\(TestWire.hex(bytes))") }
        }
    }

    /// What the view does not read: invalid UTF-8 inside a text elem passes the view, not a decode.
    @Test func elemContentIsNotChecked() throws {
        let bytes: [UInt8] = [0x0A, 0x01, 0x6D, 0x52, 0x05, 0x0A, 0x03, 0x0A, 0x01, 0xFF]
        #expect(try Self.viewEnvelope(bytes).kinds == [.text])
        #expect(throws: IMWireError.matching(.invalidUTF8)) { try Message(serializedBytes: bytes) }
        // An envelope string is checked.
        #expect(throws: IMWireError.matching(.invalidUTF8)) { try Self.viewEnvelope([0x12, 0x01, 0xFF]) }
    }

    @Test func limitsApply() {
        let bytes = [UInt8](repeating: 0, count: 10)
        #expect(throws: IMWireError.matching(.inputTooLarge)) {
            try Message.withRoutingView(serializedBytes: bytes, options: BinaryDecodingOptions(maxInputSize: 9)) { _ in }
        }
        // An elem is a level: depth 1 admits the envelope but not an elem.
        #expect(throws: IMWireError.matching(.depthLimitExceeded)) {
            try Message.withRoutingView(serializedBytes: [0x52, 0x00], options: BinaryDecodingOptions(maxDepth: 1)) { _ in }
        }
    }

    /// Time grows linearly with the number of elems and of unknown fields (N vs 8N).
    @Test(.timed, arguments: ["elems", "unknown fields"])
    func openingTheViewIsLinear(_ shape: String) throws {
        func input(_ n: Int) throws -> [UInt8] {
            if shape == "elems" {
                return try Message(msgID: "m", elems: Array(repeating: .text("some text"), count: n)).serializedBytes()
            }
            return Array(repeating: [0xA0, 0x06, 0x01] as [UInt8], count: n).flatMap { $0 }
        }
        let small = try input(20_000)
        let large = try input(160_000)
        let ratio = growthRatio(bound: growthBound) { _ = try? Self.viewEnvelope(small) } large: { _ = try? Self.viewEnvelope(large) }
        #expect(ratio < growthBound, "8× the input took \(ratio)×")
    }
}
