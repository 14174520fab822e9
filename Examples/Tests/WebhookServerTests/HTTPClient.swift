import NIOCore
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
