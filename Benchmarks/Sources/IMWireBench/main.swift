// imwire-bench: times IMWire and swift-protobuf over the benchmark corpora with a monotonic clock.
// Scripts/bench runs it next to the protobuf-c, upb and memcpy harnesses and prints the table;
// Scripts/profile runs its `profile` command under callgrind.

import BenchSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
    usage: imwire-bench run     [--corpus NAME]... [--impl NAME]... [--op NAME]... [--sample-time S] [--samples N]
                                [--round R]
           imwire-bench verify  [--corpus NAME]...
           imwire-bench profile --impl NAME --corpus NAME --op NAME [--passes N]

    run      For each corpus, implementation and operation, in the order given: one warm-up pass, then
             passes are timed in N samples (default 5) of at least S seconds each (default 0.2); the best
             sample counts. An implementation without the operation (swift-protobuf has no binary-route)
             is skipped. Prints one tab-separated line per measurement:
               result IMPL CORPUS OP MESSAGES BYTES SECONDS_PER_PASS PASSES_PER_SAMPLE SAMPLES ROUND
             (BYTES: the corpus in the operation's format, binary or JSON; ROUND: the --round value,
             default 1, which Scripts/bench sets to the interleaved round the line belongs to) or
               error IMPL CORPUS OP MESSAGE
    verify   Checks that every implementation reproduces the canonical corpus bytes. One line per check:
               verify CORPUS CHECK CHECKED MISMATCHES INFORMATIONAL FIRST_MISMATCH
    profile  Runs one warm-up pass, then N passes (default 10) of one operation and nothing else, for
             callgrind (the measured part is the function imwireProfileRegion, which runs the N passes).
             Prints: profiled N passes of M messages (B B each pass)

    The C and Python harnesses (pbc_bench, upb_bench.py) print the same lines.

    Implementations: \(Implementation.allCases.map(\.rawValue).joined(separator: ", "))
    Operations: \(Operation.allCases.map(\.rawValue).joined(separator: ", ")) (binary-route: IMWire's
             routing view, Message.withRoutingView, reading msg id, sender, target, timestamp, seq and
             the elem kinds of each message; MB/s counts the binary bytes)
    Corpora: \(corpusNames.joined(separator: ", ")) (default: all five), or a part of chat:
             \(chatPartNames.joined(separator: ", ")); read from --corpora DIR, else
             $IMWIRE_CORPORA, else Benchmarks/Corpora/out (python3 Benchmarks/Corpora/generate.py)
    """

func fail(_ message: String) -> Never {
    let line = Array("imwire-bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

struct Options {
    var command = ""
    var corpora: [String] = []
    var implementations: [Implementation] = []
    var operations: [Operation] = []
    var directory = defaultCorpusDirectory()
    var sampleTime = 0.2
    var samples = 5
    var passes = 10
    var round = 1

    init(_ arguments: [String]) {
        var args = arguments[...]
        guard let command = args.popFirst() else { fail("no command\n\(usage)") }
        if command == "-h" || command == "--help" {
            print(usage)
            exit(0)
        }
        guard ["run", "verify", "profile"].contains(command) else { fail("unknown command \(command)\n\(usage)") }
        self.command = command
        func value(_ flag: String) -> String {
            guard let v = args.popFirst() else { fail("\(flag) needs a value") }
            return v
        }
        while let flag = args.popFirst() {
            switch flag {
            case "--corpus":
                let name = value(flag)
                guard (corpusNames + chatPartNames).contains(name) else { fail("unknown corpus \(name)") }
                corpora.append(name)
            case "--impl":
                let name = value(flag)
                guard let impl = Implementation(rawValue: name) else { fail("unknown implementation \(name)") }
                implementations.append(impl)
            case "--op":
                let name = value(flag)
                guard let op = Operation(rawValue: name) else { fail("unknown operation \(name)") }
                operations.append(op)
            case "--corpora": directory = value(flag)
            case "--sample-time":
                guard let v = Double(value(flag)), v > 0 else { fail("--sample-time needs seconds > 0") }
                sampleTime = v
            case "--samples":
                guard let v = Int(value(flag)), v > 0 else { fail("--samples needs a count > 0") }
                samples = v
            case "--round":
                guard let v = Int(value(flag)), v >= 0 else { fail("--round needs a number >= 0") }
                round = v
            case "--passes":
                guard let v = Int(value(flag)), v > 0 else { fail("--passes needs a count > 0") }
                passes = v
            default: fail("unknown option \(flag)\n\(usage)")
            }
        }
        if corpora.isEmpty { corpora = corpusNames }
        if implementations.isEmpty { implementations = Implementation.allCases }
        if operations.isEmpty { operations = Operation.allCases }
    }
}

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

@inline(never)
func imwireProfileRegion(_ workload: Workload, passes: Int) throws {
    for _ in 0..<passes { try workload.pass() }
}

func loadCorpus(_ name: String, _ directory: String) -> Corpus {
    do {
        return try Corpus(name: name, directory: directory)
    } catch {
        fail("\(error)")
    }
}

func clean(_ s: String) -> String {
    String(s.map { $0 == "\t" || $0 == "\n" ? " " : $0 })
}

/// print, flushed at once so that Scripts/bench shows progress through a pipe.
func emit(_ line: String) {
    print(line)
    fflush(nil)
}

let options = Options(Array(CommandLine.arguments.dropFirst()))

switch options.command {
case "run":
    for name in options.corpora {
        let corpus = loadCorpus(name, options.directory)
        for impl in options.implementations {
            for op in options.operations where impl.supports(op) {
                do {
                    let workload = try makeWorkload(impl, op, corpus)
                    let (seconds, passes) = try measure(
                        workload, sampleTime: options.sampleTime, samples: options.samples)
                    emit(
                        "result\t\(impl.rawValue)\t\(name)\t\(op.rawValue)\t\(workload.messages)\t\(workload.bytes)\t\(seconds)\t\(passes)\t\(options.samples)\t\(options.round)"
                    )
                } catch {
                    emit("error\t\(impl.rawValue)\t\(name)\t\(op.rawValue)\t\(clean("\(error)"))")
                }
            }
        }
    }
case "verify":
    for name in options.corpora {
        for r in verify(loadCorpus(name, options.directory)) {
            emit(
                "verify\t\(r.corpus)\t\(r.check)\t\(r.checked)\t\(r.mismatches)\t\(r.informational ? 1 : 0)\t\(clean(r.firstMismatch ?? "-"))"
            )
        }
    }
default:  // profile
    guard options.corpora.count == 1, options.implementations.count == 1, options.operations.count == 1 else {
        fail("profile needs exactly one --corpus, --impl and --op")
    }
    let corpus = loadCorpus(options.corpora[0], options.directory)
    do {
        let workload = try makeWorkload(options.implementations[0], options.operations[0], corpus)
        try workload.pass()  // warm-up, outside the region: one-time costs (metadata, heap growth) are left out
        try imwireProfileRegion(workload, passes: options.passes)
        print("profiled \(options.passes) passes of \(workload.messages) messages (\(workload.bytes) B each pass)")
    } catch {
        fail("\(error)")
    }
}
