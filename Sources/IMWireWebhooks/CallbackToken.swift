/// A callback authentication token: the secret Tencent Cloud IM signs every webhook URL with once
/// it is set in the console or with the "Set Callback Authentication Token" REST API.
///
/// 1 to 128 characters, as that page allows. The token is a secret: its ``description`` does not
/// show it, and nothing IMWire logs or throws contains it.
public struct CallbackToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let bytes: [UInt8]

    /// A token as configured at Tencent. Throws ``WebhookError/Code/invalidToken`` for an empty
    /// token or one longer than 128 characters, which Tencent does not accept.
    public init(_ token: String) throws(WebhookError) {
        guard (1...128).contains(token.count) else {
            throw WebhookError(
                code: .invalidToken,
                reason: "a callback authentication token has 1 to 128 characters; this one has \(token.count)")
        }
        bytes = Array(token.utf8)
    }

    /// `Sign` for `requestTime`: the lowercase hex SHA-256 of the token's UTF-8 followed by the
    /// characters of `RequestTime` — what Tencent puts in the URL (token `xxxxyyyy`, time
    /// `1669872112` → `17773bc3…d484061`).
    public func signature(requestTime: String) -> String {
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in digest(requestTime: requestTime) {
            hex.append(Self.hexDigits[Int(byte >> 4)])
            hex.append(Self.hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Whether `sign` (64 hex digits, either case) is the signature of `requestTime`, compared in
    /// time that does not depend on where the two differ.
    func isSignature(_ sign: String, of requestTime: String) -> Bool {
        guard let given = Self.bytes(hex: sign) else { return false }
        var difference: UInt8 = 0
        for (expected, actual) in zip(digest(requestTime: requestTime), given) { difference |= expected ^ actual }
        return difference == 0
    }

    private func digest(requestTime: String) -> [UInt8] {
        var hash = SHA256()
        hash.update(bytes)
        hash.update(requestTime.utf8)
        return hash.finalize()
    }

    /// 32 bytes from 64 hex digits; `nil` for anything else.
    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 2 * SHA256.byteCount else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(SHA256.byteCount)
        var index = 0
        while index < digits.count {
            guard let high = CallbackQuery.hexValue(digits[index]), let low = CallbackQuery.hexValue(digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `CallbackToken(<redacted>)`: the token never reaches a log through `print` or interpolation.
    public var description: String { "CallbackToken(<redacted>)" }
    public var debugDescription: String { description }
    /// No children: `dump` and debuggers do not show the token either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
