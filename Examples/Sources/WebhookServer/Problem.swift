import Foundation
import Hummingbird
import IMWire
import IMWireWebhooks

/// An answer other than 200: a status and a small JSON body saying what was wrong. Handlers throw
/// it; Hummingbird turns every `HTTPResponseError` into its response.
///
///     400 {"code":"json_syntax","offset":17,"reason":"…"}
///     422 {"code":"validation_failed","reason":"…","violations":[{"code":"text_too_large",…}]}
struct Problem: HTTPResponseError {
    struct Body: Encodable {
        var code: String
        var reason: String?
        var offset: Int? = nil
        var path: String? = nil
        var violations: [ViolationBody]? = nil
    }
    struct ViolationBody: Encodable {
        var code: String, path: String, limit: String, actual: String, reason: String
    }

    var status: HTTPResponse.Status
    var body: Body

    /// 400 for input IMWire cannot decode, 422 for a message tim-rest cannot carry
    /// (`not_representable`), 413 for IMWire's own `input_too_large`.
    init(_ error: IMWireError) {
        switch error.code {
        case .notRepresentable: status = .unprocessableContent
        case .inputTooLarge: status = .contentTooLarge
        default: status = .badRequest
        }
        body = Body(code: error.code.name, reason: error.reason, offset: error.offset, path: error.path)
    }

    /// 422 listing every way a well-formed message breaks the validation profile.
    init(_ violations: [Violation], profile: ValidationProfile) {
        status = .unprocessableContent
        body = Body(
            code: "validation_failed",
            reason: "the message breaks \(violations.count) rule(s) of profile \(profile.name)",
            violations: violations.map {
                ViolationBody(code: $0.code.name, path: $0.path, limit: "\($0.limit)",
                              actual: "\($0.actual)", reason: $0.reason)
            }
        )
    }

    /// A webhook request refused before anything of it is used: the status the error maps to
    /// (400, 401, 403; 500 for an answer the server failed to build) and the code only — no reason,
    /// nothing of the request, as the caller may be an impostor. The reason goes to the log.
    init(refusal error: WebhookError) {
        status = HTTPResponse.Status(code: error.httpStatus)
        body = Body(code: error.code.name)
    }

    init(_ status: HTTPResponse.Status, code: String, reason: String) {
        self.status = status
        self.body = Body(code: code, reason: reason)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(body)))
        )
    }
}
