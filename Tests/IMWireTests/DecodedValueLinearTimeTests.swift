import IMWire
import IMWireTestSupport
import Testing

/// Reading a decoded value costs time linear in its size, whatever reads it: `validate(profile:)`
/// on the shapes that hold many parts (elems, a merger's messages, an image's Images, a group tips'
/// member list), each decoded from binary and from proto3 JSON, and validation of a message at the
/// default input limit. Measured as every linear-time test is: N against 8N (`growthRatio`:
/// interleaved rounds, measured again while over the bound); linear is about 8×, quadratic about 64×.
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

    @Test(arguments: shapes, ["binary", "json"])
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
    @Test func validatingAMessageAtTheDefaultInputLimitIsLinear() throws {
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
