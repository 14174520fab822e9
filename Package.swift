// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "IMWire",
    products: [
        // The codec library. Depends on nothing beyond the Swift toolchain.
        .library(name: "IMWire", targets: ["IMWire"]),
        .executable(name: "imwire", targets: ["IMWireTool"]),
        // Conformance testee on libprotobuf-c (binary cases only): `imwire conformance --testee …`.
        .executable(name: "imwire-testee-c", targets: ["IMWireTesteeC"]),
    ],
    dependencies: [
        // CLI only.
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // Tests only.
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    targets: [
        .target(name: "IMWire"),
        .target(
            name: "IMWireCLI",
            dependencies: [
                "IMWire",
                "IMWireConformance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "IMWireTool", dependencies: ["IMWireCLI"]),

        // The conformance suite (SPEC §4.2): cases from Fixtures/, the runner, testees.
        .target(name: "IMWireConformance", dependencies: ["IMWire"]),

        // Fuzz targets (Scripts/fuzz builds them with libFuzzer; a normal build replays files).
        .target(name: "IMWireFuzzSupport", dependencies: ["IMWire", "IMWireConformance"]),
        .executableTarget(name: "IMWireFuzzBinary", dependencies: ["IMWireFuzzSupport"]),
        .executableTarget(name: "IMWireFuzzJSON", dependencies: ["IMWireFuzzSupport"]),
        .executableTarget(name: "IMWireFuzzTIMREST", dependencies: ["IMWireFuzzSupport"]),
        .executableTarget(name: "IMWireFuzzValidation", dependencies: ["IMWireFuzzSupport"]),
        .executableTarget(name: "IMWireFuzzConformance", dependencies: ["IMWireFuzzSupport"]),

        // Peer: libprotobuf-c (apt: libprotobuf-c-dev) and the protoc-c output for Schemas/.
        .systemLibrary(
            name: "CProtobufC",
            pkgConfig: "libprotobuf-c",
            providers: [.apt(["libprotobuf-c-dev"])]
        ),
        .target(name: "IMWireProtobufC", dependencies: ["CProtobufC"]),
        .executableTarget(name: "IMWireTesteeC", dependencies: ["IMWireProtobufC"]),

        .testTarget(
            name: "IMWireTests",
            dependencies: [
                "IMWire",
                "IMWireCLI",
                "IMWireConformance",
                "IMWireProtobufC",
                "IMWireFuzzSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
