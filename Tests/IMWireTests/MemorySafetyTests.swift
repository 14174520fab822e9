import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Peak memory of decoding hostile input, measured in a subprocess (the `imwire` executable built
/// beside this test bundle): a length field claiming gigabytes allocates nothing, and any input's
/// peak memory stays within a constant times its size (SPEC §3.4). Each shape's factor is the
/// model's worst case for it, with room for array growth; README "Reliability" lists them.
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
        // Four million empty elems (2 bytes each on the wire, 32 bytes each in the model).
        let input = [UInt8]((0..<(8 * 1024 * 1024)).map { $0 % 2 == 0 ? UInt8(0x52) : UInt8(0x00) })
        let run = try Self.peakMemory(["convert", "--from", "binary", "--to", "binary"] + Self.limitArguments, input: input)
        #expect(run.status == 0)
        // Measured: about 23× (32-byte Elem per 2 input bytes, array growth, the encoder's output).
        #expect(run.peak - Self.baseline < 32 * input.count, "peak \(run.peak) for \(input.count) bytes")
    }

    @Test func millionsOfTinyNestedMessagesStayWithinAConstantFactor() throws {
        // One merger holding 2 million empty messages: the model's worst case per input byte
        // (144 bytes of Message for 2 bytes of wire, plus array growth).
        let count = 2 * 1024 * 1024
        let merger = [UInt8]((0..<(2 * count)).map { $0 % 2 == 0 ? UInt8(0x2A) : UInt8(0x00) })  // MergerElem.messages
        let elem = [UInt8(0x52)] + Self.varint(UInt64(merger.count)) + merger  // Elem.merger
        let input = [UInt8(0x52)] + Self.varint(UInt64(elem.count)) + elem  // Message.elems
        let run = try Self.peakMemory(["convert", "--from", "binary", "--to", "binary"] + Self.limitArguments, input: input)
        #expect(run.status == 0)
        // Measured: about 80× (a 144-byte Message per 2 input bytes, array growth, size cache).
        #expect(run.peak - Self.baseline < 100 * input.count, "peak \(run.peak) for \(input.count) bytes")
    }

    @Test func millionsOfTinyElemsInJSONStayWithinAConstantFactor() throws {
        let elems: String = Array(repeating: "{}", count: 1_000_000).joined(separator: ",")
        let input = Array(#"{"elems":["#.utf8) + Array(elems.utf8) + Array("]}".utf8)
        let run = try Self.peakMemory(["convert", "--from", "json", "--to", "binary"] + Self.limitArguments, input: input)
        #expect(run.status == 0)
        // Measured: about 14×.
        #expect(run.peak - Self.baseline < 24 * input.count, "peak \(run.peak) for \(input.count) bytes")
    }
}
