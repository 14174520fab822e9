import Foundation
import Hummingbird
import IMWire
import ServiceLifecycle
import Testing

@testable import WebhookServer

/// The conversion endpoints on a real loopback socket, fed the golden tim-rest callback bodies of
/// `Fixtures/` (made by Python's google.protobuf, not by IMWire) and compared with their golden outputs.
@Suite struct WebhookServerTests {
    // MARK: POST /convert

    @Test func c2cCallbackAnswersTheGoldenBinary() async throws {
        let request = try fixture("tim_rest_c2c_callback_after_send_msg.input.json")
        let answer = try await withServer { port in
            try await post(port: port, path: "/convert", body: request, headers: [("Accept", "application/x-protobuf")])
        }
        #expect(answer.status == 200)
        #expect(answer.headers["Content-Type"] == ["application/x-protobuf"])
        #expect(answer.body == (try fixture("tim_rest_c2c_callback_after_send_msg.binpb")))

        // The answer decodes to the message the request decodes to.
        let fromAnswer = try Message(serializedBytes: answer.body)
        #expect(fromAnswer == (try Message(timRESTUTF8Bytes: request)))
        #expect(fromAnswer.sender == "jared")
        #expect(fromAnswer.target == .receiver("Jonh"))
        #expect(fromAnswer.timestampMs == 1_557_481_126_000)
    }

    @Test func groupCallbackAnswersTheGoldenJSON() async throws {
        let request = try fixture("tim_rest_group_callback_after_send_msg.input.json")
        let answer = try await withServer { port in
            try await post(port: port, path: "/convert", body: request,
                           headers: [("Accept", "text/html;q=0.9, application/json")])
        }
        #expect(answer.status == 200)
        #expect(answer.headers["Content-Type"] == ["application/json; charset=utf-8"])
        #expect(answer.body == (try fixture("tim_rest_group_callback_after_send_msg.json")))

        let fromAnswer = try Message(jsonUTF8Bytes: answer.body)
        #expect(fromAnswer == (try Message(timRESTUTF8Bytes: request)))
        #expect(fromAnswer.target == .groupID("@TGS#2J4SZEAEL"))
        #expect(fromAnswer.atUserList == ["tommy"])
    }

    @Test func noAcceptHeaderMeansJSON() async throws {
        let answer = try await withServer { port in
            try await post(port: port, path: "/convert", body: try fixture("tim_rest_c2c_callback_after_send_msg.input.json"))
        }
        #expect(answer.status == 200)
        #expect(answer.body == (try fixture("tim_rest_c2c_callback_after_send_msg.json")))
    }

    @Test func malformedJSONIs400WithCodeAndOffset() async throws {
        let body = Array(#"{"CallbackCommand":"C2C.CallbackAfterSendMsg","From_Account":"jared",}"#.utf8)
        let answer = try await withServer { port in
            try await post(port: port, path: "/convert", body: body)
        }
        #expect(answer.status == 400)
        let problem = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        #expect(problem?["code"] as? String == "json_syntax")
        #expect(problem?["offset"] as? Int == 69)  // the "}" after the trailing comma
        #expect((problem?["reason"] as? String)?.isEmpty == false)
    }

    @Test func missingMsgBodyIs400WithItsCode() async throws {
        let body = Array(#"{"CallbackCommand":"C2C.CallbackAfterSendMsg","From_Account":"jared"}"#.utf8)
        let answer = try await withServer { port in
            try await post(port: port, path: "/convert", body: body)
        }
        #expect(answer.status == 400)
        let problem = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        #expect(problem?["code"] as? String == "missing_field")
    }

    @Test func aBrokenLimitIs422WithTheViolations() async throws {
        // The C2C callback from a 40-byte user ID: well-formed, but Tencent allows 32 bytes.
        let sender = String(repeating: "x", count: 40)
        let text = String(decoding: try fixture("tim_rest_c2c_callback_after_send_msg.input.json"), as: UTF8.self)
        let body = Array(text.replacingOccurrences(of: #""From_Account": "jared""#, with: #""From_Account": "\#(sender)""#).utf8)
        let answer = try await withServer { port in
            try await post(port: port, path: "/convert", body: body, headers: [("Accept", "application/x-protobuf")])
        }
        #expect(answer.status == 422)
        let problem = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        #expect(problem?["code"] as? String == "validation_failed")
        let violations = problem?["violations"] as? [[String: Any]] ?? []
        #expect(violations.count == 1)
        #expect(violations.first?["code"] as? String == "user_id_too_long")
        #expect(violations.first?["path"] as? String == "sender")
        #expect(violations.first?["limit"] as? String == "32")
        #expect(violations.first?["actual"] as? String == "40")
    }

    @Test func anOversizedBodyIs413() async throws {
        var settings = WebhookSettings()
        settings.maxBodyBytes = 1024
        // A valid callback whose text is 2000 bytes: over the body limit, never decoded.
        let text = String(decoding: try fixture("tim_rest_c2c_callback_after_send_msg.input.json"), as: UTF8.self)
        let body = Array(text.replacingOccurrences(of: "red packet", with: String(repeating: "r", count: 2000)).utf8)
        let (big, small) = try await withServer(settings: settings) { port in
            (try await post(port: port, path: "/convert", body: body),
             try await post(port: port, path: "/convert", body: try fixture("tim_rest_c2c_callback_after_send_msg.input.json")))
        }
        #expect(big.status == 413)
        let problem = try JSONSerialization.jsonObject(with: Data(big.body)) as? [String: Any]
        #expect(problem?["code"] as? String == "body_too_large")
        #expect(small.status == 200)  // the limit is on the size, not on the content
    }

    @Test func anAcceptHeaderWeCannotServeIs406() async throws {
        let answer = try await withServer { port in
            try await post(port: port, path: "/convert", body: try fixture("tim_rest_c2c_callback_after_send_msg.input.json"),
                           headers: [("Accept", "text/html")])
        }
        #expect(answer.status == 406)
    }

    // MARK: POST /tim-rest

    @Test(arguments: [
        ("tim_rest_group_callback_after_send_msg.binpb", "application/x-protobuf"),
        ("tim_rest_group_callback_after_send_msg.json", "application/json"),
    ])
    func binaryOrProtoJSONInTIMRESTOut(file: String, contentType: String) async throws {
        let answer = try await withServer { port in
            try await post(port: port, path: "/tim-rest", body: try fixture(file), headers: [("Content-Type", contentType)])
        }
        #expect(answer.status == 200)
        #expect(answer.text == String(decoding: try fixture("tim_rest_group_callback_after_send_msg.tim_rest.json"), as: UTF8.self))
    }

    @Test func whatTIMRESTCannotCarryIs422() async throws {
        // A group tips elem is a system notification: Tencent's REST API cannot send one.
        let answer = try await withServer { port in
            try await post(port: port, path: "/tim-rest", body: try fixture("tim_rest_export_reject_group_tips.binpb"),
                           headers: [("Content-Type", "application/x-protobuf")])
        }
        #expect(answer.status == 422)
        let problem = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        #expect(problem?["code"] as? String == "not_representable")
        #expect(problem?["path"] as? String == "elems[0].group_tips")
    }

    @Test func truncatedBinaryIs400WithTheOffset() async throws {
        let golden = try fixture("tim_rest_group_callback_after_send_msg.binpb")
        let answer = try await withServer { port in
            try await post(port: port, path: "/tim-rest", body: Array(golden.dropLast(3)),
                           headers: [("Content-Type", "application/x-protobuf")])
        }
        #expect(answer.status == 400)
        let problem = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        #expect(problem?["code"] as? String == "length_out_of_bounds")
        #expect(problem?["offset"] is Int)
    }

    @Test func anotherContentTypeIs415() async throws {
        let answer = try await withServer { port in
            try await post(port: port, path: "/tim-rest", body: Array("hello".utf8), headers: [("Content-Type", "text/plain")])
        }
        #expect(answer.status == 415)
    }
}

