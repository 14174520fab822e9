import Foundation
@testable import IMWireWebhooks
import Testing

/// The module's SHA-256 against Python's hashlib (Fixtures/webhooks/sha256.json, written by
/// Scripts/gen_webhook_fixtures.py, which also checks hashlib against NIST's published examples):
/// every length from 0 to 300 bytes, so every way the padding falls (55 bytes and fewer fit the
/// last block, 56 to 63 need one more, 64 fills it), whole and fed in pieces.
struct SHA256Tests {
    struct Fixtures: Decodable {
        struct Generated: Decodable, Sendable, CustomTestStringConvertible {
            var length: Int
            var sha256: String
            /// The message the script hashed: byte i is (131 i + 7 n) mod 256.
            var message: [UInt8] { (0..<length).map { UInt8((131 * $0 + 7 * length) % 256) } }
            var testDescription: String { "\(length) bytes" }
        }
        struct Text: Decodable, Sendable, CustomTestStringConvertible {
            var text: String
            var `repeat`: Int
            var sha256: String
            var testDescription: String { "\"\(text.prefix(8))\" × \(self.repeat)" }
        }
        var generated: [Generated]
        var texts: [Text]

        static func read() throws -> Fixtures {
            try JSONDecoder().decode(Fixtures.self, from: Data(WebhookFixtures.read("sha256.json")))
        }
    }

    static func hex(_ digest: [UInt8]) -> String {
        digest.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    @Test func theFixturesCoverEveryPaddingCase() throws {
        let lengths = Set(try Fixtures.read().generated.map(\.length))
        #expect(lengths == Set(0...300))
    }

    @Test(arguments: try Fixtures.read().generated)
    func aMessageHashedWholeIsWhatHashlibComputes(_ fixture: Fixtures.Generated) {
        var hash = SHA256()
        hash.update(fixture.message)
        #expect(Self.hex(hash.finalize()) == fixture.sha256)
    }

    /// The same messages given in pieces that start and end anywhere in a block.
    @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 129])
    func aMessageHashedInPiecesIsWhatHashlibComputes(pieceSize: Int) throws {
        for fixture in try Fixtures.read().generated {
            let message = fixture.message
            var hash = SHA256()
            var start = 0
            while start < message.count {
                let end = min(start + pieceSize, message.count)
                hash.update(message[start..<end])
                start = end
            }
            #expect(Self.hex(hash.finalize()) == fixture.sha256, "\(fixture.length) bytes in pieces of \(pieceSize)")
        }
    }

    @Test(arguments: try Fixtures.read().texts)
    func nistsExamplesGiveThePublishedDigests(_ fixture: Fixtures.Text) {
        var hash = SHA256()
        for _ in 0..<fixture.repeat { hash.update(fixture.text.utf8) }
        #expect(Self.hex(hash.finalize()) == fixture.sha256)
    }
}
