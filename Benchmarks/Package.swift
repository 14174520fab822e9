// swift-tools-version: 6.1
// IMWire's benchmarks (issue 7), a package of their own so that the library keeps no dependencies.
//
//   swift run -c release imwire-bench --help               the timing harness behind Scripts/bench
//   swift package --disable-sandbox benchmark              ordo-one/benchmark: throughput + mallocs
//
// Corpora: python3 Corpora/generate.py (Scripts/bench runs it). README "Benchmarks" has the details.
import PackageDescription

let package = Package(
    name: "IMWireBenchmarks",
    platforms: [.macOS(.v15)],  // IMWire's minimum (its Package.swift says why)
    products: [
        .executable(name: "imwire-bench", targets: ["IMWireBench"]),
        .executable(name: "imwire-allocs", targets: ["IMWireAllocs"]),
        .executable(name: "imwire-foundation-bench", targets: ["IMWireFoundationBench"]),
    ],
    dependencies: [
        // The package under test, by path (its identity is the checkout's folder name, hence `name:`).
        .package(name: "IMWire", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
    ],
    targets: [
        // protoc-gen-swift 1.39.0 output for Schemas/imwire/v1/message.proto (Scripts/regenerate).
        .target(
            name: "SwiftProtobufPeer",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]
        ),
        // The heap in use (glibc's mallinfo2), for the memory figures.
        .target(name: "CHeapInUse"),
        // Corpus files (Corpora/out/NAME.msgs), the walk, values built in code, the operations both
        // harnesses time and the harness itself.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "IMWire", package: "IMWire"),
                "SwiftProtobufPeer",
                "CHeapInUse",
            ]
        ),
        // Monotonic-clock timing harness: IMWire and swift-protobuf, best of N, one TSV line per result.
        .executableTarget(name: "IMWireBench", dependencies: ["BenchSupport"]),
        // The same harness with a counting allocator linked in: allocations per message (`allocs`).
        .target(name: "CMallocCount"),
        .executableTarget(name: "IMWireAllocs", dependencies: ["BenchSupport", "CMallocCount"]),
        // The tim-rest peer a Swift server would write: Foundation's JSONDecoder into Codable structs.
        .executableTarget(name: "IMWireFoundationBench", dependencies: ["BenchSupport"]),
        // ordo-one/benchmark suite: throughput and mallocCountTotal, malloc thresholds in Thresholds/.
        .executableTarget(
            name: "IMWireBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/IMWireBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
