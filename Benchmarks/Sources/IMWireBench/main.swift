// imwire-bench: times IMWire and swift-protobuf over the benchmark corpora with a monotonic clock
// (Harness.swift has the commands). Scripts/bench runs it next to the protobuf-c, C++, upb and memcpy
// harnesses and IMWire's eager model of commit 02d391d, and prints the tables; Scripts/profile runs
// its `profile` command under callgrind.

import BenchSupport

runHarness(
    "imwire-bench", Implementation.allCases.map(\.harness), arguments: Array(CommandLine.arguments.dropFirst()),
    verify: verify)
