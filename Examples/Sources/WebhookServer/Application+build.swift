import Hummingbird
import HummingbirdCore
import IMWire
import IMWireWebhooks
import Logging
import NIOCore
import NIOPosix

/// What the service enforces. The defaults suit a Tencent Cloud IM callback endpoint.
struct WebhookSettings: Sendable {
    /// Who may call `/webhook`: your SDKAppID, and the callback authentication token when it is on
    /// at Tencent (`SDKAPPID`, `CALLBACK_TOKEN`). `nil` — neither set — accepts callbacks for any
    /// app, unsigned: for trying the service out only (it says so when it starts).
    var authenticator: CallbackAuthenticator? = nil
    /// The word list that rewrites or refuses before-send messages (`BANNED_WORDS`).
    var moderation = Moderation()
    /// Where a message callback's message goes once it is answered (see `MessageRelay`).
    var relay: MessageRelay = .log
    /// The limits every message must meet: `.tencent`, `.zim`, `.none`, or a preset you changed.
    /// `/convert` and `/tim-rest` validate against it; on `/webhook` a rewritten message must meet it.
    var profile: ValidationProfile = .tencent
    /// The largest request body read, in bytes; a larger one is answered 413 and never decoded.
    /// Tencent's 12 KB content limit plus the envelope fits many times over (`MAX_BODY_BYTES`).
    var maxBodyBytes: Int = 64 * 1024
    /// The largest request head (request line and header fields), in bytes (`MAX_HEADER_BYTES`).
    /// Tencent's callback URL and headers take a few hundred. A larger head is refused by the HTTP
    /// parser: the connection is closed with 431 or 400 and nothing is handled.
    var maxHeaderBytes: Int = 16 * 1024
    /// How long a handler waits for the whole body, in seconds (`REQUEST_TIMEOUT`): a slower one is
    /// answered 408. Tencent gives a callback two seconds in all.
    var requestTimeout: Duration = .seconds(10)
    /// A connection on which nothing is read or written for this long is closed (`IDLE_TIMEOUT`):
    /// the bound on a client that opens connections and sends nothing, or a head byte by byte.
    var idleTimeout: Duration = .seconds(30)
}

/// Where `/webhook` sends the message of a message callback (C2C or group, before or after send),
/// after authentication and moderation: its canonical protobuf (`Schemas/imwire/v1/message.proto`),
/// as the sender sent it, the bytes a queue or a store takes. The example logs it (at `debug`, read
/// through the message view); a real endpoint hands the bytes on. Called before the answer is
/// sent, so keep it fast: Tencent waits two seconds at most.
struct MessageRelay: Sendable {
    var deliver: @Sendable (_ command: CallbackCommand, _ protobuf: [UInt8], _ logger: Logger) async -> Void

    static let log = MessageRelay { command, protobuf, logger in
        logger.debug("\(command) from \((try? Message.withView(serializedBytes: protobuf) { message in String(message.sender) }) ?? "?"): \(protobuf.count) bytes of protobuf")
    }
}

/// The webhook service, ready to run (`try await app.runService()`) or to start from a test.
///
/// - `POST /webhook`: a Tencent Cloud IM callback. Authenticated (`SdkAppid`, `Sign`,
///   `RequestTime`), the message of a message callback moderated and relayed, answered with
///   Tencent's callback JSON.
/// - `POST /convert`: a tim-rest body → the canonical protobuf or proto3 JSON, as `Accept` asks.
/// - `POST /tim-rest`: protobuf or proto3 JSON (by `Content-Type`) → the tim-rest request that
///   sends the message (`send_group_msg` for a group, `sendmsg` for C2C).
///
/// Statuses and bodies: Examples/README.md.
func buildApplication(
    configuration: ApplicationConfiguration,
    settings: WebhookSettings = WebhookSettings(),
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router()

    router.post("webhook") { request, context -> Response in
        try await webhook(request, settings: settings, logger: context.logger)
    }

    router.post("convert") { request, _ -> Response in
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

    let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
        maxHeaderFieldSize: settings.maxHeaderBytes, maxHeaderListSize: settings.maxHeaderBytes, maxHeaderFieldCount: 100)
    return Application(
        router: router,
        server: .http1(configuration: .init(idleTimeout: .nanoseconds(settings.idleTimeout.nanoseconds),
                                            httpDecoderConfiguration: decoder)),
        configuration: configuration,
        onServerRunning: onServerRunning)
}

/// `/webhook`: authenticate, then answer. Nothing of the request is read before the query is
/// trusted, and a refusal says only its code: the caller is Tencent or an impostor.
private func webhook(_ request: Request, settings: WebhookSettings, logger: Logger) async throws -> Response {
    let query: CallbackQuery
    do {
        if let authenticator = settings.authenticator {
            query = try authenticator.verify(query: request.uri.query ?? "")
        } else {
            query = try CallbackQuery(query: request.uri.query ?? "")
        }
    } catch {
        logger.notice("webhook refused: \(error)")
        throw Problem(refusal: error)
    }

    let response: CallbackResponse
    if [.c2cBeforeSendMsg, .c2cAfterSendMsg, .groupBeforeSendMsg, .groupAfterSendMsg].contains(query.command) {
        let body = try await collect(request, settings: settings)
        let callback: MessageCallback
        do {
            callback = try MessageCallback(command: query.command, body: body.readableBytesView)
        } catch {
            // A body that is not a message: IMWire's error, with its code and where it is.
            guard let underlying = error.underlying else { throw Problem(refusal: error) }
            throw Problem(underlying)
        }
        // Encoded once: the relay forwards these bytes, and the moderation reads them in place.
        let protobuf: [UInt8]
        do {
            protobuf = try callback.message.serializedBytes()
        } catch {
            throw Problem(error)  // deeper than the encoder's limit, which the tim-rest reader's equals
        }
        do {
            response = try settings.moderation.answer(callback, protobuf: protobuf, profile: settings.profile)
        } catch {
            logger.error("webhook answer failed: \(error)")
            throw Problem(refusal: error)
        }
        await settings.relay.deliver(query.command, protobuf, logger)
    } else {
        // Not a message callback (state, relationship, group events): acknowledged, body unread.
        response = .allow
    }
    return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.jsonUTF8Bytes())))
}

/// The body, up to the size limit and within the time limit.
///
/// The deadline is a task scheduled on one of the server's event loops, cancelled as soon as the body
/// is in. It is not a `Task.sleep` racing the body in a child task: a cancelled sleep keeps its timer
/// allocated until the deadline it was given, so under load the service held requests/s ×
/// `REQUEST_TIMEOUT` sleeping timers (about 50 MiB at 10,000 requests/s and 10 s). A cancelled NIO
/// task is removed from its event loop's queue at once.
private func collect(_ request: Request, settings: WebhookSettings) async throws -> ByteBuffer {
    let deadline = MultiThreadedEventLoopGroup.singleton.any()
        .scheduleTask(in: TimeAmount(settings.requestTimeout)) {}
    do {
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await request.body.collect(upTo: settings.maxBodyBytes) }
            // Ends with `nil` at the deadline, or throws once `deadline` is cancelled below.
            group.addTask { try await deadline.futureResult.get(); return nil }
            defer {
                deadline.cancel()
                group.cancelAll()
            }
            guard let body = try await group.next()! else {
                throw Problem(.requestTimeout, code: "request_timeout",
                              reason: "the body did not arrive within \(settings.requestTimeout)")
            }
            return body
        }
    } catch is NIOTooManyBytesError {
        throw Problem(.contentTooLarge, code: "body_too_large",
                      reason: "the body is larger than \(settings.maxBodyBytes) bytes")
    }
}

/// Reads the body up to the limit, decodes it and validates the message: the three ways a request
/// can fail, each with its own status.
private func receive(_ request: Request, as format: Wire, settings: WebhookSettings) async throws -> Message {
    let body = try await collect(request, settings: settings)

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

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
