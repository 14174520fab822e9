// imwire-bench: times IMWire and swift-protobuf over the benchmark corpora with a monotonic clock
// (Harness.swift has the commands). Scripts/bench runs it next to the protobuf-c, C++, upb and memcpy
// harnesses, IMWire's eager model and the tim-rest peers, and prints the tables; Scripts/profile runs
// its `profile` command under callgrind. One command of its own:
//
//   imwire-bench timrest-corpus --corpora DIR --out DIR [--corpus chat|random|fixtures]...
//       writes the tim-rest corpora (TIMRESTCorpus.swift) of the corpora named (default: all three)

import BenchSupport

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "timrest-corpus" {
    var names: [String] = [], corpora = defaultCorpusDirectory(), out: String?
    var rest = arguments.dropFirst()
    while let flag = rest.popFirst() {
        guard let value = rest.popFirst() else { fatalError("imwire-bench: \(flag) needs a value") }
        switch flag {
        case "--corpus" where timRESTBaseNames.contains(value): names.append(value)
        case "--corpora": corpora = value
        case "--out": out = value
        default: fatalError("imwire-bench timrest-corpus: unknown option \(flag) \(value)")
        }
    }
    guard let out else { fatalError("imwire-bench timrest-corpus: --out DIR is required") }
    TIMRESTCorpus.write(names: names.isEmpty ? timRESTBaseNames : names, corpora: corpora, out: out)
} else {
    runHarness("imwire-bench", Implementation.allCases.map(\.harness), arguments: arguments, verify: verify)
}
