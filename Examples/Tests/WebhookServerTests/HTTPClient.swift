import NIOCore
import Synchronization
import NIOHTTP1
import NIOPosix

/// The status, headers and body of one answer.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

enum HTTPClientError: Error { case connectionClosedEarly }

/// Sends one POST to 127.0.0.1:`port` on a fresh connection and reads the whole answer: the
/// smallest HTTP/1.1 client that does the job, on SwiftNIO, so the tests need no TLS stack.
func post(port: Int, path: String, body: [UInt8], headers: [(String, String)] = []) async throws -> HTTPAnswer {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                    wrappingChannelSynchronously: channel
                )
            }
        }
    return try await channel.executeThenClose { inbound, outbound in
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path)
        head.headers.add(name: "Host", value: "127.0.0.1:\(port)")
        head.headers.add(name: "Content-Length", value: String(body.count))
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        // No "Connection: close": on keep-alive the server drains a body it refused (413) instead
        // of closing with unread bytes, which would reset the connection under the answer.
        try await outbound.write(.head(head))
        try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
        try await outbound.write(.end(nil))

        var answer = HTTPAnswer(status: 0, headers: [:], body: [])
        for try await part in inbound {
            switch part {
            case .head(let head):
                answer.status = Int(head.status.code)
                answer.headers = head.headers
            case .body(let buffer):
                answer.body += buffer.readableBytesView
            case .end:
                return answer
            }
        }
        throw HTTPClientError.connectionClosedEarly
    }
}

/// What came back on a raw connection: the bytes, and whether the server closed it.
struct RawAnswer: Sendable {
    var bytes: [UInt8]
    var closedByServer: Bool
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// The status of the first response, 0 if none came.
    var status: Int {
        guard text.hasPrefix("HTTP/1.1 "), let code = Int(text.dropFirst(9).prefix(3)) else { return 0 }
        return code
    }
}

/// Opens a TCP connection to 127.0.0.1:`port`, writes `chunks` (waiting `pause` before each chunk
/// after the first), then reads until the server closes the connection or `deadline` has passed:
/// for requests no HTTP client would send — a lying `Content-Length`, a body trickled, bytes that
/// are not HTTP.
func rawExchange(
    port: Int, _ chunks: [[UInt8]], pause: Duration = .zero, closeWriteAfterSending: Bool = false,
    deadline: Duration = .seconds(5)
) async throws -> RawAnswer {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .channelOption(.allowRemoteHalfClosure, value: true)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    let underlying = channel.channel
    let deadlinePassed = Flag()
    return try await channel.executeThenClose { inbound, outbound in
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for (index, chunk) in chunks.enumerated() {
                    if index > 0, pause > .zero {
                        try? await Task.sleep(for: pause)
                        if Task.isCancelled { return }
                    }
                    do { try await outbound.write(ByteBuffer(bytes: chunk)) } catch { return }  // closed by the server
                }
                if closeWriteAfterSending { outbound.finish() }
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                guard !Task.isCancelled else { return }
                deadlinePassed.set()
                underlying.close(promise: nil)  // ends the read below
            }
            var answer = RawAnswer(bytes: [], closedByServer: false)
            do {
                for try await buffer in inbound { answer.bytes += buffer.readableBytesView }
            } catch {
                // A reset: the server closed with unread bytes.
            }
            answer.closedByServer = !deadlinePassed.isSet
            group.cancelAll()
            return answer
        }
    }
}

/// A flag set once, read from any task.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
