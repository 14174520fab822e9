/// Strings of up to 15 UTF-8 bytes made without the standard library's byte-by-byte copy: a
/// decoder makes most of its strings this short (IDs, names, short texts), and the standard
/// library's own construction (`String(copying:)` and the rest) moves their bytes into its inline
/// representation one at a time — about 70 instructions a string, as much as checking and reading
/// the string itself.
///
/// On 64-bit little-endian platforms Swift keeps such a string in the two words of the `String`
/// value (the layout of `_StringObject`, fixed by the ABI on Apple platforms and the same on Linux):
/// the bytes in order, and in the top byte a flag nibble (`0xE` all ASCII, `0xA` otherwise) and
/// the count. ``make(_:isASCII:)`` writes those two words with a few loads and shifts. Before it is
/// used, ``isAvailable`` checks once per process that strings built this way are the ones the
/// standard library builds (equal words for ASCII and non-ASCII samples of every length); where
/// they are not, or on another platform, every string takes the standard path.
@usableFromInline package enum SmallString {
    /// The most UTF-8 bytes a string keeps inline.
    @inline(__always)
    @inlinable
    package static var capacity: Int { 15 }

    /// Whether ``make(_:isASCII:)`` builds the strings the standard library builds, here.
    @usableFromInline package static let isAvailable: Bool = {
        #if _endian(little) && _pointerBitWidth(_64)
        let ascii = Array("abcdefghijklmno".utf8)
        var samples: [[UInt8]] = (0...capacity).map { Array(ascii.prefix($0)) }
        samples += ["é", "ÿ", "日本", "\u{1F35C}x", "aé日\u{1F35C}bcd", "日本語日本"].map { Array($0.utf8) }
        for bytes in samples {
            let isASCII = bytes.allSatisfy { $0 < 0x80 }
            let standard = String(decoding: bytes, as: UTF8.self)
            let built = bytes.withUnsafeBufferPointer { words($0, isASCII: isASCII) }
            guard words(of: standard) == built else { return false }
        }
        return true
        #else
        return false
        #endif
    }()

    /// The string of `bytes` (at most ``capacity``, valid UTF-8; `isASCII` whether all are ASCII).
    /// Only when ``isAvailable``.
    @inline(__always)
    @inlinable
    package static func make(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        // [unsafe: small-string] a `String` value is two words (checked by ``isAvailable`` with this very
        // layout before any use), written whole.
        let (low, high) = words(bytes, isASCII: isASCII)
        // Stored into an empty string rather than cast (`unsafeBitCast` hands back a borrowed value,
        // which the caller then retains: a call per string, for an object a small string has not).
        var string = ""
        withUnsafeMutableBytes(of: &string) { raw in
            raw.storeBytes(of: low, as: UInt64.self)
            raw.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
        }
        return string
    }

    /// The two words of the inline representation of `bytes`.
    @inline(__always)
    @usableFromInline static func words(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> (UInt64, UInt64) {
        // [unsafe: small-string] loads of 8 bytes when `count >= 8` (the last one at `count - 8`), of 4 when
        // `count >= 4`, single bytes below `count` otherwise; `count <= 15` (the callers check ``capacity``).
        let count = bytes.count
        let flags: UInt64 = (isASCII ? 0xE0 : 0xA0) | UInt64(truncatingIfNeeded: count)
        guard count > 0, let base = bytes.baseAddress else { return (0, flags &<< 56) }
        let raw = UnsafeRawPointer(base)
        var low: UInt64 = 0
        var high: UInt64 = 0
        if count >= 8 {
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            if count > 8 {
                // The last eight bytes, shifted down so that byte 8 comes first.
                let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
                high = tail &>> UInt64(truncatingIfNeeded: (16 &- count) &* 8)
            }
        } else if count >= 4 {
            let first = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let last = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            low = first | last &<< UInt64(truncatingIfNeeded: (count &- 4) &* 8)
        } else {
            low = UInt64(base[0]) | UInt64(base[count &>> 1]) &<< UInt64(truncatingIfNeeded: (count &>> 1) &* 8)
                | UInt64(base[count &- 1]) &<< UInt64(truncatingIfNeeded: (count &- 1) &* 8)
        }
        return (low, high | flags &<< 56)
    }

    /// The two words of a `String` value.
    @inline(__always)
    @inlinable
    package static func words(of string: String) -> (UInt64, UInt64) {
        // [unsafe: small-string] a `String` value is two words on the platforms where ``isAvailable`` is
        // true, the only ones that call this.
        unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    /// Whether the second word of a `String` value is that of a string kept inline (its flag nibble
    /// has the "small" bit): then its bytes are in the two words, and ``count(_:)`` says how many.
    /// Only when ``isAvailable``.
    @inline(__always)
    @inlinable
    package static func isSmall(_ high: UInt64) -> Bool { high & (1 &<< 61) != 0 }

    /// The UTF-8 count of a small string, from its second word.
    @inline(__always)
    @inlinable
    package static func count(_ high: UInt64) -> Int { Int(truncatingIfNeeded: (high &>> 56) & 0xF) }
}
