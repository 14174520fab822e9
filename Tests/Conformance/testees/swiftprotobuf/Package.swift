// swift-tools-version: 6.1
// The conformance testee on swift-protobuf (Docs/conformance.md), a package of its own so that
// IMWire keeps no dependencies and `swift build` of IMWire never builds swift-protobuf. Built by
// ./build into .build-testees/swift-protobuf at the repository root.
import PackageDescription

let package = Package(
    name: "IMWireTesteeSwiftProtobuf",
    products: [
        .executable(name: "imwire-testee-swift-protobuf", targets: ["Testee"]),
    ],
    dependencies: [
        // The version Generated/ was made with (Scripts/regenerate, gen_swift_protobuf).
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
    ],
    targets: [
        // protoc-gen-swift 1.39.0 output for both schemas; only Scripts/regenerate writes it.
        .target(
            name: "Generated",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]
        ),
        .executableTarget(
            name: "Testee",
            dependencies: ["Generated", .product(name: "SwiftProtobuf", package: "swift-protobuf")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
