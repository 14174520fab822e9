// The message view (issue 34): every field read in place agrees with the owned model decoded from
// the same bytes, for every message type; the view refuses what a decode refuses, with the same
// error; its values behave as documented (string comparison, spans, lists, maps, unknown fields);
// making it and walking it are linear in the input. (Allocation counts: the ordo-one suite's
// IMWire.binary-view-read thresholds, Docs/benchmarks.md.)

import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

@Suite("Message view")
struct MessageViewTests {
    /// `Message(view)` reads every field of every type through the view's accessors (the generated
    /// owned copy), so comparing it with the decoded value compares every value the view reads.
    @Test func theViewOfAnyMessageReadsWhatADecodeGives() async {
        await propertyCheck(count: PropertyIterations.count(default: 2000), input: IMWireGen.messageAndUnknownFields()) {
            message, unknown in
            do {
                let encoded = try message.serializedBytes() + unknown
                let decoded = try Message(serializedBytes: encoded)
                let copied = try Message.withView(serializedBytes: encoded) { Message($0) }
                #expect(copied == decoded, "bytes: \(TestWire.hex(encoded))")
                #expect(try copied.serializedBytes() == encoded)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// Each type's view on its own (every type is decodable as a root).
    @Test func everyTypesViewReadsWhatItsDecodeGives() async {
        func check<M: IMWireMessage>(_ value: M) throws {
            let encoded = try value.serializedBytes()
            let viewed = try M.withView(serializedBytes: encoded) { M($0) }
            #expect(viewed == value, "\(M.self): \(TestWire.hex(encoded))")
        }
        let input = IMWireGen.model { generator in generator.message() }
        await propertyCheck(count: PropertyIterations.count(default: 300), input: input) { message in
            do {
                try check(message)
                for elem in message.elems {
                    try check(elem)
                    switch elem.content {
                    case .text(let v)?: try check(v)
                    case .custom(let v)?: try check(v)
                    case .image(let v)?: try check(v); for image in v.images { try check(image) }
                    case .sound(let v)?: try check(v)
                    case .video(let v)?: try check(v)
                    case .file(let v)?: try check(v)
                    case .location(let v)?: try check(v)
                    case .face(let v)?: try check(v)
                    case .groupTips(let v)?:
                        try check(v)
                        for member in v.memberList { try check(member) }
                        for change in v.groupChangeList { try check(change) }
                        for change in v.memberChangeList { try check(change) }
                        for user in v.changedUserInfoList { try check(user) }
                    case .merger(let v)?: try check(v)
                    case .groupSystem(let v)?: try check(v)
                    case nil: break
                    }
                }
                if let info = message.offlinePushInfo { try check(info) }
                switch message.signal {
                case .recallNotice(let v)?: try check(v)
                case .groupReadReceipt(let v)?: try check(v)
                case .c2cReadReceipt(let v)?: try check(v)
                case nil: break
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// Hostile input: the view refuses exactly what a decode refuses, with the same error (code,
    /// offset, detail); what both accept reads the same.
    @Test func theViewRefusesWhatADecodeRefusesWithTheSameError() async {
        let input = IMWireGen.corruptedEncoding()
        await propertyCheck(count: PropertyIterations.count(default: 10000), input: input) { corrupted in
            let decoded: Result<Message, IMWireError> = Result { () throws(IMWireError) in try Message(serializedBytes: corrupted) }
            let viewed: Result<Message, IMWireError>
            do {
                viewed = .success(try Message.withView(serializedBytes: corrupted) { Message($0) })
            } catch let error as IMWireError {
                viewed = .failure(error)
            } catch {
                Issue.record("not an IMWireError: \(error)")
                return
            }
            #expect(viewed == decoded, "input: \(TestWire.hex(corrupted))")
        }
    }

    @Test func theDepthAndSizeLimitsAreADecodesLimits() throws {
        var message = Message(msgID: "inner", elems: [.text("x")])
        for _ in 0..<5 { message = Message(elems: [.merger(MergerElem(messages: [message]))]) }
        let bytes = try message.serializedBytes()
        let tight = BinaryDecodingOptions(maxDepth: 8)
        let decodeError = #expect(throws: IMWireError.self) { try Message(serializedBytes: bytes, options: tight) }
        let viewError = #expect(throws: IMWireError.self) { try Message.withView(serializedBytes: bytes, options: tight) { _ in () } }
        #expect(decodeError == viewError && decodeError?.code == .depthLimitExceeded)
        let small = BinaryDecodingOptions(maxInputSize: bytes.count - 1)
        let sizeError = #expect(throws: IMWireError.self) { try Message.withView(serializedBytes: bytes, options: small) { _ in () } }
        #expect(sizeError?.code == .inputTooLarge)
    }

    // MARK: Validation through the view

    /// Validating bytes through the view gives the decoded message's violations, in the same
    /// order, under every preset; the content size too. The generator makes messages that break
    /// limits (long IDs, many elems, mergers, signals), so violations are there to compare.
    @Test func validatingBytesThroughTheViewGivesTheDecodedMessagesViolations() async {
        await propertyCheck(count: PropertyIterations.count(default: 1000), input: IMWireGen.message()) { message in
            do {
                let encoded = try message.serializedBytes()
                let decoded = try Message(serializedBytes: encoded)
                for profile in ValidationProfile.presets {
                    let viewed = try Message.validate(serializedBytes: encoded, profile: profile)
                    #expect(viewed == decoded.validate(profile: profile), "\(profile.name): \(TestWire.hex(encoded))")
                }
                let size = try Message.withView(serializedBytes: encoded) { $0.contentByteCount }
                #expect(size == decoded.contentByteCount)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func validatingBytesThroughTheViewFindsWhatTheRulesFind() throws {
        // 10 text elems of 13 KB: Tencent's 12 KB content limit, its text limit; a receiver 40 bytes
        // long among the @ list (the ID limit is 32 bytes), and the @all ID, which is no user.
        let long = String(repeating: "x", count: 40)
        let message = Message(
            sender: "alice", target: .groupID("g"), elems: Array(repeating: .text(String(repeating: "字", count: 4_400)), count: 10),
            atUserList: [long, Message.atAllUserID])
        let bytes = try message.serializedBytes()
        let viewed = try Message.validate(serializedBytes: bytes, profile: .tencent)
        #expect(viewed == message.validate(profile: .tencent))
        #expect(viewed.contains { $0.code == .contentTooLarge })
        #expect(viewed.contains { $0.code == .userIDTooLong && $0.path == "at_user_list[0]" })
        #expect(!viewed.contains { $0.path == "at_user_list[1]" })
        // A merger's abstracts count UTF-16 code units: an emoji is two.
        let merger = Message(elems: [.merger(MergerElem(title: "t", abstractList: [String(repeating: "😀", count: 60)], messages: [Message(elems: [.text("a")])]))])
        let mergerBytes = try merger.serializedBytes()
        #expect(try Message.validate(serializedBytes: mergerBytes, profile: .tencentSDK) == merger.validate(profile: .tencentSDK))
        let refused = #expect(throws: IMWireError.self) { try Message.validate(serializedBytes: [0x0A, 0x05, 0x61], profile: .tencent) }
        let decodeError = #expect(throws: IMWireError.self) { try Message(serializedBytes: [0x0A, 0x05, 0x61]) }
        #expect(refused != nil && refused == decodeError)
    }

    @Test(.timed, arguments: DecodedValueLinearTimeTests.shapes)
    func validatingBytesThroughTheViewIsLinear(_ shape: String) throws {
        let small = try DecodedValueLinearTimeTests.message(shape, 2_000).serializedBytes()
        let large = try DecodedValueLinearTimeTests.message(shape, 16_000).serializedBytes()
        #expect(try !Message.validate(serializedBytes: large, profile: .tencent).isEmpty)
        let ratio = growthRatio(bound: growthBound) { _ = try? Message.validate(serializedBytes: small, profile: .tencent) } large: {
            _ = try? Message.validate(serializedBytes: large, profile: .tencent)
        }
        #expect(ratio < growthBound, "8× the \(shape) took \(ratio)× as long to validate through the view")
    }

    // MARK: The values

    static let sample = Message(
        msgID: "144115212345678901-1700000000-12345", sender: "alice", target: .groupID("@TGS#group"),
        timestampMs: 1_700_000_000_000, seq: 42, priority: .high,
        elems: [.text("你好, world"), .custom(CustomElem(data: [1, 2, 3], desc: "d", ext: "e")),
                .image(ImageElem(format: .png, images: [Image(type: .thumb, uuid: "u1", size: 10), Image(type: .large, uuid: "u2", size: 20)]))],
        atUserList: ["bob", "carol"], cloudCustomData: [0xFF, 0x00])

    @Test func stringsCompareAndCopyWithoutAllocatingAString() throws {
        try Message.withView(serializedBytes: Self.sample.serializedBytes()) { view in
            #expect(view.msgID == "144115212345678901-1700000000-12345")
            #expect("alice" == view.sender && view.sender != "alic")
            #expect(view.sender.count == 5 && view.sender.first == UInt8(ascii: "a") && view.sender.isASCII)
            #expect(String(view.msgID) == Self.sample.msgID && view.msgID.description == Self.sample.msgID)
            guard case .groupID(let group)? = view.target else {
                Issue.record("target \(String(describing: view.target))")
                return
            }
            #expect(group == "@TGS#group")
            guard case .text(let text)? = view.elems.first?.content else {
                Issue.record("first elem is not text")
                return
            }
            #expect(text.text == "你好, world" && !text.text.isASCII && text.text.count == "你好, world".utf8.count)
            #expect(text.text.withUTF8 { Array($0) } == Array("你好, world".utf8))
            #expect(text.text.withSpan { $0.count } == "你好, world".utf8.count)
            #if compiler(>=6.2)
            if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
                #expect(text.text.withUTF8Span { $0.count } == "你好, world".utf8.count)
            }
            #endif
            #expect(text.text.starts(with: "你好".utf8))
            #expect(Array(view.cloudCustomData) == [0xFF, 0x00] && view.cloudCustomData.withSpan { $0.byteCount } == 2)
            #expect(view.timestampMs == 1_700_000_000_000 && view.seq == 42 && view.priority == .high)
        }
    }

    @Test func listsWalkInWireOrderAndKnowTheirLast() throws {
        try Message.withView(serializedBytes: Self.sample.serializedBytes()) { view in
            #expect(view.elems.count == 3 && !view.elems.isEmpty)
            #expect(view.elems.map(\.kind) == [.text, .custom, .image])
            #expect(view.elems.last?.kind == .image)
            #expect(view.atUserList.map(String.init) == ["bob", "carol"])
            #expect(view.targetedReceivers.isEmpty && view.targetedReceivers.first == nil && view.targetedReceivers.last == nil)
            guard case .image(let image)? = view.elems.last?.content else { return }
            #expect(image.images.map(\.size) == [10, 20])
            // Indices compare in list order.
            let indices = Array(image.images.indices)
            #expect(indices.count == 2 && indices[0] < indices[1] && indices[1] < image.images.endIndex)
        }
    }

    @Test func aMapViewKeepsWireOrderAndItsSubscriptTheLastValue() throws {
        // customInfo, key "k" given twice: the owned map keeps the last value, as the subscript does.
        let first = try GroupMemberInfo(userID: "u", customInfo: ["k": [1], "a": [2]]).serializedBytes()
        let second = try GroupMemberInfo(customInfo: ["k": [3]]).serializedBytes()
        let bytes = first + second
        let decoded = try GroupMemberInfo(serializedBytes: bytes)
        try GroupMemberInfo.withView(serializedBytes: bytes) { view in
            #expect(view.customInfo.map { String($0.key) } == ["a", "k", "k"])
            #expect(view.customInfo["k"].map(Array.init) == [3])
            #expect(view.customInfo["missing"] == nil)
            #expect(GroupMemberInfo(view) == decoded)
        }
    }

    @Test func unknownFieldsAreTheirBytesInWireOrder() throws {
        let unknown: [UInt8] = [0xF8, 0x06, 0x01, 0x82, 0x07, 0x02, 0x61, 0x62]  // field 111 varint 1; field 112 "ab"
        let bytes = try TextElem(text: "t").serializedBytes() + unknown
        try TextElem.withView(serializedBytes: bytes) { view in
            #expect(view.unknownFields.map(Array.init) == [[0xF8, 0x06, 0x01], [0x82, 0x07, 0x02, 0x61, 0x62]])
            #expect(view.unknownFields.owned.bytes == unknown)
        }
    }

    @Test func viewsNestAndTheBodysErrorPassesThrough() throws {
        struct Stop: Error {}
        let outer = try Self.sample.serializedBytes()
        let inner = try Message(msgID: "inner").serializedBytes()
        try Message.withView(serializedBytes: outer) { view in
            // A view made inside another one's closure has words of its own.
            try Message.withView(serializedBytes: inner) { nested in #expect(nested.msgID == "inner") }
            #expect(view.msgID == Self.sample.msgID && view.elems.count == 3)
        }
        #expect(throws: Stop.self) { try Message.withView(serializedBytes: outer) { _ in throw Stop() } }
        // Any contiguous or non-contiguous collection.
        #expect(try Message.withView(serializedBytes: outer[...]) { Message($0) } == Self.sample)
        #expect(try Message.withView(serializedBytes: AnySequenceCollection(outer)) { Message($0) } == Self.sample)
    }

    @Test func anEmptyInputIsAnEmptyMessage() throws {
        try Message.withView(serializedBytes: [UInt8]()) { view in
            #expect(view.msgID.isEmpty && view.elems.isEmpty && view.target == nil && view.signal == nil)
            #expect(Message(view) == Message())
        }
    }

    // MARK: Linear time

    @Test(.timed, arguments: DecodedValueLinearTimeTests.shapes)
    func makingAndWalkingAViewIsLinear(_ shape: String) throws {
        let small = try DecodedValueLinearTimeTests.message(shape, 2_000).serializedBytes()
        let large = try DecodedValueLinearTimeTests.message(shape, 16_000).serializedBytes()
        func walk(_ bytes: [UInt8]) -> Int {
            (try? Message.withView(serializedBytes: bytes) { view in
                var sum = 0
                for elem in view.elems {
                    switch elem.content {
                    case .text(let text)?: sum &+= text.text.count
                    case .merger(let merger)?: for message in merger.messages { sum &+= message.msgID.count }
                    case .image(let image)?: for info in image.images { sum &+= info.uuid.count }
                    case .groupTips(let tips)?: for member in tips.memberList { sum &+= member.userID.count }
                    default: break
                    }
                }
                return sum
            }) ?? -1
        }
        #expect(walk(large) > 0)
        let ratio = growthRatio(bound: growthBound) { _ = walk(small) } large: { _ = walk(large) }
        #expect(ratio < growthBound, "8× the \(shape) took \(ratio)× as long to view and walk")
    }
}

/// A collection without contiguous storage, for the copying path.
private struct AnySequenceCollection: Collection {
    let base: [UInt8]
    init(_ base: [UInt8]) { self.base = base }
    var startIndex: Int { base.startIndex }
    var endIndex: Int { base.endIndex }
    subscript(position: Int) -> UInt8 { base[position] }
    func index(after i: Int) -> Int { i + 1 }
}
