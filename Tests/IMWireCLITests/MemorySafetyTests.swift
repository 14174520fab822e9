import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Peak memory of decoding hostile input, measured in a subprocess (the `imwire` executable built
/// beside this test bundle): a length field claiming gigabytes allocates nothing, and any input's
/// peak memory stays within a constant times its size (the Reliability article (IMWire.docc)). Each shape's factor is the
/// model's worst case for it, with room for array growth; the Reliability article (IMWire.docc) lists them.
@Suite(.serialized) struct MemorySafetyTests {
    /// The `imwire` executable next to the running test bundle.
    static let imwire: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var directory = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
        if !FileManager.default.fileExists(atPath: bundle.appendingPathComponent("imwire").path) {
            directory = URL(fileURLWithPath: Bundle.main.bundlePath)
        }
        let candidates = [bundle, directory.deletingLastPathComponent(), directory]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("imwire").path) {
            return candidate.appendingPathComponent("imwire").path
        }
        return bundle.appendingPathComponent("imwire").path
    }()

    /// Runs `imwire ARGS < input` and returns its exit status and peak resident memory in bytes.
    static func peakMemory(_ arguments: [String], input: [UInt8]) throws -> (status: Int32, peak: Int) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imwire-mem-\(UUID().uuidString)")
        try Data(input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var pid: pid_t = 0
        let argv = ([imwire] + arguments + [file.path]).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The child reports its own peak (VmHWM): rusage of a posix_spawn'ed (vfork) child also
        // counts this test process's memory, and tests running in parallel would add to it.
        let report = file.path + ".peak"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let variables: [String] = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
            + ["IMWIRE_PEAK_MEMORY_FILE=\(report)"]
        let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        let spawned = posix_spawn(&pid, imwire, &actions, nil, argv, environment)
        guard spawned == 0 else { throw POSIXError(.init(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -(status & 0x7F)
        let line = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let kib = Int(line.split(whereSeparator: { !$0.isNumber }).first ?? "") ?? Int.max / 2048
        return (exitStatus, kib * 1024)
    }

    /// The process's footprint for a trivial input: runtime, libraries, stack reservation touched.
    static let baseline: Int = {
        (try? peakMemory(["convert", "--from", "binary", "--to", "binary"], input: [0x12, 0x01, 0x61]).peak) ?? 0
    }()

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 { out.append(UInt8(value & 0x7F) | 0x80); value >>= 7 }
        out.append(UInt8(value))
        return out
    }

    static let limitArguments = ["--max-input-size", String(64 * 1024 * 1024)]

    @Test(arguments: [UInt64(1) << 31, UInt64(1) << 32 - 1, UInt64(1) << 40, UInt64.max])
    func aLengthClaimingGigabytesAllocatesNothing(_ claimed: UInt64) throws {
        // A string, a sub-message and a bytes field each claiming `claimed` bytes, with 16 behind.
        for tag: [UInt8] in [[0x0A], [0x52], [0x52, 0x12, 0x12]] {
            let input = tag + Self.varint(claimed) + [UInt8](repeating: 0x41, count: 16)
            let run = try Self.peakMemory(["convert", "--from", "binary", "--to", "binary"], input: input)
            #expect(run.status == 1)
            #expect(run.peak < Self.baseline + 4 * 1024 * 1024, "peak \(run.peak) vs baseline \(Self.baseline)")
        }
    }

    @Test func aTwentyMegabyteStringCostsAFewTimesItsSize() throws {
        let size = 20 * 1024 * 1024
        let input = [UInt8(0x12)] + Self.varint(UInt64(size)) + [UInt8](repeating: 0x61, count: size)
        let run = try Self.peakMemory(["convert", "--from", "binary", "--to", "binary"] + Self.limitArguments, input: input)
        #expect(run.status == 0)
        // Read buffer, the decoded String, the encoded output: each about the input's size.
        #expect(run.peak - Self.baseline < 4 * input.count, "peak \(run.peak) for \(input.count) bytes")
    }

    @Test func millionsOfTinyElemsStayWithinAConstantFactor() throws {
        // Four million empty elems (2 bytes each on the wire, a 32-byte `Elem` each).
        let input = [UInt8]((0..<(8 * 1024 * 1024)).map { $0 % 2 == 0 ? UInt8(0x52) : UInt8(0x00) })
        let run = try Self.peakMemory(["convert", "--from", "binary", "--to", "binary"] + Self.limitArguments, input: input)
        #expect(run.status == 0)
        // Measured: about 19× (a 32-byte `Elem` per 2 input bytes, the input, the encoder's output).
        #expect(run.peak - Self.baseline < 24 * input.count, "peak \(run.peak) for \(input.count) bytes")
    }

    @Test func millionsOfTinyNestedMessagesStayWithinAConstantFactor() throws {
        // One merger holding 2 million empty messages: the model's worst case per input byte
        // (a 112-byte `Message` for 2 bytes of wire).
        let count = 2 * 1024 * 1024
        let merger = [UInt8]((0..<(2 * count)).map { $0 % 2 == 0 ? UInt8(0x2A) : UInt8(0x00) })  // MergerElem.messages
        let elem = [UInt8(0x52)] + Self.varint(UInt64(merger.count)) + merger  // Elem.merger
        let input = [UInt8(0x52)] + Self.varint(UInt64(elem.count)) + elem  // Message.elems
        let run = try Self.peakMemory(["convert", "--from", "binary", "--to", "binary"] + Self.limitArguments, input: input)
        #expect(run.status == 0)
        // Measured: about 59× (a 112-byte `Message` per 2 input bytes, the input, the output).
        #expect(run.peak - Self.baseline < 72 * input.count, "peak \(run.peak) for \(input.count) bytes")
    }

    @Test func millionsOfTinyElemsInJSONStayWithinAConstantFactor() throws {
        let elems: String = Array(repeating: "{}", count: 1_000_000).joined(separator: ",")
        let input = Array(#"{"elems":["#.utf8) + Array(elems.utf8) + Array("]}".utf8)
        let run = try Self.peakMemory(["convert", "--from", "json", "--to", "binary"] + Self.limitArguments, input: input)
        #expect(run.status == 0)
        // Measured: about 14× (a 32-byte `Elem` per 3 input bytes, the input, the output).
        #expect(run.peak - Self.baseline < 18 * input.count, "peak \(run.peak) for \(input.count) bytes")
    }

    // MARK: - tim-rest

    static func relay(layers: Int) -> [UInt8] {
        var text = #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}"#
        for _ in 0..<layers { text = #"{"MsgBody":[{"MsgType":"TIMRelayElem","MsgContent":{"MsgList":["# + text + "]}}]}" }
        return Array(text.utf8)
    }

    @Test func tensOfThousandsOfTIMRESTKeysStayWithinAConstantFactor() throws {
        let body = #"{"GroupId":"g","From_Account":"a","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]"#
        let input = Array((body + (0..<40_000).map { #","k\#($0)":\#($0)"# }.joined() + "}").utf8)
        let run = try Self.peakMemory(["convert", "--from", "tim-rest", "--to", "binary"], input: input)
        #expect(run.status == 0)
        // Measured: about 7× for the decode (the input, its tokens at 20 bytes each, the key slots),
        // 27× in all since every skipped key is reported: the CLI asks for the decoding report to
        // print a warning per key, and each of these 14-byte keys becomes an entry of about 300
        // bytes (its key, path and reason as strings). Linear still: what this bounds is the factor.
        #expect(run.peak - Self.baseline < 40 * input.count, "peak \(run.peak) for \(input.count) bytes")
    }

    /// The bound of a deep relay's peak memory per input byte: the descent's stack is part of it.
    static let deepRelayFactor: Int = {
        #if DEBUG
        250
        #else
        100
        #endif
    }()

    /// Deep relays: memory grows with the nesting like the input does (it was 1.8 GB for 4,444
    /// layers when every level built its REST path as a string).
    @Test func deepTIMRESTRelaysStayWithinAConstantFactor() throws {
        let depth = ["--max-depth", "20000"]
        let small = Self.relay(layers: 1_111)
        let large = Self.relay(layers: 4_444)
        let smallRun = try Self.peakMemory(["convert", "--from", "tim-rest", "--to", "binary"] + depth, input: small)
        let largeRun = try Self.peakMemory(["convert", "--from", "tim-rest", "--to", "binary"] + depth, input: large)
        #expect(smallRun.status == 0 && largeRun.status == 0)
        // Measured: about 50× optimised (13,000 message levels: the model, the tape, the stack of the
        // descent), about 146× unoptimised, whose frames are larger (as in DepthLimitTests).
        #expect(largeRun.peak - Self.baseline < Self.deepRelayFactor * large.count, "peak \(largeRun.peak) for \(large.count) bytes")
        #expect(largeRun.peak - Self.baseline < 5 * (smallRun.peak - Self.baseline) + 4 * 1024 * 1024,
                "4× the layers: \(largeRun.peak - Self.baseline) vs \(smallRun.peak - Self.baseline) bytes")
    }

    /// Binary → tim-rest of a deep merger: memory grows with the nesting (it was 2.1 GB for 6,000
    /// layers when the encoder built a value tree and a path string per level).
    @Test func encodingDeepMergersAsTIMRESTStaysWithinAConstantFactor() throws {
        func merger(_ layers: Int) -> [UInt8] {
            func ld(_ field: UInt64, _ payload: [UInt8]) -> [UInt8] { Self.varint(field << 3 | 2) + Self.varint(UInt64(payload.count)) + payload }
            var message = ld(10, ld(1, ld(1, Array("x".utf8))))
            for _ in 0..<layers { message = ld(10, ld(10, ld(5, message))) }
            return message
        }
        let depth = ["--max-depth", "20000"]
        let smallRun = try Self.peakMemory(["convert", "--from", "binary", "--to", "tim-rest"] + depth, input: merger(1_500))
        let largeRun = try Self.peakMemory(["convert", "--from", "binary", "--to", "tim-rest"] + depth, input: merger(6_000))
        #expect(smallRun.status == 0 && largeRun.status == 0)
        #expect(largeRun.peak - Self.baseline < 5 * (smallRun.peak - Self.baseline) + 4 * 1024 * 1024,
                "4× the layers: \(largeRun.peak - Self.baseline) vs \(smallRun.peak - Self.baseline) bytes")
        #expect(largeRun.peak - Self.baseline < 64 * 1024 * 1024, "peak \(largeRun.peak)")
    }
}
