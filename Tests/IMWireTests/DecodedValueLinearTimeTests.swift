import IMWire
import IMWireTestSupport
import Testing

/// Reading a decoded value costs time linear in its size, whatever reads it: `validate(profile:)`
/// on the shapes that hold many parts (elems, a merger's messages, an image's Images, a group tips'
/// member list), each decoded from binary and from proto3 JSON; validation of a message at the
/// default input limit; an index loop over the parts (`for i in m.elems.indices { m.elems[i] }`,
/// which costs a read of the property per part); hashing and equality. Measured as every linear-time
/// test is: N against 8N (`growthRatio`: interleaved rounds, measured again while over the bound);
/// linear is about 8×, quadratic about 64×. (The CLI's paths on the same shapes:
/// IMWireCLITests' DecodedInputLinearTimeTests.)
@Suite struct DecodedValueLinearTimeTests {
    /// A message whose one repeated part has `n` entries, for each shape.
    static func message(_ shape: String, _ n: Int) -> Message {
        switch shape {
        case "elems":
            return Message(msgID: "m", sender: "alice", target: .groupID("g"), elems: Array(repeating: .text("hello"), count: n))
        case "merger messages":
            let inner = Message(msgID: "inner", sender: "bob", elems: [.text("hello")])
            return Message(sender: "alice", target: .groupID("g"),
                           elems: [.merger(MergerElem(title: "t", messages: Array(repeating: inner, count: n)))])
        case "images":
            let images = (0..<n).map { Image(type: .thumb, uuid: "u\($0)", size: 10, width: 1, height: 1, url: "https://x/\($0)") }
            return Message(sender: "alice", target: .groupID("g"), elems: [.image(ImageElem(format: .png, images: images))])
        case "member list":
            let members = (0..<n).map { GroupMemberInfo(userID: "user\($0)", role: .member) }
            return Message(sender: "alice", target: .groupID("g"),
                           elems: [.groupTips(GroupTipsElem(groupID: "g", type: .join, memberList: members))])
        default:
            preconditionFailure("no shape \(shape)")
        }
    }

    static let shapes = ["elems", "merger messages", "images", "member list"]

    /// `message` decoded from the format named.
    static func decoded(_ message: Message, _ format: String) throws -> Message {
        switch format {
        case "binary": try Message(serializedBytes: message.serializedBytes())
        case "json": try Message(jsonUTF8Bytes: message.jsonUTF8Bytes())
        default: try Message(timRESTUTF8Bytes: message.timRESTUTF8Bytes())
        }
    }

    /// Reads every part of the shape by index, through the public properties each time, as a loop
    /// over `indices` does: the sum of something in each part, so nothing is skipped.
    static func readByIndex(_ message: Message, _ shape: String) -> Int {
        var sum = 0
        switch shape {
        case "elems":
            for index in message.elems.indices { sum &+= message.elems[index].kind == .text ? 1 : 0 }
        case "merger messages":
            guard case .merger(let merger)? = message.elems[0].content else { return -1 }
            for index in merger.messages.indices { sum &+= merger.messages[index].msgID.utf8.count }
        case "images":
            guard case .image(let image)? = message.elems[0].content else { return -1 }
            for index in image.images.indices { sum &+= image.images[index].uuid.utf8.count }
        default:
            guard case .groupTips(let tips)? = message.elems[0].content else { return -1 }
            for index in tips.memberList.indices { sum &+= tips.memberList[index].userID.utf8.count }
        }
        return sum
    }

    @Test(.timed, arguments: shapes, ["binary", "json"])
    func readingEveryPartByIndexIsLinear(_ shape: String, _ format: String) throws {
        let small = try Self.decoded(Self.message(shape, 2_000), format)
        let large = try Self.decoded(Self.message(shape, 16_000), format)
        #expect(Self.readByIndex(large, shape) > 0)
        let ratio = growthRatio(bound: growthBound) { _ = Self.readByIndex(small, shape) } large: {
            _ = Self.readByIndex(large, shape)
        }
        #expect(ratio < growthBound, "8× the \(shape) took \(ratio)× as long to read by index")
    }

    @Test(.timed, arguments: shapes, ["binary", "json"])
    func hashingAndComparingADecodedValueAreLinear(_ shape: String, _ format: String) throws {
        // Two equal values decoded separately: equality compares every part, not a shared identity.
        let small = try (Self.decoded(Self.message(shape, 2_000), format), Self.decoded(Self.message(shape, 2_000), format))
        let large = try (Self.decoded(Self.message(shape, 16_000), format), Self.decoded(Self.message(shape, 16_000), format))
        #expect(large.0 == large.1 && large.0.hashValue == large.1.hashValue)
        let equality = growthRatio(bound: growthBound) { _ = small.0 == small.1 } large: { _ = large.0 == large.1 }
        #expect(equality < growthBound, "8× the \(shape) took \(equality)× as long to compare")
        let hashing = growthRatio(bound: growthBound) { _ = small.0.hashValue } large: { _ = large.0.hashValue }
        #expect(hashing < growthBound, "8× the \(shape) took \(hashing)× as long to hash")
    }

    @Test(.timed, arguments: shapes, ["binary", "json"])
    func validatingADecodedValueIsLinear(_ shape: String, _ format: String) throws {
        func decoded(_ n: Int) throws -> Message {
            let message = Self.message(shape, n)
            return format == "binary"
                ? try Message(serializedBytes: message.serializedBytes())
                : try Message(jsonUTF8Bytes: message.jsonUTF8Bytes())
        }
        let small = try decoded(2_000)
        let large = try decoded(16_000)
        #expect(!large.validate(profile: .tencent).isEmpty, "the large message breaks Tencent's limits")
        let ratio = growthRatio(bound: growthBound) { _ = small.validate(profile: .tencent) } large: {
            _ = large.validate(profile: .tencent)
        }
        #expect(ratio < growthBound, "8× the \(shape) took \(ratio)× as long to validate")
    }

    /// The default input limit admits about 760,000 text elems in one binary message: validating it
    /// takes time linear in its size (1 MiB against 8 MiB, the limit).
    @Test(.timed) func validatingAMessageAtTheDefaultInputLimitIsLinear() throws {
        let limit = BinaryDecodingOptions.defaultMaxInputSize
        func decoded(bytes: Int) throws -> Message {
            let one = try Message(elems: [.text("a")]).serializedBytes().count
            var encoded = try Message(elems: Array(repeating: .text("a"), count: bytes / one)).serializedBytes()
            if encoded.count > bytes { encoded = try Message(elems: Array(repeating: .text("a"), count: bytes / one - 1)).serializedBytes() }
            return try Message(serializedBytes: encoded)
        }
        let small = try decoded(bytes: limit / 8)
        let large = try decoded(bytes: limit)
        #expect(large.elems.count > 700_000)
        let ratio = growthRatio(bound: growthBound) { _ = small.validate(profile: .tencent) } large: {
            _ = large.validate(profile: .tencent)
        }
        #expect(ratio < growthBound, "8× the input took \(ratio)× as long to validate")
    }
}
