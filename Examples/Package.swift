// swift-tools-version: 6.1
// The examples are their own package so that the IMWire library keeps zero dependencies:
// only this package pulls in Hummingbird and SwiftNIO.
import PackageDescription

let package = Package(
    name: "IMWireExamples",
    platforms: [.macOS(.v15)],  // IMWire's minimum; Hummingbird needs 14
    products: [
        .executable(name: "WebhookServer", targets: ["WebhookServer"]),
        .executable(name: "BinaryClient", targets: ["BinaryClient"]),
    ],
    dependencies: [
        .package(name: "IMWire", path: ".."),
        // Without the default trait ConfigurationSupport: the service reads its settings from the
        // environment itself, so swift-configuration would be built for nothing.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: ["FullFoundation"]),
        // Pinned so every machine resolves the same versions Hummingbird runs on.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // Tests only: a graceful stop of the server they start (Hummingbird's own lifecycle library).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        // A client that speaks binary only: IMWire's binary product and nothing else of it.
        .executableTarget(name: "BinaryClient", dependencies: [.product(name: "IMWireBinary", package: "IMWire")]),
        .executableTarget(
            name: "WebhookServer",
            dependencies: [
                .product(name: "IMWire", package: "IMWire"),
                .product(name: "IMWireWebhooks", package: "IMWire"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTP1Channel's configuration: the head-size limits and the idle timeout.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The body deadline: a task scheduled on the server's event loops.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "WebhookServerTests",
            dependencies: [
                "WebhookServer",
                .product(name: "IMWire", package: "IMWire"),
                .product(name: "IMWireWebhooks", package: "IMWire"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // A plain NIO HTTP/1 client: HummingbirdTesting would add AsyncHTTPClient and
                // BoringSSL (NIOSSL) to the build, minutes on two cores, for nothing we need.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // IMWire reading and writing swift-nio's `ByteBuffer` in place, as a server holds its bytes:
        // here, so that the IMWire package itself builds no SwiftNIO.
        .testTarget(
            name: "ByteBufferTests",
            dependencies: [
                .product(name: "IMWire", package: "IMWire"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // README.md's ```swift blocks, each compiled against IMWire and run (see the test's header).
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: [
                .product(name: "IMWire", package: "IMWire"),
                // Linked so the snippets of the webhook article find its objects in this build.
                .product(name: "IMWireWebhooks", package: "IMWire"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
