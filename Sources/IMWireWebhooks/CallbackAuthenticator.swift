/// Decides whether a request to your webhook URL is a callback from Tencent Cloud IM for your app.
///
/// What Tencent's "Webhook Overview" asks of the app backend (its Security Considerations): check
/// that `SdkAppid` is the app's own, and — with callback authentication on (a token configured) —
/// that `Sign` is `sha256(token + RequestTime)` and that `RequestTime` is within one minute of now,
/// so that a recorded request cannot be replayed later.
///
///     let authenticator = CallbackAuthenticator(sdkAppID: 1400000000, token: try CallbackToken("xxxxyyyy"))
///     let query = try authenticator.verify(query: request.uri.query ?? "")   // throws WebhookError
///
/// The checks run in this order and stop at the first failure: the query's form
/// (``CallbackQuery/init(query:)``), then the signature and the time window (only with a token),
/// then the app ID, so that an unsigned request learns nothing about which app is served here.
///
/// What the signature does not cover: it signs the token and the time only, not the command, the
/// app ID or the body. Whoever sees one signed URL can send any body with it for the rest of its
/// minute — HTTPS to your endpoint is what keeps the URL secret (Tencent recommends it). And a
/// server cannot refuse a second request with the same `Sign`: Tencent sends every callback of one
/// second with the same one.
public struct CallbackAuthenticator: Sendable {
    /// Your app's SDKAppID, as the Chat console shows it.
    public var sdkAppID: UInt64
    /// The callback authentication token; `nil` when authentication is off at Tencent, in which
    /// case only the app ID is checked and `Sign` / `RequestTime` are ignored.
    public var token: CallbackToken?
    /// How far `RequestTime` may be from now, in seconds; Tencent's rule is one minute (60): 60 s
    /// away passes, 61 s is refused.
    public var allowedClockSkew: Int64
    /// Where "now" comes from.
    public var clock: WebhookClock

    /// An authenticator for the app `sdkAppID`, with authentication on when `token` is given.
    public init(sdkAppID: UInt64, token: CallbackToken?, allowedClockSkew: Int64 = 60, clock: WebhookClock = .system) {
        self.sdkAppID = sdkAppID
        self.token = token
        self.allowedClockSkew = allowedClockSkew
        self.clock = clock
    }

    /// Reads the query of a request to the webhook URL and verifies it; the query on success.
    public func verify(query: some StringProtocol) throws(WebhookError) -> CallbackQuery {
        let parsed = try CallbackQuery(query: query)
        try verify(parsed)
        return parsed
    }

    /// Verifies a query already read: signature and time (with a token), then app ID.
    public func verify(_ query: CallbackQuery) throws(WebhookError) {
        if let token {
            guard let sign = query.sign else {
                throw WebhookError(
                    code: .missingParameter, reason: "callback authentication is on, but the URL has no Sign", parameter: "Sign")
            }
            guard let requestTime = query.requestTime else {
                throw WebhookError(
                    code: .missingParameter, reason: "callback authentication is on, but the URL has no RequestTime",
                    parameter: "RequestTime")
            }
            guard token.isSignature(sign, of: requestTime) else {
                throw WebhookError(
                    code: .badSignature, reason: "Sign is not the SHA-256 of the token and RequestTime", parameter: "Sign")
            }
            // Signed, so it is Tencent's time: only now is a malformed one reported as such.
            guard let time = CallbackQuery.decimal(requestTime) else {
                throw WebhookError(
                    code: .invalidParameter,
                    reason: "RequestTime \(CallbackQuery.quoted(requestTime)) is not decimal Unix seconds", parameter: "RequestTime")
            }
            let now = clock.now()
            if time < now - allowedClockSkew {
                throw WebhookError(
                    code: .requestTimeTooOld,
                    reason: "RequestTime \(time) is \(now - time) s before now (\(now)); at most \(allowedClockSkew) s is accepted",
                    parameter: "RequestTime")
            }
            if time > now + allowedClockSkew {
                throw WebhookError(
                    code: .requestTimeInFuture,
                    reason: "RequestTime \(time) is \(time - now) s after now (\(now)); at most \(allowedClockSkew) s is accepted",
                    parameter: "RequestTime")
            }
        }
        guard query.sdkAppID == sdkAppID else {
            throw WebhookError(
                code: .wrongAppID, reason: "SdkAppid \(query.sdkAppID) is not this app's (\(sdkAppID))", parameter: "SdkAppid")
        }
    }
}
