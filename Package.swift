// swift-tools-version: 6.1
import PackageDescription

// `IMWIRE_LIBRARY_ONLY=1 swift test` declares the codec library and its own tests and nothing else:
// no CLI, conformance, fuzz or webhook targets and no libprotobuf-c peer (`CProtobufC`), so the
// library's tests build and run with the Swift toolchain alone (Scripts/test runs them that way, with
// libprotobuf-c-dev hidden; Docs/development.md). The package dependencies stay declared either way,
// so Package.resolved does not change.
let libraryOnly = ["1", "threads"].contains(Context.environment["IMWIRE_LIBRARY_ONLY"])
// `IMWIRE_LIBRARY_ONLY=threads`: the library and its thread tests alone, for the ThreadSanitizer build
// of `Scripts/sanitize thread`, which then compiles no other test.
let threadTestsOnly = Context.environment["IMWIRE_LIBRARY_ONLY"] == "threads"

// Test targets are compiled without optimisation even in a release build: `swift test -c release`
// optimises the library, the test helpers (the generators) and the peers, which the tests measure
// and whose stack depth they check, while the tests' own code, thousands of macro-expanded
// expectations, compiles in half the time unoptimised (IMWireTests: 100 instead of 200 CPU-seconds,
// one compiler process that the rest of the build waits for). Test targets are in no product, so a
// package that depends on IMWire never sees the flag.
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

// `IMWIRE_STRICT_MEMORY_SAFETY=1` (set by `Scripts/sanitize address`): the library alone is compiled
// with strict memory safety checking, whose notes name every unsafe site for `Scripts/unsafe-sites`.
// Never set for a package that depends on IMWire.
let strictMemorySafety: [SwiftSetting] = Context.environment["IMWIRE_STRICT_MEMORY_SAFETY"] == "1"
    ? [.unsafeFlags(["-strict-memory-safety", "-diagnostic-style=llvm"])] : []

// The library, its test helpers and its tests: IMWire and swift-property-based only.
let libraryTargets: [Target] = [
    // The library's modules, one per layer a client may or may not need (Docs/architecture.md):
    // the model, each format, the view, validation, streams, and `IMWire`, which re-exports them all.
    .target(name: "IMWireCore", dependencies: ["CIMWireUTF8"], swiftSettings: strictMemorySafety),
    .target(name: "IMWireBinary", dependencies: ["IMWireCore"], swiftSettings: strictMemorySafety),
    .target(name: "IMWireView", dependencies: ["IMWireCore", "IMWireBinary"], swiftSettings: strictMemorySafety),
    .target(name: "IMWireJSONText", dependencies: ["IMWireCore"], swiftSettings: strictMemorySafety),
    .target(name: "IMWireJSON", dependencies: ["IMWireCore", "IMWireJSONText"], swiftSettings: strictMemorySafety),
    .target(name: "IMWireTUIKit", dependencies: ["IMWireCore", "IMWireJSONText"], swiftSettings: strictMemorySafety),
    .target(name: "IMWireTIMREST", dependencies: ["IMWireCore", "IMWireJSONText"], swiftSettings: strictMemorySafety),
    .target(
        name: "IMWireValidation",
        dependencies: ["IMWireCore", "IMWireBinary", "IMWireView", "IMWireTUIKit"],
        swiftSettings: strictMemorySafety
    ),
    .target(name: "IMWireStreams", dependencies: ["IMWireCore", "IMWireBinary", "IMWireJSON"], swiftSettings: strictMemorySafety),
    .target(
        name: "IMWire",
        dependencies: [
            "IMWireCore", "IMWireBinary", "IMWireView", "IMWireJSONText", "IMWireJSON", "IMWireTUIKit",
            "IMWireTIMREST", "IMWireValidation", "IMWireStreams",
        ],
        swiftSettings: strictMemorySafety
    ),
    // The vectorised UTF-8 validator under every decoder (C: SSE/AVX2 and NEON intrinsics with a
    // scalar fallback, chosen at run time; built by the toolchain's clang, nothing to install).
    .target(name: "CIMWireUTF8"),

    // Helpers every test target shares: the golden fixtures, the random message generators, the
    // linear-time measurement, the heap in use. Not a product.
    .target(
        name: "IMWireTestSupport",
        dependencies: ["IMWire", "CIMWireTestHeap", .product(name: "PropertyBased", package: "swift-property-based")],
        path: "Tests/IMWireTestSupport"
    ),
    // The heap in use (glibc's mallinfo2), for the tests of what a value keeps alive.
    .target(name: "CIMWireTestHeap", path: "Tests/CIMWireTestHeap"),
    // The library's threads: its thread buffers and shared values used from many threads at once
    // (run under ThreadSanitizer by Scripts/sanitize thread, and in the ordinary runs).
    .testTarget(name: "IMWireThreadTests", dependencies: ["IMWire", "IMWireTestSupport"], swiftSettings: testSettings),
] + (threadTestsOnly ? [] : [
    // The library's own tests: they need the Swift toolchain and nothing else.
    .testTarget(
        name: "IMWireTests",
        dependencies: [
            "IMWire",
            "IMWireTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ],
        swiftSettings: testSettings
    ),
])

// Everything else: the webhooks module, the CLI, the conformance suite, the fuzz targets, the
// libprotobuf-c peer, and a test target for each by what it needs.
let otherTargets: [Target] = [
    // Tencent's callbacks carry tim-rest and are checked with a validation profile: those two
    // modules (and what they bring), not proto3 JSON, the view's JSON or streams.
    .target(
        name: "IMWireWebhooks",
        dependencies: ["IMWireCore", "IMWireTIMREST", "IMWireValidation"]
    ),
    .target(
        name: "IMWireCLI",
        dependencies: [
            "IMWire",
            "IMWireConformance",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]
    ),
    .executableTarget(name: "IMWireTool", dependencies: ["IMWireCLI"]),

    // The conformance suite: cases from Fixtures/, the runner, testees.
    .target(name: "IMWireConformance", dependencies: ["IMWire", "CIMWireFixtures"]),
    // The fixtures, embedded (generated by Scripts/gen_embedded_fixtures.py), so `imwire
    // conformance` runs from any directory.
    .target(name: "CIMWireFixtures"),

    // Fuzz targets (Scripts/fuzz builds them with libFuzzer; a normal build replays files).
    .target(name: "IMWireFuzzSupport", dependencies: ["IMWire", "IMWireConformance"]),
    .executableTarget(name: "IMWireFuzzBinary", dependencies: ["IMWireFuzzSupport"]),
    .executableTarget(name: "IMWireFuzzJSON", dependencies: ["IMWireFuzzSupport"]),
    .executableTarget(name: "IMWireFuzzTIMREST", dependencies: ["IMWireFuzzSupport"]),
    .executableTarget(name: "IMWireFuzzValidation", dependencies: ["IMWireFuzzSupport"]),
    .executableTarget(name: "IMWireFuzzConformance", dependencies: ["IMWireFuzzSupport"]),
    .executableTarget(name: "IMWireFuzzUTF8", dependencies: ["IMWireFuzzSupport"]),
    .executableTarget(name: "IMWireFuzzDifferential", dependencies: ["IMWireFuzzSupport"]),

    // Peer: libprotobuf-c (apt: libprotobuf-c-dev) and the protoc-c output for Schemas/.
    .systemLibrary(
        name: "CProtobufC",
        pkgConfig: "libprotobuf-c",
        providers: [.apt(["libprotobuf-c-dev"])]
    ),
    .target(name: "IMWireProtobufC", dependencies: ["CProtobufC"]),
    .executableTarget(name: "IMWireTesteeC", dependencies: ["IMWireProtobufC"]),

    // The command line, in-process and as the built `imwire`: commands, streams, wording, the
    // documentation's tables, peak memory.
    .testTarget(name: "IMWireCLITests", dependencies: ["IMWire", "IMWireCLI", "IMWireTestSupport"], swiftSettings: testSettings),
    // The conformance suite: runner, self-tests, the shipped testees (C++, Go, Java, Python, C),
    // the explorer, the guide, the release tarball, `Scripts/regenerate --check`.
    .testTarget(
        name: "IMWireConformanceTests",
        dependencies: ["IMWire", "IMWireCLI", "IMWireConformance", "IMWireTestSupport"],
        swiftSettings: testSettings
    ),
    // Other implementations: libprotobuf-c, Google's Python runtime, and the fuzz targets' kept
    // findings. (swift-nio's `ByteBuffer` is tested in the Examples package, which has SwiftNIO.)
    .testTarget(
        name: "IMWirePeerTests",
        dependencies: [
            "IMWire",
            "IMWireProtobufC",
            "IMWireFuzzSupport",
            "IMWireTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ],
        swiftSettings: testSettings
    ),
    // The webhook module's tests: a target of their own (they read Fixtures/webhooks/ with Foundation).
    .testTarget(name: "IMWireWebhooksTests", dependencies: ["IMWireWebhooks", "IMWire"], swiftSettings: testSettings),
]

let package = Package(
    name: "IMWire",
    // Built and tested on Linux. The Apple minimums are the first releases whose Swift runtime has
    // every standard-library API the code calls (`String(validating:as:)`, typed throws); the core
    // imports no Foundation. Not built or tested there by CI.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The codec library, every module of it. Depends on nothing beyond the Swift toolchain.
        .library(name: "IMWire", targets: ["IMWire"]),
        // A module each, for a program that links only what it uses: a client that speaks binary
        // depends on IMWireBinary alone; one that also speaks proto3 JSON adds IMWireJSON.
        .library(name: "IMWireBinary", targets: ["IMWireBinary"]),
        .library(name: "IMWireJSON", targets: ["IMWireJSON"]),
        .library(name: "IMWireView", targets: ["IMWireView"]),
        .library(name: "IMWireTIMREST", targets: ["IMWireTIMREST"]),
        .library(name: "IMWireTUIKit", targets: ["IMWireTUIKit"]),
        .library(name: "IMWireValidation", targets: ["IMWireValidation"]),
        .library(name: "IMWireStreams", targets: ["IMWireStreams"]),
    ] + (libraryOnly ? [] : [
        // Tencent Cloud IM webhooks: callback authentication (its own SHA-256) and callback
        // responses. A product of its own: a client that never receives a webhook links none of it.
        .library(name: "IMWireWebhooks", targets: ["IMWireWebhooks"]),
        .executable(name: "imwire", targets: ["IMWireTool"]),
        // Conformance testee on libprotobuf-c (binary cases only): `imwire conformance --testee …`.
        .executable(name: "imwire-testee-c", targets: ["IMWireTesteeC"]),
    ]),
    dependencies: [
        // CLI only.
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // Tests only.
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        // Documentation only: `swift package generate-documentation --target IMWire` (Scripts/docs).
        // A range, not a pin, so an app that uses the plugin too is not held to this version.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: libraryTargets + (libraryOnly ? [] : otherTargets),
    swiftLanguageModes: [.v6]
)
