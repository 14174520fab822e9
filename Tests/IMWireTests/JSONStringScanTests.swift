// The JSON string scanner reads eight bytes at a time up to the first quote, backslash or control
// character: every position of such a byte inside and across those words, after ASCII and after
// non-ASCII bytes, must give the same result as reading byte by byte would.

import IMWire
import Testing

@Suite struct JSONStringScanTests {
    /// `{"sender":"<prefix><special><suffix>"}` for a prefix of `length` bytes.
    static func input(prefix: [UInt8], special: [UInt8], suffix: [UInt8]) -> [UInt8] {
        Array(#"{"sender":""#.utf8) + prefix + special + suffix + Array(#""}"#.utf8)
    }

    static let prefixes: [(String, @Sendable (Int) -> [UInt8])] = [
        ("ascii", { n in Array(repeating: UInt8(ascii: "a"), count: n) }),
        // "é" is two bytes: a non-ASCII byte sits in the same word as the special byte.
        ("non-ascii", { n in Array(Array(repeating: "é", count: n).joined().utf8.prefix(n - n % 2)) + (n % 2 == 1 ? [UInt8(ascii: "b")] : []) }),
    ]

    @Test(arguments: 0..<26)
    func escapesAreFoundAtEveryPosition(length: Int) throws {
        for (_, make) in Self.prefixes {
            let prefix = make(length)
            let text = String(decoding: prefix, as: UTF8.self)
            for (escape, meaning) in [(#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), (#"\u00e9"#, "é")] {
                for suffix in ["", "xyz", "é12345678"] {
                    let bytes = Self.input(prefix: prefix, special: Array(escape.utf8), suffix: Array(suffix.utf8))
                    #expect(try Message(jsonUTF8Bytes: bytes).sender == text + meaning + suffix, "prefix \(length) \(escape) \(suffix)")
                }
            }
            // A string that ends right after the prefix.
            #expect(try Message(jsonUTF8Bytes: Self.input(prefix: prefix, special: [], suffix: [])).sender == text)
        }
    }

    @Test(arguments: 0..<26)
    func badBytesAreFoundAtEveryPosition(length: Int) throws {
        for (_, make) in Self.prefixes {
            let prefix = make(length)
            let start = #"{"sender":""#.utf8.count
            // A raw control character: a syntax error at its offset.
            for control: UInt8 in [0x00, 0x0A, 0x1F] {
                let bytes = Self.input(prefix: prefix, special: [control], suffix: Array("tail".utf8))
                #expect {
                    try Message(jsonUTF8Bytes: bytes)
                } throws: { error in
                    (error as? IMWireError)?.code == .jsonSyntax && (error as? IMWireError)?.offset == start + prefix.count
                }
            }
            // Invalid UTF-8 (a lone continuation byte, a byte that never occurs) after the prefix.
            for bad: [UInt8] in [[0x80], [0xFF], [0xC3]] {
                let bytes = Self.input(prefix: prefix, special: bad, suffix: Array("tail".utf8))
                #expect {
                    try Message(jsonUTF8Bytes: bytes)
                } throws: { error in
                    (error as? IMWireError)?.code == .invalidUTF8
                }
            }
            // 0x7F (DEL) and bytes above 0x80 that are valid UTF-8 are not special.
            let del = Self.input(prefix: prefix, special: [0x7F], suffix: Array("é".utf8))
            #expect(try Message(jsonUTF8Bytes: del).sender.utf8.count == prefix.count + 1 + 2)
        }
    }
}
