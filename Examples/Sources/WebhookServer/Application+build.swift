import Hummingbird
import IMWire
import NIOCore

/// What the service enforces. The defaults suit a Tencent Cloud IM callback endpoint.
struct WebhookSettings: Sendable {
    /// The limits every message must meet: `.tencent`, `.zim`, `.none`, or a preset you changed.
    var profile: ValidationProfile = .tencent
    /// The largest request body read, in bytes; a larger one is answered 413 and never decoded.
    /// Tencent's 12 KB content limit plus the envelope fits many times over.
    var maxBodyBytes: Int = 64 * 1024
}

/// The webhook service, ready to run (`try await app.runService()`) or to start from a test.
///
/// - `POST /webhook`: a tim-rest body (a `C2C.CallbackAfterSendMsg` or `Group.CallbackAfterSendMsg`
///   callback, a `sendmsg` request, …) → 200 with the canonical protobuf or proto3 JSON of the
///   message, as the `Accept` header asks.
/// - `POST /tim-rest`: protobuf or proto3 JSON (by `Content-Type`) → 200 with the tim-rest request
///   that sends the message (`send_group_msg` for a group, `sendmsg` for C2C).
///
/// Either answers 400 for a body IMWire cannot decode, 413 for a body over `maxBodyBytes`, 422 for
/// a message that breaks `settings.profile` (see `Problem` for the bodies).
func buildApplication(
    configuration: ApplicationConfiguration,
    settings: WebhookSettings = WebhookSettings(),
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router()

    router.post("webhook") { request, _ -> Response in
        // Choose the answer format before doing any work, so a client that accepts neither learns early.
        guard let answer = Wire(accept: request.headers[.accept]) else {
            throw Problem(.notAcceptable, code: "not_acceptable",
                          reason: "Accept application/x-protobuf or application/json")
        }
        let message = try await receive(request, as: .timREST, settings: settings)
        return try reply(message, as: answer)
    }

    router.post("tim-rest") { request, _ -> Response in
        guard let format = Wire(contentType: request.headers[.contentType]) else {
            throw Problem(.unsupportedMediaType, code: "unsupported_media_type",
                          reason: "send application/x-protobuf or application/json")
        }
        let message = try await receive(request, as: format, settings: settings)
        return try reply(message, as: .timREST)
    }

    return Application(router: router, configuration: configuration, onServerRunning: onServerRunning)
}

/// Reads the body up to the limit, decodes it and validates the message: the three ways a request
/// can fail, each with its own status.
private func receive(_ request: Request, as format: Wire, settings: WebhookSettings) async throws -> Message {
    let body: ByteBuffer
    do {
        body = try await request.body.collect(upTo: settings.maxBodyBytes)
    } catch is NIOTooManyBytesError {
        throw Problem(.contentTooLarge, code: "body_too_large",
                      reason: "the body is larger than \(settings.maxBodyBytes) bytes")
    }

    let message: Message
    do {
        message = try format.decode(body)
    } catch {
        throw Problem(error)  // 400: json_syntax, missing_field, truncated, …
    }

    // Decoding checks the wire format only; the vendor's limits are this separate step.
    let violations = message.validate(profile: settings.profile)
    guard violations.isEmpty else { throw Problem(violations, profile: settings.profile) }
    return message
}

/// 200 with the message in `format`, or 422 when the message has no form there (`not_representable`).
private func reply(_ message: Message, as format: Wire) throws -> Response {
    do {
        return Response(status: .ok, headers: [.contentType: format.contentType],
                        body: ResponseBody(byteBuffer: try format.encode(message)))
    } catch {
        throw Problem(error)
    }
}
