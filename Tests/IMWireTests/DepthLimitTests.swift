import IMWire
import Testing

/// Builds a message whose merger nests `layers` deep; the innermost message holds one text elem.
func nestedMerger(layers: Int) -> Message {
    var message = Message(sender: "inner", elems: [.text("bottom")])
    for layer in 0..<layers {
        message = Message(sender: "l\(layer)", elems: [.merger(MergerElem(title: "t", messages: [message]))])
    }
    return message
}

/// The same nesting written directly as bytes (no encoder recursion, linear time), for depths the
/// encoder refuses: Message{elems: Elem{merger: MergerElem{messages: …}}} `layers` times around
/// Message{elems: Elem{text: TextElem{text: "x"}}}.
func nestedMergerBytes(layers: Int) -> [UInt8] {
    func header(_ field: UInt8, _ length: Int) -> [UInt8] {
        var out: [UInt8] = [field << 3 | 2]
        var length = UInt64(length)
        while length >= 0x80 { out.append(UInt8(length & 0x7F) | 0x80); length >>= 7 }
        out.append(UInt8(length))
        return out
    }
    let core: [UInt8] = [0x52, 0x05, 0x0A, 0x03, 0x0A, 0x01, 0x78]  // elems{text{text:"x"}}
    var headers: [[UInt8]] = []  // innermost first
    var size = core.count
    for _ in 0..<layers {
        for field: UInt8 in [5, 10, 10] {  // MergerElem.messages, Elem.merger, Message.elems
            let bytes = header(field, size)
            headers.append(bytes)
            size += bytes.count
        }
    }
    var out: [UInt8] = []
    out.reserveCapacity(size)
    for bytes in headers.reversed() { out += bytes }
    return out + core
}

@Suite struct DepthLimitTests {
    @Test func defaultLimitAdmitsTencentsHundredMergerLayers() throws {
        let message = nestedMerger(layers: 100)
        let bytes = try message.serializedBytes()
        #expect(try Message(serializedBytes: bytes) == message)
    }

    @Test func defaultLimitRejectsMergerNestedPastTheBound() throws {
        let layers = BinaryDecodingOptions.defaultMaxDepth / 3 + 1
        let bytes = nestedMergerBytes(layers: layers)
        #expect(throws: IMWireError(code: .depthLimitExceeded, reason: "")) {
            try Message(serializedBytes: bytes)
        }
    }

    @Test func depthLimitIsConfigurable() throws {
        let bytes = try nestedMerger(layers: 3).serializedBytes()  // 12 levels: M E Merger M … Text
        #expect(throws: IMWireError(code: .depthLimitExceeded, reason: "")) {
            try Message(serializedBytes: bytes, options: BinaryDecodingOptions(maxDepth: 11))
        }
        _ = try Message(serializedBytes: bytes, options: BinaryDecodingOptions(maxDepth: 12))
    }

    @Test func encoderRefusesModelsDeeperThanItsLimit() throws {
        let message = nestedMerger(layers: 200)
        #expect(throws: IMWireError(code: .depthLimitExceeded, reason: "")) {
            try message.serializedBytes()
        }
        _ = try message.serializedBytes(options: BinaryEncodingOptions(maxDepth: 700))
    }

    /// The guarantee holds for optimised builds, which is what servers run (CI runs the tests with
    /// `-c release`); unoptimised code has larger frames and needs about 2 MiB for the same depth.
    static let workerStackSize: Int = {
        #if DEBUG
        2 * 1024 * 1024
        #else
        512 * 1024
        #endif
    }()

    @Test(arguments: [100, 105, 106, 1000, 100_000])
    func decodingDeepInputOnA512KBStackNeverOverflows(layers: Int) {
        let bytes = nestedMergerBytes(layers: layers)
        let outcome = runOnThread(stackSize: Self.workerStackSize) { () -> String in
            do {
                _ = try Message(serializedBytes: bytes)
                return "decoded"
            } catch let error as IMWireError {
                return error.code.name
            } catch {
                return "unexpected \(error)"
            }
        }
        #expect(outcome == (layers * 3 + 3 <= BinaryDecodingOptions.defaultMaxDepth ? "decoded" : "depth_limit_exceeded"))
    }
}
