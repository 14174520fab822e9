import IMWire
import IMWireTestSupport
import Testing

@Suite struct DepthLimitTests {
    @Test func defaultLimitAdmitsTencentsHundredMergerLayers() throws {
        let message = nestedMerger(layers: 100)
        let bytes = try message.serializedBytes()
        #expect(try Message(serializedBytes: bytes) == message)
    }

    @Test func defaultLimitRejectsMergerNestedPastTheBound() throws {
        let layers = BinaryDecodingOptions.defaultMaxDepth / 3 + 1
        let bytes = nestedMergerBytes(layers: layers)
        #expect(throws: IMWireError.matching(.depthLimitExceeded)) {
            try Message(serializedBytes: bytes)
        }
    }

    @Test func depthLimitIsConfigurable() throws {
        let bytes = try nestedMerger(layers: 3).serializedBytes()  // 12 levels: M E Merger M … Text
        #expect(throws: IMWireError.matching(.depthLimitExceeded)) {
            try Message(serializedBytes: bytes, options: BinaryDecodingOptions(maxDepth: 11))
        }
        _ = try Message(serializedBytes: bytes, options: BinaryDecodingOptions(maxDepth: 12))
    }

    @Test func encoderRefusesModelsDeeperThanItsLimit() throws {
        let message = nestedMerger(layers: 200)
        #expect(throws: IMWireError.matching(.depthLimitExceeded)) {
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
