// The timing harness every Swift implementation runs in: operations, workloads, the monotonic-clock
// measurement and the command line (`run`, `digest`, `memory`, `verify`, `profile`). imwire-bench
// runs it for IMWire and swift-protobuf; Scripts/bench builds a second copy for IMWire's eager model
// of commit 02d391d (Benchmarks/Harness/eager.sh), from this file, Corpus.swift and the IMWire
// workload files, so both measure with the same code.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CHeapInUse

public enum Operation: String, CaseIterable, Sendable {
    // What a consumer does (the headline columns, Docs/benchmarks.md):
    /// Decode each binary message and read every field once (the walk: Walk+IMWire.swift).
    case binaryDecodeRead = "binary-decode-read"
    /// Read every field of each message again: the walk over values already decoded from binary.
    case binaryRead = "binary-read"
    /// The walk over values built in code (the bar a second read of a decoded value is held to).
    case builtRead = "built-read"
    /// Encode values built in code (a sender's path): Build+IMWire.swift makes them.
    case binaryEncodeBuilt = "binary-encode-built"
    /// Decode each JSON message and read every field once.
    case jsonDecodeRead = "json-decode-read"
    /// Encode values built in code as JSON.
    case jsonEncodeBuilt = "json-encode-built"
    // Secondary:
    case binaryDecode = "binary-decode"
    case binaryEncode = "binary-encode"
    case jsonDecode = "json-decode"
    case jsonEncode = "json-encode"
    /// Make a message view of each binary message and read every field in place: the walk's reads,
    /// plus each string's and bytes' first byte (IMWire only: Walk+IMWireView.swift).
    case binaryViewRead = "binary-view-read"
    /// The same view made from each message's proto3 JSON (IMWire only).
    case jsonViewRead = "json-view-read"
    /// Validate each binary message against the tencent profile through the message view, and the
    /// same by decoding it first (IMWire only).
    case binaryValidateView = "binary-validate-view"
    case binaryDecodeValidate = "binary-decode-validate"
    /// Open a routing view on each binary message and read its envelope (IMWire only).
    case binaryRoute = "binary-route"
    /// The same envelope read through the message view, which checks the whole message (IMWire only).
    case binaryViewRoute = "binary-view-route"
    /// Decode each message's tim-rest JSON and read every field once: on a tim-rest corpus its
    /// NAME.timrest.msgs (IMWire with the walk; the tim-rest peers, Foundation's JSONDecoder and
    /// simdjson, with walks of their own); on another corpus (IMWire only) the tim-rest made from it
    /// untimed, lossy (`timREST(_:)`).
    case timRESTDecodeRead = "tim-rest-decode-read"
    /// Encode values built in code as tim-rest (a tim-rest corpus only; IMWire only).
    case timRESTEncodeBuilt = "tim-rest-encode-built"
    /// Count the binary size of each decoded message through the generated `traverse`: the first pass
    /// of an encoder driven by `traverse` front to back (IMWire only), timed beside `binary-encode`.
    case binarySizeTraverse = "binary-size-traverse"
    /// Build a `String` from the validated bytes of every string of the corpus, as the decoder does
    /// (IMWire only; the bytes are collected untimed).
    case stringBuild = "string-build"
    /// The same with the fallback for Apple systems before the 26 releases, which validates again.
    case stringBuildFallback = "string-build-fallback"

    public var isJSON: Bool { [.jsonDecode, .jsonEncode, .jsonDecodeRead, .jsonEncodeBuilt, .jsonViewRead].contains(self) }

    /// Whether only IMWire has it (the message and routing views, validation, tim-rest, the sizing
    /// pass, the string builder); a peer has the others.
    public var isIMWireOnly: Bool {
        switch self {
        case .binaryDecodeRead, .binaryRead, .builtRead, .binaryEncodeBuilt, .jsonDecodeRead, .jsonEncodeBuilt,
             .binaryDecode, .binaryEncode, .jsonDecode, .jsonEncode:
            false
        case .binaryViewRead, .jsonViewRead, .binaryValidateView, .binaryDecodeValidate, .binaryRoute, .binaryViewRoute,
             .timRESTDecodeRead, .timRESTEncodeBuilt, .binarySizeTraverse, .stringBuild, .stringBuildFallback:
            true
        }
    }
}

/// One operation over one corpus, its inputs prepared outside the timed part.
public struct Workload {
    public let implementation: String
    public let operation: Operation
    public let corpus: String
    public let messages: Int
    /// Bytes of the corpus in the operation's format (binary or JSON): the input of a decode, the
    /// (canonical) output of an encode, the encoding of what a read walks. MB/s is computed from this.
    public let bytes: Int
    /// Runs the operation on every message once; the results are handed to ``blackHole(_:)`` and dropped.
    /// Loops lend each input to the operation (raw records; models through an unsafe buffer's
    /// addressor), where `for model in models` would copy each first (a retain of every reference it
    /// holds): the loop's cost, not the library's; the C and C++ harnesses pass pointers too.
    public let pass: () throws -> Void

    /// `size`: the messages and bytes one pass handles, when the operation's inputs are not the
    /// corpus's binary or JSON (tim-rest, made from the corpus).
    public init(implementation: String, operation: Operation, corpus: Corpus, size: (messages: Int, bytes: Int)? = nil,
                pass: @escaping () throws -> Void) {
        self.implementation = implementation
        self.operation = operation
        self.corpus = corpus.name
        messages = size?.messages ?? corpus.count
        bytes = size?.bytes ?? (operation.isJSON ? corpus.jsonBytes : corpus.binaryBytes)
        self.pass = pass
    }
}

/// Keeps the optimiser from dropping a result it can prove unused.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

public struct WorkloadError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What one implementation offers the harness.
public struct HarnessImplementation: Sendable {
    public let name: String
    /// The workload of `operation` over `corpus`, or `nil` when the implementation has no such operation.
    public let workload: @Sendable (Operation, Corpus) throws -> Workload?
    /// The walk's digest summed over every message of `corpus`, per input format ("binary", "json").
    public let digests: @Sendable (Corpus) throws -> [(format: String, sum: UInt64)]
    /// Bytes held per value when `count` decoded values of `corpus` are kept, per what is kept
    /// ("message": each whole message; "elem": the first elem of each).
    public let memory: @Sendable (Corpus, Int) throws -> [(kept: String, bytesPerValue: Double)]

    public init(
        name: String, workload: @escaping @Sendable (Operation, Corpus) throws -> Workload?,
        digests: @escaping @Sendable (Corpus) throws -> [(format: String, sum: UInt64)],
        memory: @escaping @Sendable (Corpus, Int) throws -> [(kept: String, bytesPerValue: Double)]
    ) {
        self.name = name
        self.workload = workload
        self.digests = digests
        self.memory = memory
    }
}

// MARK: - Measuring

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Best seconds per pass over `samples` samples of `passesPerSample` passes, each sample at least
/// `sampleTime` long (calibrated after one warm-up pass).
func measure(_ workload: Workload, sampleTime: Double, samples: Int) throws -> (Double, Int) {
    func timed(_ passes: Int) throws -> Double {
        let start = now()
        for _ in 0..<passes { try workload.pass() }
        return now() - start
    }
    _ = try timed(1)
    var passes = 1
    while true {
        let elapsed = try timed(passes)
        if elapsed >= sampleTime / 2 {
            passes = max(1, Int((Double(passes) * sampleTime / elapsed).rounded(.up)))
            break
        }
        let factor = elapsed > 0 ? min(100, max(2, sampleTime / elapsed)) : 100
        passes = Int((Double(passes) * factor).rounded(.up))
    }
    var best = Double.infinity
    for _ in 0..<samples {
        let elapsed = try timed(passes)
        best = min(best, elapsed / Double(passes))
        if elapsed < sampleTime / 2 { passes *= 2 }  // calibrated on an outlier: keep samples long enough
    }
    return (best, passes)
}

/// The heap in use, in bytes (glibc's `mallinfo2`: every live allocation with its chunk overhead).
/// `nil` where the C library cannot tell.
public func heapInUse() -> Int? {
    let bytes = bench_heap_in_use()
    return bytes < 0 ? nil : Int(bytes)
}

/// Bytes held per value: the heap growth while `count` values made by `make(i)` are kept in an
/// array (its storage included: what a client holding its history in memory pays).
public func bytesHeld<Value>(count: Int, _ make: (Int) throws -> Value) throws -> Double {
    guard let before = heapInUse() else { throw WorkloadError("no mallinfo2 here") }
    var kept: [Value] = []
    kept.reserveCapacity(count)
    for index in 0..<count { kept.append(try make(index)) }
    let after = heapInUse()!
    blackHole(kept)
    return Double(after - before) / Double(count)
}

@inline(never)
func imwireProfileRegion(_ workload: Workload, passes: Int) throws {
    for _ in 0..<passes { try workload.pass() }
}

// MARK: - The command line

func fail(_ message: String) -> Never {
    let line = Array("bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

/// print, flushed at once so that Scripts/bench shows progress through a pipe.
func emit(_ line: String) {
    print(line)
    fflush(nil)
}

func clean(_ s: String) -> String {
    String(s.map { $0 == "\t" || $0 == "\n" ? " " : $0 })
}

func loadCorpus(_ name: String, _ directory: String) -> Corpus {
    do {
        return try Corpus(name: name, directory: directory)
    } catch {
        fail("\(error)")
    }
}

/// Counts the heap allocations `body` makes (imwire-allocs, which links the counting allocator).
public typealias AllocationCounter = (_ body: () throws -> Void) throws -> Int

/// Runs the command in `arguments` (the program's own, without its name) for `implementations`.
/// `verify` checks byte identity (imwire-bench only); `countAllocations` makes the `allocs` command
/// (imwire-allocs only). Prints lines Benchmarks/Harness/report.py reads.
public func runHarness(
    _ tool: String, _ implementations: [HarnessImplementation], arguments: [String],
    verify: ((Corpus) -> [VerifyResult])? = nil, countAllocations: AllocationCounter? = nil
) {
    let usage = """
        usage: \(tool) run     [--corpus NAME]... [--impl NAME]... [--op NAME]... [--sample-time S] [--samples N]
                                    [--round R]
               \(tool) digest  [--corpus NAME]... [--impl NAME]...
               \(tool) memory  [--corpus NAME]... [--impl NAME]... [--count N]
               \(tool) allocs  [--corpus NAME]... [--impl NAME]... [--op NAME]... [--passes N]
               \(tool) verify  [--corpus NAME]...
               \(tool) profile --impl NAME --corpus NAME --op NAME [--passes N]

        run      For each corpus, implementation and operation, in the order given: one warm-up pass, then
                 passes are timed in N samples (default 5) of at least S seconds each (default 0.2); the best
                 sample counts. An operation an implementation does not have is skipped. One line each:
                   result IMPL CORPUS OP MESSAGES BYTES SECONDS_PER_PASS PASSES_PER_SAMPLE SAMPLES ROUND
                 (BYTES: the corpus in the operation's format, binary or JSON; ROUND: the --round value,
                 default 1, which Scripts/bench sets to the interleaved round the line belongs to) or
                   error IMPL CORPUS OP MESSAGE
        digest   The walk's digest summed over every message, decoded from binary and from JSON:
                   digest IMPL CORPUS MESSAGES SUM        (IMPL "NAME json" for the JSON input)
        memory   Keeps N decoded messages (default 100000, the corpus repeated) and reports the heap they
                 hold per message, and per elem when only the first elem of each is kept:
                   memory IMPL CORPUS message|elem N BYTES_PER_VALUE
        allocs   Heap allocations per message of each operation: one warm-up pass, then N passes (default 3)
                 counted (imwire-allocs only, which links a counting allocator):
                   allocs IMPL CORPUS OP MESSAGES ALLOCATIONS_PER_MESSAGE
        verify   Checks that every implementation reproduces the canonical corpus bytes:
                   verify CORPUS CHECK CHECKED MISMATCHES INFORMATIONAL FIRST_MISMATCH
        profile  One warm-up pass, then N passes (default 10) of one operation and nothing else, for
                 callgrind (the measured part is the function imwireProfileRegion).

        Implementations: \(implementations.map(\.name).joined(separator: ", "))
        Operations: \(Operation.allCases.map(\.rawValue).joined(separator: ", "))
        Corpora: \(corpusNames.joined(separator: ", ")) (default: all five), or a part of chat:
                 \(chatPartNames.joined(separator: ", ")), or a tim-rest corpus (Scripts/bench makes them):
                 \(timRESTCorpusNames.joined(separator: ", ")); read from --corpora DIR, else
                 $IMWIRE_CORPORA, else Benchmarks/Corpora/out (python3 Benchmarks/Corpora/generate.py)
        """
    var args = arguments[...]
    guard let command = args.popFirst() else { fail("no command\n\(usage)") }
    if command == "-h" || command == "--help" {
        print(usage)
        exit(0)
    }
    guard ["run", "digest", "memory", "allocs", "verify", "profile"].contains(command) else { fail("unknown command \(command)\n\(usage)") }
    var corpora: [String] = []
    var chosen: [HarnessImplementation] = []
    var operations: [Operation] = []
    var directory = defaultCorpusDirectory()
    var sampleTime = 0.2, samples = 5, passes = command == "allocs" ? 3 : 10, round = 1, count = 100_000
    func value(_ flag: String) -> String {
        guard let v = args.popFirst() else { fail("\(flag) needs a value") }
        return v
    }
    func positive(_ flag: String) -> Int {
        guard let v = Int(value(flag)), v > 0 else { fail("\(flag) needs a count > 0") }
        return v
    }
    while let flag = args.popFirst() {
        switch flag {
        case "--corpus":
            let name = value(flag)
            guard (corpusNames + chatPartNames + timRESTCorpusNames).contains(name) else { fail("unknown corpus \(name)") }
            corpora.append(name)
        case "--impl":
            let name = value(flag)
            guard let impl = implementations.first(where: { $0.name == name }) else { fail("unknown implementation \(name)") }
            chosen.append(impl)
        case "--op":
            let name = value(flag)
            guard let op = Operation(rawValue: name) else { fail("unknown operation \(name)") }
            operations.append(op)
        case "--corpora": directory = value(flag)
        case "--sample-time":
            guard let v = Double(value(flag)), v > 0 else { fail("--sample-time needs seconds > 0") }
            sampleTime = v
        case "--samples": samples = positive(flag)
        case "--passes": passes = positive(flag)
        case "--count": count = positive(flag)
        case "--round":
            guard let v = Int(value(flag)), v >= 0 else { fail("--round needs a number >= 0") }
            round = v
        default: fail("unknown option \(flag)\n\(usage)")
        }
    }
    if corpora.isEmpty { corpora = corpusNames }
    if chosen.isEmpty { chosen = implementations }
    if operations.isEmpty { operations = Operation.allCases }

    /// Every chosen implementation on every corpus (and, `perOperation`, every operation): the lines
    /// `body` returns, or an error line naming the implementation, corpus and what failed.
    func forEach(perOperation: Bool, _ what: String, _ body: (HarnessImplementation, Corpus, Operation?) throws -> [String]) {
        for name in corpora {
            let corpus = loadCorpus(name, directory)
            for impl in chosen {
                for op in perOperation ? operations.map(Optional.some) : [nil] {
                    do {
                        for line in try body(impl, corpus, op) { emit(line) }
                    } catch {
                        emit("error\t\(impl.name)\t\(name)\t\(op?.rawValue ?? what)\t\(clean("\(error)"))")
                    }
                }
            }
        }
    }

    switch command {
    case "run":
        forEach(perOperation: true, "run") { impl, corpus, op in
            guard let op, let workload = try impl.workload(op, corpus) else { return [] }
            let (seconds, passesPerSample) = try measure(workload, sampleTime: sampleTime, samples: samples)
            return ["result\t\(impl.name)\t\(corpus.name)\t\(op.rawValue)\t\(workload.messages)\t\(workload.bytes)\t\(seconds)\t\(passesPerSample)\t\(samples)\t\(round)"]
        }
    case "digest":
        forEach(perOperation: false, "digest") { impl, corpus, _ in
            try impl.digests(corpus).map { format, sum in
                let label = format == "binary" || format.isEmpty ? impl.name : "\(impl.name) \(format)"
                return "digest\t\(label)\t\(corpus.name)\t\(corpus.count)\t\(sum)"
            }
        }
    case "memory":
        forEach(perOperation: false, "memory") { impl, corpus, _ in
            try impl.memory(corpus, count).map { kept, bytes in
                "memory\t\(impl.name)\t\(corpus.name)\t\(kept)\t\(count)\t\((bytes * 10).rounded() / 10)"
            }
        }
    case "allocs":
        guard let countAllocations else { fail("\(tool) counts no allocations: run imwire-allocs") }
        forEach(perOperation: true, "allocs") { impl, corpus, op in
            guard let op, let workload = try impl.workload(op, corpus) else { return [] }
            try workload.pass()  // warm-up: one-time allocations (caches, metadata) are left out
            let count = try countAllocations { for _ in 0..<passes { try workload.pass() } }
            guard count >= 0 else { fail("this C library's allocations cannot be counted") }
            let perMessage = Double(count) / Double(passes * workload.messages)
            return ["allocs\t\(impl.name)\t\(corpus.name)\t\(op.rawValue)\t\(workload.messages)\t\(perMessage)"]
        }
    case "verify":
        guard let verify else { fail("\(tool) has no byte-identity checks") }
        for name in corpora {
            for r in verify(loadCorpus(name, directory)) {
                emit("verify\t\(r.corpus)\t\(r.check)\t\(r.checked)\t\(r.mismatches)\t\(r.informational ? 1 : 0)\t\(clean(r.firstMismatch ?? "-"))")
            }
        }
    default:  // profile
        guard corpora.count == 1, chosen.count == 1, operations.count == 1 else {
            fail("profile needs exactly one --corpus, --impl and --op")
        }
        let corpus = loadCorpus(corpora[0], directory)
        do {
            guard let workload = try chosen[0].workload(operations[0], corpus) else {
                fail("\(chosen[0].name) has no \(operations[0].rawValue)")
            }
            try workload.pass()  // warm-up, outside the region: one-time costs (metadata, heap growth) are left out
            try imwireProfileRegion(workload, passes: passes)
            print("profiled \(passes) passes of \(workload.messages) messages (\(workload.bytes) B each pass)")
        } catch {
            fail("\(error)")
        }
    }
}

/// The result of one byte-identity check (Verify.swift).
public struct VerifyResult: Sendable {
    /// e.g. "IMWire binary round trip".
    public let check: String
    public let corpus: String
    public let checked: Int
    public let mismatches: Int
    /// Index, input and output of the first mismatch.
    public let firstMismatch: String?
    /// Informational checks report differences that are expected (a peer's own JSON style).
    public let informational: Bool
}
