import IMWire
import IMWireTestSupport
import Testing

/// The strings of up to 15 bytes the decoders and the binary writer handle in the two words of a
/// `String` (``SmallString``) are exactly the standard library's: the same value, the same bytes, the
/// same hash, whatever the length and the script.
@Suite struct SmallStringTests {
    /// Valid UTF-8 of every length up to `SmallString.capacity`, ASCII and not: prefixes of texts in
    /// several scripts, cut at scalar boundaries.
    static let samples: [[UInt8]] = {
        let texts = ["abcdefghijklmnopqrstuvwxyz", "好的收到明天见", "éèêëàâçôûü", "🍜🎉👍😂", "a好é🍜b好é🍜", "\u{0}\u{1}\t\n\u{7F}"]
        var out: Set<[UInt8]> = []
        for text in texts {
            var prefix: [UInt8] = []
            out.insert(prefix)
            for scalar in text.unicodeScalars {
                prefix += Array(String(scalar).utf8)
                if prefix.count <= SmallString.capacity { out.insert(prefix) }
            }
        }
        return out.sorted { $0.lexicographicallyPrecedes($1) }
    }()

    @Test func theFastPathIsTakenOnThisPlatform() {
        #if _endian(little) && _pointerBitWidth(_64)
        #expect(SmallString.isAvailable, "the two-word layout check failed: every string takes the standard path")
        #endif
        #expect(Self.samples.count > 40)
        #expect(Set(Self.samples.map(\.count)) == Set(0...SmallString.capacity))
    }

    @Test func builtStringsAreTheStandardLibrarysStrings() throws {
        try #require(SmallString.isAvailable)
        for bytes in Self.samples {
            let isASCII = bytes.allSatisfy { $0 < 0x80 }
            let built = bytes.withUnsafeBufferPointer { SmallString.make($0, isASCII: isASCII) }
            let standard = String(decoding: bytes, as: UTF8.self)
            #expect(built == standard)
            #expect(Array(built.utf8) == bytes)
            #expect(built.hashValue == standard.hashValue)
            #expect(built.count == standard.count)
            #expect(Array(built.unicodeScalars) == Array(standard.unicodeScalars))
            #expect((built + "!") == (standard + "!"))
        }
    }

    @Test func decodingAndEncodingGoThroughTheSameBytes() throws {
        for bytes in Self.samples + [Array("sixteen bytes!!!".utf8), Array("more than sixteen bytes".utf8)] {
            let text = String(decoding: bytes, as: UTF8.self)
            let message = Message(msgID: text, sender: text, elems: [.text(text)])
            let encoded = try message.serializedBytes()
            // Field 1, then field 2: a tag, the length, the bytes (canonical; lengths under 128).
            let prefix: [UInt8] = bytes.isEmpty ? [] : [0x0A, UInt8(bytes.count)] + bytes + [0x12, UInt8(bytes.count)] + bytes
            #expect(Array(encoded.prefix(prefix.count)) == prefix)
            let decoded = try Message(serializedBytes: encoded)
            #expect(decoded == message)
            #expect(Array(decoded.msgID.utf8) == bytes)
            let fromJSON = try Message(jsonUTF8Bytes: message.jsonUTF8Bytes())
            #expect(fromJSON == message)
        }
    }
}
