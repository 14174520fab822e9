import IMWireCore

/// The bytes a JSON string must escape — a quote, a backslash, a control character — found eight at
/// a time. ``JSONTextWriter`` (under every format's writer) copies the runs between them as they
/// are; the JSON scanner skips to the end of a string with it.
@usableFromInline package enum JSONEscapeScan {
    /// Whether any of the eight bytes in `word` may be a quote, a backslash or a control character.
    /// No false negatives; a rare false positive only sends the caller to its byte-by-byte path.
    @inline(__always)
    @inlinable
    package static func mayNeedEscaping(_ word: UInt64) -> Bool {
        mask(word) != 0
    }

    /// The high bit of each byte of `word` (eight bytes, little-endian) that may be a quote, a
    /// backslash or a control character. The lowest set bit is exact — it marks the first such
    /// byte (a borrow can only mark bytes above a real one) — so `trailingZeroBitCount / 8` is its
    /// index.
    @inline(__always)
    @inlinable
    package static func mask(_ word: UInt64) -> UInt64 {
        let quotes = word ^ 0x2222_2222_2222_2222
        let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
        let special = (quotes &- 0x0101_0101_0101_0101) & ~quotes
            | (backslashes &- 0x0101_0101_0101_0101) & ~backslashes
            | (word &- 0x2020_2020_2020_2020) & ~word
        return special & 0x8080_8080_8080_8080
    }
}
