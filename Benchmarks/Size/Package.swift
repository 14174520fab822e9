// swift-tools-version: 6.1
// Size clients: small programs that use IMWire (or swift-protobuf, with protoc-gen-swift's code of the
// same schema) the way a client does, so that Scripts/size can measure what each library adds to a
// stripped executable. Each reads the chat corpus, does its work on every message and prints digests
// that Scripts/size compares, so no client can leave work out. A package of its own, so that the size
// of every client comes from one plain `swift build -c release` with the settings a package that
// depends on IMWire has: no unsafe flags, no dynamic products.
//
//   Scripts/size                         builds them (-O and -Osize), strips and measures them
import PackageDescription

let package = Package(
    name: "IMWireSizeClients",
    platforms: [.macOS(.v15)],  // IMWire's minimum (its Package.swift says why)
    products: [
        .executable(name: "size-empty", targets: ["SizeEmpty"]),
        .executable(name: "size-imwire-binary", targets: ["SizeIMWireBinary"]),
        .executable(name: "size-imwire-json", targets: ["SizeIMWireJSON"]),
        .executable(name: "size-imwire-all", targets: ["SizeIMWireAll"]),
        .executable(name: "size-swift-protobuf-binary", targets: ["SizeSwiftProtobufBinary"]),
        .executable(name: "size-swift-protobuf-json", targets: ["SizeSwiftProtobufJSON"]),
    ],
    dependencies: [
        .package(name: "IMWire", path: "../.."),
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
    ],
    targets: [
        // The corpus reader and the report lines; the empty client is this alone.
        .target(name: "SizeSupport"),
        .executableTarget(name: "SizeEmpty", dependencies: ["SizeSupport"]),

        // The benchmark's walks (symbolic links to Benchmarks/Sources/BenchSupport/Walk+*.swift) and
        // protoc-gen-swift's code (a link to Benchmarks/Sources/SwiftProtobufPeer/message.pb.swift).
        // Each IMWire client depends on the products of what it uses: the binary client on
        // IMWireBinary alone, the JSON client on IMWireBinary and IMWireJSON, everything on IMWire.
        .target(name: "WalkIMWire", dependencies: [.product(name: "IMWireBinary", package: "IMWire")]),
        .target(name: "WalkIMWireView", dependencies: [.product(name: "IMWireView", package: "IMWire")]),
        .target(name: "SwiftProtobufPeer", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        .target(name: "WalkSwiftProtobuf", dependencies: ["SwiftProtobufPeer"]),

        // Each format's round trip (decode, walk, encode, decode again), one target per format and
        // library, so that a client links the formats it uses and nothing else.
        .target(name: "IMWireBinaryWork", dependencies: ["SizeSupport", "WalkIMWire", .product(name: "IMWireBinary", package: "IMWire")]),
        .target(name: "IMWireJSONWork", dependencies: ["SizeSupport", "WalkIMWire", .product(name: "IMWireJSON", package: "IMWire")]),
        .target(name: "SwiftProtobufBinaryWork", dependencies: ["SizeSupport", "WalkSwiftProtobuf", "SwiftProtobufPeer"]),
        .target(name: "SwiftProtobufJSONWork", dependencies: ["SizeSupport", "WalkSwiftProtobuf", "SwiftProtobufPeer"]),

        .executableTarget(name: "SizeIMWireBinary", dependencies: ["SizeSupport", "IMWireBinaryWork"]),
        .executableTarget(name: "SizeIMWireJSON", dependencies: ["SizeSupport", "IMWireBinaryWork", "IMWireJSONWork"]),
        .executableTarget(
            name: "SizeIMWireAll",
            dependencies: [
                "SizeSupport", "IMWireBinaryWork", "IMWireJSONWork", "WalkIMWire", "WalkIMWireView",
                .product(name: "IMWire", package: "IMWire"),
            ]),
        .executableTarget(name: "SizeSwiftProtobufBinary", dependencies: ["SizeSupport", "SwiftProtobufBinaryWork"]),
        .executableTarget(name: "SizeSwiftProtobufJSON", dependencies: ["SizeSupport", "SwiftProtobufBinaryWork", "SwiftProtobufJSONWork"]),
    ],
    swiftLanguageModes: [.v6]
)
