public import IMWireCore

/// Why a Tencent Cloud IM callback was refused, or why an answer to one could not be built.
///
/// Shaped like `IMWireError` (and swift-asn1's `ASN1Error`): a stable ``code`` to switch on, a
/// ``reason`` for people that says what was expected and what was found, and where — the query
/// ``parameter`` (`Sign`, `RequestTime`, …) or the model ``path`` (`elems[0].image`). Two errors are
/// equal when their codes are equal. ``httpStatus`` is the status a server answers with: the
/// caller of a webhook is Tencent's backend or an impostor, so the answer says as little as it can
/// (see the Receiving Tencent webhooks article).
public struct WebhookError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable, machine-readable kind of error.
    public struct Code: StableCode {
        // A private enum behind a struct, so adding codes never breaks API (swift-asn1's pattern).
        private enum Backing: String, Hashable, Sendable, CaseIterable {
            case malformedQuery = "malformed_query"
            case missingParameter = "missing_parameter"
            case duplicateParameter = "duplicate_parameter"
            case invalidParameter = "invalid_parameter"
            case wrongAppID = "wrong_app_id"
            case badSignature = "bad_signature"
            case requestTimeTooOld = "request_time_too_old"
            case requestTimeInFuture = "request_time_in_future"
            case invalidToken = "invalid_token"
            case malformedBody = "malformed_body"
            case answerNotAllowed = "answer_not_allowed"
            case rewriteNotAllowed = "rewrite_not_allowed"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The URL's query is not `name=value` pairs joined by `&`, or has a `%` escape that is not
        /// two hex digits or does not decode to UTF-8.
        public static let malformedQuery = Code(.malformedQuery)
        /// A parameter Tencent always sends is absent: `SdkAppid` or `CallbackCommand`, or — with an
        /// authentication token configured — `Sign` or `RequestTime`.
        public static let missingParameter = Code(.missingParameter)
        /// A parameter IMWire reads comes twice. Refused rather than picking one, because a proxy
        /// in front may have picked the other.
        public static let duplicateParameter = Code(.duplicateParameter)
        /// A parameter's value is not of its form: `SdkAppid` or `RequestTime` not a decimal number,
        /// `contenttype` other than `json`, an empty `CallbackCommand`.
        public static let invalidParameter = Code(.invalidParameter)
        /// `SdkAppid` is not this app's SDKAppID.
        public static let wrongAppID = Code(.wrongAppID)
        /// `Sign` is not the SHA-256 of the token followed by `RequestTime` (or not 64 hex digits).
        public static let badSignature = Code(.badSignature)
        /// `RequestTime` is more than the allowed skew (one minute) before now: a replay.
        public static let requestTimeTooOld = Code(.requestTimeTooOld)
        /// `RequestTime` is more than the allowed skew (one minute) after now.
        public static let requestTimeInFuture = Code(.requestTimeInFuture)
        /// A callback authentication token that Tencent would not accept: empty, or longer than
        /// 128 characters.
        public static let invalidToken = Code(.invalidToken)
        /// The request body is not a message Tencent would send (the tim-rest reader's error is in
        /// ``WebhookError/underlying``).
        public static let malformedBody = Code(.malformedBody)
        /// An answer the callback does not take: a refusal or rewrite of a callback that only
        /// notifies, or a refusal code outside the range the command documents.
        public static let answerNotAllowed = Code(.answerNotAllowed)
        /// A replacement message Tencent does not allow: a changed or new image, sound, file or video
        /// elem, or content tim-rest cannot carry (``WebhookError/underlying``).
        public static let rewriteNotAllowed = Code(.rewriteNotAllowed)

        /// The stable snake_case name, for example `bad_signature`.
        public var name: String { backing.rawValue }

        /// Every code this version can produce, in a stable order.
        public static let all: [Code] = Backing.allCases.map(Code.init)
    }

    /// The fields, in one immutable object: the error is one reference wide.
    private final class Storage: Sendable {
        let code: Code
        let reason: String
        let parameter: String?
        let path: String?
        let underlying: IMWireError?

        init(code: Code, reason: String, parameter: String?, path: String?, underlying: IMWireError?) {
            self.code = code
            self.reason = reason
            self.parameter = parameter
            self.path = path
            self.underlying = underlying
        }
    }

    private let storage: Storage

    /// What went wrong, stable across versions.
    public var code: Code { storage.code }
    /// A sentence for people (and for your logs, not for the caller): what was expected and what
    /// was found. It never contains the token; it may contain what the request sent.
    public var reason: String { storage.reason }
    /// The query parameter the error is about, exactly as Tencent spells it (`SdkAppid`, `Sign`).
    public var parameter: String? { storage.parameter }
    /// The model path the error is about (`elems[1].image`), for answers that could not be built.
    public var path: String? { storage.path }
    /// The IMWire error behind a ``Code/malformedBody`` or ``Code/rewriteNotAllowed``.
    public var underlying: IMWireError? { storage.underlying }

    /// The status a server answers the request with: 400 for a request that is not a well-formed
    /// callback (malformed query or body, a missing `SdkAppid` or `CallbackCommand`), 401 when it is
    /// not authenticated (no, wrong or stale signature), 403 when it is authenticated or
    /// authentication is off but it is for another app, 500 for an answer this server failed to
    /// build (``Code/invalidToken``, ``Code/answerNotAllowed``, ``Code/rewriteNotAllowed``: a bug of
    /// the server, not of the request).
    public var httpStatus: Int {
        switch code {
        case .missingParameter where parameter == "Sign" || parameter == "RequestTime": 401
        case .badSignature, .requestTimeTooOld, .requestTimeInFuture: 401
        case .wrongAppID: 403
        case .invalidToken, .answerNotAllowed, .rewriteNotAllowed: 500
        default: 400
        }
    }

    /// An error with `code` and `reason`, about a query `parameter` or a model `path`.
    public init(
        code: Code, reason: String, parameter: String? = nil, path: String? = nil, underlying: IMWireError? = nil
    ) {
        storage = Storage(code: code, reason: reason, parameter: parameter, path: path, underlying: underlying)
    }

    public static func == (lhs: WebhookError, rhs: WebhookError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `CODE: reason (parameter P)` or `(at PATH)`.
    public var description: String {
        var text = "\(code): \(reason)"
        if let parameter { text += " (parameter \(parameter))" }
        if let path { text += " (at \(path))" }
        return text
    }
}
