import Foundation
import Hummingbird
import ServiceLifecycle

@testable import WebhookServer

// MARK: - Support

/// The repository (Examples/Tests/WebhookServerTests/… is four levels down).
let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The bytes of `Fixtures/tim_rest/NAME`, or of `Fixtures/DIRECTORY/NAME`.
func fixture(_ name: String, in directory: String = "tim_rest") throws -> [UInt8] {
    Array(try Data(contentsOf: repository.appendingPathComponent("Fixtures/\(directory)/\(name)")))
}

/// Runs the service on 127.0.0.1, on a port the system picks, for the length of `body`, then
/// stops it gracefully.
func withServer<T: Sendable>(
    settings: WebhookSettings = WebhookSettings(),
    _ body: @Sendable (Int) async throws -> T
) async throws -> T {
    let (ports, portFound) = AsyncStream.makeStream(of: Int.self)
    let app = buildApplication(
        configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
        settings: settings,
        onServerRunning: { channel in
            portFound.yield(channel.localAddress?.port ?? 0)
            portFound.finish()
        }
    )
    let server = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: app.logger))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            defer { portFound.finish() }  // a server that fails to start ends the wait below
            try await server.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port != 0 else {
            try await group.waitForAll()  // rethrows the server's error
            throw ServerDidNotStart()
        }
        let result: Result<T, any Error>
        do { result = .success(try await body(port)) } catch { result = .failure(error) }
        await server.triggerGracefulShutdown()
        try await group.waitForAll()
        return try result.get()
    }
}

struct ServerDidNotStart: Error {}
