/// Short renderings of payloads for one-line failure reports.
enum Shorten {
    /// Lowercase hex of at most `limit` bytes: `0a0568656c6c6f` or `0a05…(1234 bytes)`.
    static func hex(_ bytes: ArraySlice<UInt8>, limit: Int = 40) -> String {
        let digits = bytes.prefix(limit).map { hexByte($0) }.joined()
        return bytes.count > limit ? "\(digits)…(\(bytes.count) bytes)" : digits
    }

    static func hex(_ bytes: [UInt8], limit: Int = 40) -> String { hex(bytes[...], limit: limit) }

    /// ``hex(_:limit:)`` that always says the length: `0a0568656c6c6f (7 bytes)`, `0a05…(1234 bytes)`.
    static func countedHex(_ bytes: [UInt8], limit: Int = 40) -> String {
        bytes.count > limit ? hex(bytes, limit: limit) : "\(hex(bytes, limit: limit)) (\(bytes.count) bytes)"
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// UTF-8 text on one line, at most `limit` characters: invalid UTF-8 shows as U+FFFD, control
    /// characters as `\n`, `\u{1}`.
    static func text(_ bytes: [UInt8], limit: Int = 160) -> String {
        text(String(decoding: bytes, as: UTF8.self), limit: limit)
    }

    static func text(_ string: String, limit: Int = 160) -> String {
        var out = ""
        var count = 0
        for scalar in string.unicodeScalars {
            if count == limit {
                out += "…(\(string.utf8.count) bytes)"
                break
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// Where two byte strings first differ, with a little context: `first difference at byte 17 of
    /// 40: expected …0a03616263…, got …0a03616264…`.
    static func firstDifference(expected: [UInt8], actual: [UInt8]) -> String {
        let common = zip(expected, actual).prefix(while: { $0 == $1 }).count
        let from = max(0, common - 4)
        func window(_ bytes: [UInt8]) -> String {
            guard from < bytes.count else { return "(end)" }
            let slice = bytes[from..<min(bytes.count, common + 12)]
            return (from > 0 ? "…" : "") + hex(slice, limit: 16) + (from + slice.count < bytes.count ? "…" : "")
        }
        return "first difference at byte \(common): expected \(window(expected)), got \(window(actual))"
    }
}
