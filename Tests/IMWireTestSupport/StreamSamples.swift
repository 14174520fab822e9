import IMWire
import Testing

// Streams of messages for the stream tests of every target (the library's, the CLI's, Python's):
// random messages, their length-delimited and NDJSON streams, ways to cut a stream into chunks.

/// Random messages and their streams.
package enum StreamSamples {
    /// `count` random messages (every field, unknown fields at every level unless `json`, where they
    /// have no form).
    package static func messages(_ count: Int, seed: UInt64 = 0x5EED, json: Bool = false) -> [Message] {
        let options = json ? MessageGenerationOptions.full.jsonExact() : .full
        return (0..<count).map { index in
            var generator = ModelGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15, options: options)
            return generator.message()
        }
    }

    package static func delimited(_ messages: [Message]) throws -> [UInt8] {
        var stream: [UInt8] = []
        for message in messages { try LengthDelimited.append(message, to: &stream) }
        return stream
    }

    package static func jsonLines(_ messages: [Message]) throws -> [UInt8] {
        var stream: [UInt8] = []
        for message in messages { try JSONLines.append(message, to: &stream) }
        return stream
    }

    /// Ways to cut a stream into chunks.
    package enum Chunking: String, CaseIterable, CustomTestStringConvertible {
        case whole, oneByte, randomSeeded, randomWithEmptyChunks
        package var testDescription: String { rawValue }

        package func cut(_ bytes: [UInt8]) -> [[UInt8]] {
            switch self {
            case .whole:
                return [bytes]
            case .oneByte:
                return bytes.map { [$0] }
            case .randomSeeded, .randomWithEmptyChunks:
                var rng = TestRandom(seed: 42)
                var chunks: [[UInt8]] = []
                var at = 0
                while at < bytes.count {
                    if self == .randomWithEmptyChunks, rng.chance(0.3) { chunks.append([]) }
                    let size = rng.chance(0.5) ? rng.int(1...4) : rng.int(1...700)
                    chunks.append(Array(bytes[at..<min(bytes.count, at + size)]))
                    at += size
                }
                if self == .randomWithEmptyChunks { chunks.append([]) }
                return chunks
            }
        }
    }
}

/// An async sequence of the given chunks; throws `failure` after the last one, if given.
package struct Chunks<Chunk: Collection<UInt8> & Sendable>: AsyncSequence, Sendable {
    package let chunks: [Chunk]
    package var failure: (any Error & Sendable)?

    package init(_ chunks: [Chunk], failure: (any Error & Sendable)? = nil) {
        self.chunks = chunks
        self.failure = failure
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: [Chunk]
        let failure: (any Error & Sendable)?
        var index = 0

        package mutating func next() async throws -> Chunk? {
            guard index < chunks.count else {
                if let failure { throw failure }
                return nil
            }
            index += 1
            return chunks[index - 1]
        }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks, failure: failure) }
}

package func collect<S: AsyncSequence>(_ sequence: S) async throws -> [Message] where S.Element == Message {
    try await collectAll(sequence)
}

package func collectAll<S: AsyncSequence>(_ sequence: S) async throws -> [S.Element] {
    var elements: [S.Element] = []
    for try await element in sequence { elements.append(element) }
    return elements
}
