// The ordo-one/benchmark suite: for every corpus, implementation and operation, one benchmark whose
// iteration is one pass over the corpus (the same Workload that imwire-bench times), measuring
// throughput (passes/s), wall clock per pass and mallocCountTotal (mallocs per pass).
//
//   cd Benchmarks && swift package --disable-sandbox benchmark                     run everything
//   cd Benchmarks && swift package --disable-sandbox benchmark --filter 'IMWire\.binary-decode\..*'
//   Scripts/bench --check-mallocs                                                  the malloc guard
//
// Names are IMPL.OPERATION.CORPUS (e.g. IMWire.binary-decode.chat, IMWire.binary-route.chat); they
// name the static thresholds files Thresholds/IMWireBenchmarks.NAME.p90.json, which hold the highest p90
// mallocCountTotal allowed (Docs/benchmarks.md, "Thresholds": where each number comes from and how
// to update it). Only mallocs are checked: time is too noisy on a shared machine to gate on.

import BenchSupport
import Benchmark

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        warmupIterations: 1,
        maxDuration: .seconds(1),
        maxIterations: 1_000,
        // Against a static threshold: more mallocs than the file allows is a regression, fewer an
        // improvement (the tool's exit code 4), equal is equal. No tolerance: malloc counts are exact.
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])]
    )

    // Every corpus, implementation and operation it has (binary-route, the routing view, is IMWire's
    // only: its threshold pins what reading a message's envelope allocates, issue 14's target being 0);
    // and IMWire's binary decode of each kind of chat message, which issue 7's allocation target is
    // checked on kind by kind.
    let cases =
        corpusNames.flatMap { corpus in
            Implementation.allCases.flatMap { impl in
                // tim-rest encode of built values runs on a tim-rest corpus only (Scripts/bench makes them).
                Operation.allCases.filter { impl.supports($0) && $0 != .timRESTEncodeBuilt }.map { (corpus, impl, $0) }
            }
        } + chatPartNames.map { ($0, Implementation.imwire, Operation.binaryDecode) }

    for (corpusName, implementation, operation) in cases {
        Benchmark(
            "\(implementation.rawValue).\(operation.rawValue).\(corpusName)",
            closure: { benchmark, workload in
                for _ in benchmark.scaledIterations {
                    try workload.pass()
                }
            },
            setup: {
                try makeWorkload(implementation, operation, try Corpus(name: corpusName))
            }
        )
    }
}
