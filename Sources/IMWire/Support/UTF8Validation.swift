#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UTF-8 checks for strings read from the wire and from JSON text: the binary decoder (and through
/// it the routing view) and the JSON scanner validate with these.
package enum UTF8Validation {
    /// A `String` of `bytes`, or `nil` when they are not valid UTF-8.
    ///
    /// `String(validating:as:)` goes through an unspecialised generic path that looks up type
    /// metadata on every call (half of all decoding time in profiles); `String(decoding:)` has a
    /// fast concrete path that validates and copies in one go, but repairs instead of failing — so
    /// the result is compared with the input: equal bytes mean nothing was repaired.
    @inline(__always)
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var string = String(decoding: bytes, as: UTF8.self)
        let unchanged = string.withUTF8 { decoded in
            decoded.count == bytes.count && memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        return unchanged ? string : nil
    }

    /// Whether `bytes` are valid UTF-8, without making a string (for keys and skipped values):
    /// eight ASCII bytes at a time, then the well-formed sequences of Unicode's table 3-7.
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            while index + 8 <= count,
                  UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
            guard index < count else { break }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            @inline(__always) func continuation(_ offset: Int) -> UInt8? {
                let at = index + offset
                guard at < count, base[at] & 0xC0 == 0x80 else { return nil }
                return base[at]
            }
            switch lead {
            case 0xC2...0xDF:
                guard continuation(1) != nil else { return false }
                index += 2
            case 0xE0...0xEF:
                guard let second = continuation(1), continuation(2) != nil else { return false }
                if lead == 0xE0, second < 0xA0 { return false }  // overlong
                if lead == 0xED, second >= 0xA0 { return false }  // surrogate
                index += 3
            case 0xF0...0xF4:
                guard let second = continuation(1), continuation(2) != nil, continuation(3) != nil else { return false }
                if lead == 0xF0, second < 0x90 { return false }  // overlong
                if lead == 0xF4, second >= 0x90 { return false }  // above U+10FFFF
                index += 4
            default:
                return false
            }
        }
        return true
    }

    // Locating the bad byte, for error messages: the cold path.
    /// Index of the first byte that does not start or continue a valid UTF-8 sequence.
    package static func firstInvalidIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): index += scalar.count
            case .emptyInput: return index
            case .error: return index
            }
        }
    }
}
