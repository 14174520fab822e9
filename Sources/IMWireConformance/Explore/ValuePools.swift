/// The values the generator draws from: the edges where implementations differ (varint and
/// fixed-width boundaries, the limits of a double's integers, signed zeros, NaN, subnormals,
/// non-ASCII text of every UTF-8 length, characters JSON must escape, canonically equivalent
/// spellings), mixed with plain random values.
enum ValuePools {
    static let uint64Edges: [UInt64] = [
        0, 1, 2, 127, 128, 255, 300, 16_383, 16_384, 1 << 21, 1 << 28,
        0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 1 << 32, (1 << 32) + 1,
        (1 << 53) - 1, 1 << 53, (1 << 53) + 1, 1_700_000_000_000, 10_000_000_000_000_000_000,
        UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max - 1, UInt64.max,
    ]

    static let uint32Edges: [UInt32] = [0, 1, 2, 127, 128, 16_383, 16_384, 1_000, 0x7FFF_FFFF, 0x8000_0000, UInt32.max - 1, UInt32.max]

    static let int32Edges: [Int32] = [0, 1, -1, 2, -2, 63, -64, 127, -128, 1_000, -1_000, Int32.max, Int32.min, Int32.max - 1, Int32.min + 1]

    static let doubleEdges: [Double] = [
        0, -0.0, 1, -1, 0.5, -1.5, 0.1, 1e-7, 123.456, 180, -180, 90, -90, 1e21, 1e22, 1e-300,
        9_007_199_254_740_992, 9_007_199_254_740_993.0, 4_294_967_295,
        Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, Double.leastNormalMagnitude,
        Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.ulpOfOne,
        .infinity, -.infinity, .nan,
    ]

    /// Enum numbers no schema enum names (open enums keep them).
    static let unknownEnumNumbers: [Int32] = [99, -1, 1_000, Int32.max, Int32.min, 7, 13]

    /// Whole strings at the edges.
    static let stringEdges: [String] = [
        "", "a", " ", "hello", "user_alice", "@all", "0", "-1", "null", "true", "NaN",
        "é", "e\u{301}", "中文", "漢字", "😀", "👨‍👩‍👧", "\u{10FFFF}", "\u{FFFF}", "\u{FFFE}", "\u{FEFF}x",
        "\u{0}", "a\u{0}b", "\u{1}\u{1F}", "\u{7F}\u{80}\u{9F}", "\u{2028}\u{2029}", "\"quoted\"", "back\\slash",
        "a/b", "</script>", "\n\r\t", "مرحبا", "שלום", "\u{202E}rtl", "𠀀", "Ω≈ç√", "ＡＢＣ",
    ]

    /// Unicode scalars by class, to compose random strings of every UTF-8 length.
    static let scalarClasses: [[ClosedRange<UInt32>]] = [
        [0x61...0x7A, 0x41...0x5A, 0x30...0x39],  // ASCII letters and digits
        [0x20...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E],  // ASCII punctuation: " \ / among them
        [0x00...0x1F, 0x7F...0x9F],  // control characters (C0, DEL, C1)
        [0xA0...0x24F, 0x300...0x36F, 0x370...0x3FF],  // Latin, combining marks, Greek
        [0x4E00...0x9FFF, 0xAC00...0xD7A3, 0x3040...0x30FF],  // CJK, Hangul, kana
        [0x1F300...0x1FAFF, 0x20000...0x2A6DF, 0x10000...0x1000F, 0x10FFF0...0x10FFFF],  // beyond the BMP
        [0x2000...0x206F, 0xFE00...0xFE0F, 0xFFF0...0xFFFF, 0xE000...0xE00F],  // spaces, joiners, specials, private use
    ]

    /// Keys for maps: distinct values that look alike.
    static let mapKeyEdges: [String] = ["", "k", "K", "key", "é", "e\u{301}", "a", "ab", "b", "中", "😀", "\u{0}", " ", "k\""]
}

extension ExploreRandom {
    mutating func uint64() -> UInt64 {
        switch below(3) {
        case 0: return pick(ValuePools.uint64Edges)
        case 1: return next() >> UInt64(below(64))
        default: return UInt64(below(1_000))
        }
    }

    mutating func uint32() -> UInt32 {
        switch below(3) {
        case 0: return pick(ValuePools.uint32Edges)
        case 1: return UInt32(truncatingIfNeeded: next() >> UInt64(32 + below(32)))
        default: return UInt32(below(1_000))
        }
    }

    mutating func int32() -> Int32 {
        switch below(3) {
        case 0: return pick(ValuePools.int32Edges)
        case 1: return Int32(truncatingIfNeeded: Int64(bitPattern: next()) >> Int64(32 + below(32)))
        default: return Int32(below(2_000)) - 1_000
        }
    }

    /// Any double; every NaN is the one quiet NaN (payloads are not part of a message's meaning here).
    mutating func double() -> Double {
        let value: Double
        switch below(4) {
        case 0, 1: value = pick(ValuePools.doubleEdges)
        case 2: value = Double(bitPattern: next())
        default: value = Double(int(in: -100_000...100_000)) / Double(pick([1, 10, 100, 1_000, 8]))
        }
        return value.isNaN ? .nan : value
    }

    /// A valid UTF-8 string: an edge, or scalars drawn from one or more classes.
    mutating func text(long: Bool = false) -> [UInt8] {
        if !long, chance(35) { return Array(pick(ValuePools.stringEdges).utf8) }
        let length = long ? int(in: 200...5_000) : int(in: 0...16)
        let classes = ValuePools.scalarClasses
        let mixed = chance(50)
        var chosen = below(classes.count)
        var string = String.UnicodeScalarView()
        for _ in 0..<length {
            if mixed { chosen = below(classes.count) }
            let range = pick(classes[chosen])
            if let scalar = Unicode.Scalar(range.lowerBound + UInt32(below(Int(range.upperBound - range.lowerBound) + 1))) {
                string.append(scalar)
            }
        }
        return Array(String(string).utf8)
    }

    /// Bytes: empty, text, or random.
    mutating func bytes() -> [UInt8] {
        switch below(4) {
        case 0: return []
        case 1: return text()
        case 2: return (0..<int(in: 1...40)).map { _ in UInt8(truncatingIfNeeded: next()) }
        default: return (0..<int(in: 1...4)).map { _ in pick([0x00, 0xFF, 0x80, 0xFE, 0xC0]) }
        }
    }
}
