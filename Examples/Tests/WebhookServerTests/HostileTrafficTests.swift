import Foundation
import IMWire
import IMWireWebhooks
import Testing

@testable import WebhookServer

/// Requests that are not Tencent's, or not HTTP as it should be, against one running service with
/// small limits: each gets its status (or a closed connection), none gets any of the request's
/// bytes back, and the service answers a good callback afterwards. Bounded: a few dozen
/// connections, each with a deadline of a few seconds.
@Suite(.serialized) struct HostileTrafficTests {
    static let marker = "leak-marker-7f3a"

    static func settings() throws -> WebhookSettings {
        var settings = try WebhookCallbackTests.settings()
        settings.maxBodyBytes = 4096
        settings.maxHeaderBytes = 4096
        settings.requestTimeout = .seconds(1)
        settings.idleTimeout = .seconds(3)
        return settings
    }

    static let signedPath = WebhookCallbackTests.path()

    /// A raw HTTP/1.1 request head.
    static func head(path: String = signedPath, contentLength: Int, extra: String = "") -> [UInt8] {
        Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(contentLength)\r\n\(extra)\r\n".utf8)
    }

    /// Runs `body` against one service, then checks that a good callback is still answered.
    func withHostileServer(_ body: @Sendable (Int) async throws -> Void) async throws {
        let good = try await withServer(settings: try Self.settings()) { port in
            try await body(port)
            return try await post(port: port, path: Self.signedPath, body: WebhookCallbackTests.body)
        }
        #expect(good.status == 200, "the service no longer answers a good callback")
    }

    @Test func forgedSignaturesAreRefusedEveryOne() async throws {
        try await withHostileServer { port in
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<50 {
                let forged = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
                let answer = try await post(port: port, path: WebhookCallbackTests.path(sign: forged), body: WebhookCallbackTests.body)
                #expect(answer.status == 401)
                #expect(!answer.text.contains(Self.marker))
            }
        }
    }

    @Test func aReplayedRequestIsRefused() async throws {
        // The published Sign, replayed 10 minutes later.
        var settings = try Self.settings()
        settings.authenticator?.clock = .fixed(WebhookCallbackTests.requestTime + 600)
        let answer = try await withServer(settings: settings) { port in
            try await post(port: port, path: Self.signedPath, body: WebhookCallbackTests.body)
        }
        #expect(answer.status == 401)
        #expect(answer.text == #"{"code":"request_time_too_old"}"#)
    }

    @Test func anOversizedBodyIs413AndNotEchoed() async throws {
        try await withHostileServer { port in
            let text = String(repeating: Self.marker, count: 1000)  // 16 KB, over the 4 KB limit
            let body = Array(#"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\#(text)"}}]}"#.utf8)
            let answer = try await post(port: port, path: Self.signedPath, body: body)
            #expect(answer.status == 413)
            #expect(!answer.text.contains(Self.marker))
        }
    }

    @Test func anOversizedBodyOfAnUnsignedRequestIsNeverRead() async throws {
        try await withHostileServer { port in
            let body = Array(String(repeating: Self.marker, count: 1000).utf8)
            let answer = try await post(port: port, path: WebhookCallbackTests.path(sign: nil), body: body)
            #expect(answer.status == 401)
        }
    }

    @Test func anOversizedHeadIsRefusedByTheParser() async throws {
        try await withHostileServer { port in
            let request = Self.head(contentLength: 2, extra: "X-Fill: \(String(repeating: "a", count: 8192))\r\n") + Array("{}".utf8)
            let answer = try await rawExchange(port: port, [request])
            // NIO's parser stops at the limit: an error status or a closed connection, never a handled request.
            #expect(answer.status == 431 || answer.status == 400 || (answer.status == 0 && answer.closedByServer), "\(answer.text.prefix(200))")
            #expect(!answer.text.contains("ActionStatus"))
        }
    }

    @Test func aTruncatedBodyIsNotAnswered200() async throws {
        try await withHostileServer { port in
            let body = Array(#"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\#(Self.marker)"}}]}"#.utf8)
            let answer = try await rawExchange(
                port: port, [Self.head(contentLength: body.count + 100) + body], closeWriteAfterSending: true)
            #expect(answer.status != 200)
            #expect(!answer.text.contains(Self.marker))
        }
    }

    @Test func aSlowBodyIs408() async throws {
        try await withHostileServer { port in
            let body = Array(#"{"MsgBody":[]}"#.utf8)
            let start = ContinuousClock.now
            // One byte every 400 ms: the 14-byte body would take 5 s; the limit is 1 s.
            let answer = try await rawExchange(
                port: port, [Self.head(contentLength: body.count)] + body.map { [$0] }, pause: .milliseconds(400),
                deadline: .seconds(6))
            #expect(answer.status == 408, "\(answer.text.prefix(200))")
            #expect(ContinuousClock.now - start < .seconds(4))
        }
    }

    @Test func anIdleConnectionIsClosed() async throws {
        try await withHostileServer { port in
            let start = ContinuousClock.now
            // Half a head, then nothing: the idle timeout (3 s) closes the connection.
            let answer = try await rawExchange(port: port, [Array("POST /webhook HTTP/1.1\r\nHost: x".utf8)], deadline: .seconds(8))
            #expect(answer.closedByServer)
            #expect(ContinuousClock.now - start < .seconds(7))
        }
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "POST /webhook HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        "POST /webhook HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
        "\u{0}\u{1}\u{2}\u{3}\r\n\r\n",
    ])
    func bytesThatAreNotHTTPAreRefused(request: String) async throws {
        try await withHostileServer { port in
            let answer = try await rawExchange(port: port, [Array(request.utf8)])
            #expect(answer.status == 400 || (answer.status == 0 && answer.closedByServer), "\(answer.text.prefix(200))")
        }
    }

    @Test(arguments: [
        #"{"CallbackCommand":"C2C.CallbackBeforeSendMsg","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"leak-marker-7f3a"}}],}"#,
        #"{"MsgBody":[{"MsgType":"TIMNoSuchElem","MsgContent":{"Text":"leak-marker-7f3a"}}]}"#,
        #"{"MsgBody":{"leak-marker-7f3a":1}}"#,
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
        "\u{FF}\u{FE}",
    ])
    func aSignedBodyThatIsNotAMessageIs400WithoutEcho(body: String) async throws {
        try await withHostileServer { port in
            let answer = try await post(port: port, path: Self.signedPath, body: Array(body.utf8))
            #expect(answer.status == 400)
            #expect(!answer.text.contains(Self.marker))
            let problem = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            #expect(problem?["code"] is String)
        }
    }
}
