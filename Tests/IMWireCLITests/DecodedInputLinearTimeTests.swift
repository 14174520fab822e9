import IMWire
import IMWireCLI
import IMWireTestSupport
import Testing

/// Every command that decodes a message and reads it does so in time linear in its size, on the
/// shapes that hold many parts (elems, a merger's messages, an image's Images, a group tips' member
/// list): `validate`, `convert` to each format and `inspect`, N against 8N (`growthRatio`). The
/// library's own reads of the same shapes: IMWireTests' DecodedValueLinearTimeTests.
@Suite struct DecodedInputLinearTimeTests {
    static func run(_ arguments: [String], stdin: [UInt8]) -> CLI.Result {
        CLI.run(arguments: arguments, io: CLIInput(readStandardInput: { limit in Array(stdin.prefix(limit)) },
                                                   readFile: { path, _ in throw CLIInputError.missing(path) }))
    }

    enum CLIInputError: Error { case missing(String) }

    /// A message whose one repeated part has `n` entries (the shapes of DecodedValueLinearTimeTests).
    static func input(_ shape: String, _ n: Int) throws -> [UInt8] {
        let message: Message
        switch shape {
        case "elems":
            message = Message(msgID: "m", sender: "alice", target: .groupID("g"), elems: Array(repeating: .text("hello"), count: n))
        case "merger messages":
            let inner = Message(msgID: "inner", sender: "bob", target: .groupID("g"), elems: [.text("hello")])
            message = Message(msgID: "m", sender: "alice", target: .groupID("g"),
                              elems: [.merger(MergerElem(title: "t", messages: Array(repeating: inner, count: n)))])
        case "images":
            let images = (0..<n).map { Image(type: .thumb, uuid: "u\($0)", size: 10, width: 1, height: 1, url: "https://x/\($0)") }
            message = Message(msgID: "m", sender: "alice", target: .groupID("g"), elems: [.image(ImageElem(format: .png, images: images))])
        default:
            let members = (0..<n).map { GroupMemberInfo(userID: "user\($0)", role: .member) }
            message = Message(msgID: "m", sender: "alice", target: .groupID("g"),
                              elems: [.groupTips(GroupTipsElem(groupID: "g", type: .join, memberList: members))])
        }
        return try message.serializedBytes()
    }

    static let commands: [[String]] = [
        ["validate", "--profile", "tencent", "--format", "binary"],
        ["convert", "--from", "binary", "--to", "json"],
        ["convert", "--from", "binary", "--to", "binary"],
        ["convert", "--from", "binary", "--to", "tim-rest"],
        ["inspect"],
    ]

    @Test(arguments: ["elems", "merger messages", "images", "member list"], commands)
    func everyCommandIsLinearInTheParts(_ shape: String, _ command: [String]) throws {
        let small = try Self.input(shape, 1_000)
        let large = try Self.input(shape, 8_000)
        let result = Self.run(command, stdin: large)
        // validate exits 1 when the message breaks a limit, and tim-rest refuses what REST cannot
        // carry: what is timed is the whole path, but it must have run, not failed on usage.
        #expect(result.status != 2, "\(command): \(result.stderr)")
        let ratio = growthRatio(bound: growthBound) { _ = Self.run(command, stdin: small) } large: {
            _ = Self.run(command, stdin: large)
        }
        #expect(ratio < growthBound, "\(command.joined(separator: " ")): 8× the \(shape) took \(ratio)× as long")
    }
}
