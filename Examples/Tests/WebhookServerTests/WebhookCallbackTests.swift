import Foundation
import IMWire
import IMWireWebhooks
import Synchronization
import Testing

@testable import WebhookServer

/// `POST /webhook` on a real loopback socket: authentication with Tencent's published example, the
/// moderation rule's answers compared with the golden answers Python wrote (Fixtures/webhooks/),
/// and where the message goes.
@Suite struct WebhookCallbackTests {
    /// Tencent's published example: token `xxxxyyyy`, RequestTime 1669872112, and a clock stopped there.
    static let appID: UInt64 = 1_400_000_000
    static let sign = "17773bc39a671d7b9aa835458704d2a6db81360a5940292b587d6d760d484061"
    static let requestTime: Int64 = 1_669_872_112

    static func settings(now: Int64 = requestTime, relay: MessageRelay = .log) throws -> WebhookSettings {
        var settings = WebhookSettings()
        settings.authenticator = CallbackAuthenticator(
            sdkAppID: appID, token: try CallbackToken("xxxxyyyy"), clock: .fixed(now))
        settings.moderation = Moderation(list: "red packet, casino,,赌场")
        settings.relay = relay
        return settings
    }

    static func path(
        command: String = "C2C.CallbackBeforeSendMsg", appID: UInt64 = appID, sign: String? = sign,
        requestTime: Int64 = requestTime
    ) -> String {
        var path = "/webhook?SdkAppid=\(appID)&CallbackCommand=\(command)&contenttype=json&ClientIP=127.0.0.1&OptPlatform=RESTAPI"
        if let sign { path += "&Sign=\(sign)&RequestTime=\(requestTime)" }
        return path
    }

    /// A one-to-one callback body with every key Tencent sends in one (the published example's), a
    /// body without them is refused as `missing_field` by the tim-rest reader.
    static let body = Array(#"{"CallbackCommand":"C2C.CallbackBeforeSendMsg","From_Account":"jared","To_Account":"John","MsgSeq":48374,"MsgRandom":2837546,"MsgTime":1557481126,"MsgKey":"48374_2837546_1557481126","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"leak-marker-7f3a"}}]}"#.utf8)

    // MARK: Authentication

    @Test func thePublishedExampleIsAccepted() async throws {
        let answer = try await withServer(settings: try Self.settings()) { port in
            try await post(port: port, path: Self.path(), body: Self.body)
        }
        #expect(answer.status == 200)
        #expect(answer.text == #"{"ActionStatus":"OK","ErrorInfo":"","ErrorCode":0}"#)
    }

    @Test(arguments: [
        ("a changed byte of Sign", path(sign: "07773bc39a671d7b9aa835458704d2a6db81360a5940292b587d6d760d484061"), 401, "bad_signature"),
        ("no Sign", path(sign: nil), 401, "missing_parameter"),
        ("another SdkAppid", path(appID: 1_400_000_001), 403, "wrong_app_id"),
        ("a RequestTime of another second", path(requestTime: requestTime + 1), 401, "bad_signature"),
    ])
    func aRequestThatIsNotTencentsIsRefused(what: String, path: String, status: Int, code: String) async throws {
        let answer = try await withServer(settings: try Self.settings()) { port in
            try await post(port: port, path: path, body: Self.body)
        }
        #expect(answer.status == status, "\(what)")
        #expect(answer.text == #"{"code":"\#(code)"}"#, "\(what): the refusal says its code and nothing else")
        #expect(!answer.text.contains("leak-marker"))
    }

    @Test(arguments: [61, -61] as [Int64])
    func aSignatureAMinuteAndASecondAwayIsRefused(offset: Int64) async throws {
        let answer = try await withServer(settings: try Self.settings(now: Self.requestTime + offset)) { port in
            try await post(port: port, path: Self.path(), body: Self.body)
        }
        #expect(answer.status == 401)
        #expect(answer.text == (offset > 0 ? #"{"code":"request_time_too_old"}"# : #"{"code":"request_time_in_future"}"#))
    }

    @Test func withoutAuthenticationSettingsUnsignedCallbacksAreAnswered() async throws {
        let answer = try await withServer { port in
            try await post(port: port, path: Self.path(sign: nil), body: Self.body)
        }
        #expect(answer.status == 200)
    }

    // MARK: Moderation

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var kind: String
        var command: String
        var banned_words: [String]?
        var testDescription: String { name }
    }

    static func moderationCases() throws -> [Case] {
        try JSONDecoder().decode([Case].self, from: Data(fixture("cases.json", in: "webhooks"))).filter { $0.kind == "moderation" }
    }

    @Test(arguments: try moderationCases())
    func theAnswerIsTheGoldenOne(_ fixtureCase: Case) async throws {
        #expect(Moderation(list: "red packet, casino,,赌场").bannedWords == fixtureCase.banned_words)
        let answer = try await withServer(settings: try Self.settings()) { port in
            try await post(port: port, path: Self.path(command: fixtureCase.command),
                           body: try fixture("\(fixtureCase.name).input.json", in: "webhooks"))
        }
        #expect(answer.status == 200)
        #expect(answer.headers["Content-Type"] == ["application/json; charset=utf-8"])
        #expect(answer.text == String(decoding: try fixture("\(fixtureCase.name).response.json", in: "webhooks"), as: UTF8.self))
    }

    @Test func aRewrittenAnswerIsAMessageTencentsFormatCarries() async throws {
        // The answer's MsgBody reads back, with the tim-rest reader, as the masked text.
        let answer = try await withServer(settings: try Self.settings()) { port in
            try await post(port: port, path: Self.path(),
                           body: try fixture("c2c_before_send_banned_word.input.json", in: "webhooks"))
        }
        let message = try Message(timRESTUTF8Bytes: answer.body)
        #expect(message.elems == [.text("want a **********? \"**********\"\n")])
        #expect(message.cloudCustomData.isEmpty)  // the sender's is kept: not sent back
    }

    @Test func theMessageGoesToTheRelay() async throws {
        let relayed = Mutex<[(CallbackCommand, [UInt8])]>([])
        let relay = MessageRelay { command, protobuf, _ in relayed.withLock { $0.append((command, protobuf)) } }
        let statuses = try await withServer(settings: try Self.settings(relay: relay)) { port in
            [try await post(port: port, path: Self.path(command: "C2C.CallbackAfterSendMsg"), body: Self.body).status,
             try await post(port: port, path: Self.path(command: "State.StateChange"),
                            body: Array(#"{"CallbackCommand":"State.StateChange","Info":{"Action":"Login","To_Account":"jared"}}"#.utf8)).status]
        }
        #expect(statuses == [200, 200])
        let messages = relayed.withLock { $0 }
        #expect(messages.count == 1)  // the state change is not a message
        #expect(messages.first?.0 == .c2cAfterSendMsg)
        // The canonical protobuf of the message as the sender sent it.
        let protobuf = try #require(messages.first?.1)
        #expect(try Message(serializedBytes: protobuf).elems == [.text("leak-marker-7f3a")])
        #expect(try Message(serializedBytes: protobuf).serializedBytes() == protobuf)
    }

    @Test func aSignedBodyThatIsNotAMessageIs400WithTheReadersCode() async throws {
        let answer = try await withServer(settings: try Self.settings()) { port in
            try await post(port: port, path: Self.path(), body: Array(#"{"CallbackCommand":"C2C.CallbackBeforeSendMsg","#.utf8))
        }
        #expect(answer.status == 400)
        let problem = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        #expect(problem?["code"] as? String == "json_syntax")
    }
}
