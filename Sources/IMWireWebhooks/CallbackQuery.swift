/// The query parameters Tencent Cloud IM adds to the webhook URL of every callback.
///
/// From Tencent's "Webhook Overview" (Webhook Protocol and Security Considerations): `SdkAppid`,
/// `CallbackCommand`, `contenttype`, `ClientIP`, `OptPlatform`, and — with an authentication token
/// configured — `Sign` and `RequestTime`. Names are matched exactly as Tencent spells them
/// (case-sensitive); parameters of your own URL are ignored. Reading the query checks only its form;
/// ``CallbackAuthenticator`` decides whether to trust it.
public struct CallbackQuery: Hashable, Sendable {
    /// `SdkAppid`: the app the callback is for.
    public var sdkAppID: UInt64
    /// `CallbackCommand`: the event, for example ``CallbackCommand/c2cBeforeSendMsg``.
    public var command: CallbackCommand
    /// `contenttype`: `json` when present (the only value Tencent documents; any case accepted).
    public var contentType: String?
    /// `ClientIP`: the IP address of the client that caused the event, as Tencent sends it.
    public var clientIP: String?
    /// `OptPlatform`: the client platform (`RESTAPI`, `Web`, `Android`, `iOS` — `IOS` in
    /// `State.StateChange` —, `Windows`, `macOS`, `iPad`, `Unknown`), as Tencent sends it.
    public var platform: String?
    /// `Sign`: hex SHA-256 of the authentication token followed by `RequestTime`.
    public var sign: String?
    /// `RequestTime`: when Tencent signed the request, exactly as sent (decimal Unix seconds);
    /// the signature covers these characters.
    public var requestTime: String?

    /// A query as Tencent sends it; for tests and for clients that sign their own requests.
    public init(
        sdkAppID: UInt64, command: CallbackCommand, contentType: String? = "json", clientIP: String? = nil,
        platform: String? = nil, sign: String? = nil, requestTime: String? = nil
    ) {
        self.sdkAppID = sdkAppID
        self.command = command
        self.contentType = contentType
        self.clientIP = clientIP
        self.platform = platform
        self.sign = sign
        self.requestTime = requestTime
    }

    /// Reads the query part of a callback URL: the text after `?` (a leading `?` is skipped), in
    /// `application/x-www-form-urlencoded` form (`%XX` escapes, `+` for a space).
    ///
    /// Throws ``WebhookError/Code/malformedQuery`` for a bad escape or bytes that are not UTF-8,
    /// ``WebhookError/Code/duplicateParameter`` for a parameter named twice,
    /// ``WebhookError/Code/missingParameter`` without `SdkAppid` or `CallbackCommand`, and
    /// ``WebhookError/Code/invalidParameter`` for an `SdkAppid` that is not a decimal number, an
    /// empty `CallbackCommand` or a `contenttype` other than `json`. Time is linear in the query's
    /// length.
    public init(query: some StringProtocol) throws(WebhookError) {
        var text = String(query)
        let parameters = text.withUTF8 { bytes in
            Result { () throws(WebhookError) in try Self.parameters(bytes) }
        }
        try self.init(parameters: try parameters.get())
    }

    /// The parameters already split and decoded, in the order they came (a framework's
    /// `request.uri.queryParameters`). The same checks as ``init(query:)``.
    public init(parameters: some Sequence<(name: String, value: String)>) throws(WebhookError) {
        var found: [Name: String] = [:]
        for (name, value) in parameters {
            guard let known = Name(rawValue: name) else { continue }
            guard found.updateValue(value, forKey: known) == nil else {
                throw WebhookError(
                    code: .duplicateParameter,
                    reason: "\(name) comes more than once; a proxy in front may have read another value than this server",
                    parameter: name)
            }
        }
        guard let appID = found[.sdkAppID] else {
            throw WebhookError(code: .missingParameter, reason: "the URL has no SdkAppid: not a Tencent callback", parameter: "SdkAppid")
        }
        guard let sdkAppID = Self.decimal(appID).flatMap(UInt64.init(exactly:)) else {
            throw WebhookError(
                code: .invalidParameter, reason: "SdkAppid \(Self.quoted(appID)) is not a decimal number", parameter: "SdkAppid")
        }
        guard let command = found[.command] else {
            throw WebhookError(
                code: .missingParameter, reason: "the URL has no CallbackCommand: not a Tencent callback", parameter: "CallbackCommand")
        }
        guard !command.isEmpty else {
            throw WebhookError(code: .invalidParameter, reason: "CallbackCommand is empty", parameter: "CallbackCommand")
        }
        if let type = found[.contentType], type.lowercased() != "json" {
            throw WebhookError(
                code: .invalidParameter, reason: "contenttype is \(Self.quoted(type)); Tencent sends json", parameter: "contenttype")
        }
        self.init(
            sdkAppID: sdkAppID, command: CallbackCommand(command), contentType: found[.contentType],
            clientIP: found[.clientIP], platform: found[.platform], sign: found[.sign], requestTime: found[.requestTime])
    }

    /// The parameters this type reads, spelled as Tencent does.
    private enum Name: String {
        case sdkAppID = "SdkAppid", command = "CallbackCommand", contentType = "contenttype"
        case clientIP = "ClientIP", platform = "OptPlatform", sign = "Sign", requestTime = "RequestTime"
    }

    /// `text` as a non-negative decimal integer: ASCII digits only (no sign, no spaces), at most
    /// 18 of them so the value fits an `Int64`; `nil` otherwise.
    static func decimal(_ text: String) -> Int64? {
        let digits = text.utf8
        guard (1...18).contains(digits.count) else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// A value as it may appear in a reason: quoted, cut to 40 characters, so a log line stays
    /// short whatever an impostor sends.
    static func quoted(_ value: String) -> String {
        value.count <= 40 ? "\"\(value)\"" : "\"\(value.prefix(40))…\" (\(value.utf8.count) bytes)"
    }

    // MARK: - Splitting and decoding

    /// `name=value` pairs split at `&`, each side percent-decoded. Empty pairs (`a=1&&b=2`) are
    /// skipped; a pair without `=` is a name with an empty value.
    private static func parameters(_ bytes: UnsafeBufferPointer<UInt8>) throws(WebhookError) -> [(name: String, value: String)] {
        var start = bytes.startIndex
        if start < bytes.endIndex, bytes[start] == UInt8(ascii: "?") { start += 1 }
        var result: [(name: String, value: String)] = []
        while start < bytes.endIndex {
            var end = start
            while end < bytes.endIndex, bytes[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var equals = start
                while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                let name = try decode(UnsafeBufferPointer(rebasing: bytes[start..<equals]), at: start)
                let value = equals < end
                    ? try decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), at: equals + 1) : ""
                result.append((name, value))
            }
            start = end + 1
        }
        return result
    }

    /// One percent-encoded component: `%XX` is the byte XX, `+` a space; the result must be UTF-8.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(WebhookError) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw notUTF8(at: offset) }
            return text
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    throw WebhookError(
                        code: .malformedQuery,
                        reason: "the % at byte \(offset + index) of the query is not followed by two hex digits")
                }
                decoded.append(high << 4 | low)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw notUTF8(at: offset) }
        return text
    }

    private static func notUTF8(at offset: Int) -> WebhookError {
        WebhookError(code: .malformedQuery, reason: "the query component at byte \(offset) does not decode to UTF-8")
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
