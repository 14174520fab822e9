// Streams are read in time linear in their length whatever the chunking: many records, one long
// record, one long line, many blank lines, each in 1-byte chunks too (where rescanning what is
// buffered, or moving it on every chunk, would be quadratic).
//
// Timing as in TIMRESTHostileInputTests: no absolute bounds. Each shape is measured at size N and
// 8N (see `growthRatio`); linear is about 8×, quadratic about 64×; the bound is `growthBound` (24×).

import IMWire
import IMWireTestSupport
import Testing

@Suite(.serialized) struct StreamLinearTimeTests {
    static let bound = growthBound

    /// `n` small messages, length-delimited.
    static func delimited(records n: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<n { try! LengthDelimited.append(Message(msgID: "m\(index)", sender: "alice", elems: [.text("hello")]), to: &bytes) }
        return bytes
    }

    /// `n` small messages, one per line.
    static func jsonLines(records n: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<n { try! JSONLines.append(Message(msgID: "m\(index)", sender: "alice", elems: [.text("hello")]), to: &bytes) }
        return bytes
    }

    /// One record of about `n` bytes.
    static func oneRecord(bytes n: Int) -> Message {
        Message(sender: "alice", elems: [.text(String(repeating: "x", count: n))])
    }

    /// Input shapes of size `n` (records or bytes) and how many records each holds.
    static let shapes: [String: @Sendable (Int) -> (bytes: [UInt8], binary: Bool)] = [
        "binary records": { n in (delimited(records: n), true) },
        "one binary record": { n in (try! StreamSamples.delimited([oneRecord(bytes: n)]), true) },
        "json lines": { n in (jsonLines(records: n), false) },
        "one long json line": { n in (try! StreamSamples.jsonLines([oneRecord(bytes: n)]), false) },
        "blank lines": { n in (Array(String(repeating: " \r\n\n", count: n).utf8) + Array("{}\n".utf8), false) },
    ]

    /// Units of the small size: records for the many-record shapes, bytes (or lines) otherwise.
    static func units(_ shape: String) -> Int {
        shape.hasPrefix("one") ? 20_000 : shape == "blank lines" ? 5_000 : 250
    }

    @Test(.timed, arguments: shapes.keys.sorted())
    func asyncReadingInOneByteChunksIsLinear(_ shape: String) async throws {
        let make = Self.shapes[shape]!
        let n = Self.units(shape)
        let (small, binary) = make(n)
        let (large, _) = make(8 * n)
        let smallChunks = small.map { [$0] }
        let largeChunks = large.map { [$0] }
        @Sendable func read(_ chunks: [[UInt8]]) async -> Int {
            let sequence = Chunks(chunks)
            return binary
                ? ((try? await collect(sequence.lengthDelimitedMessages()))?.count ?? -1)
                : ((try? await collect(sequence.jsonLinesMessages()))?.count ?? -1)
        }
        // Both read completely.
        #expect(await read(smallChunks) > 0)
        #expect(await read(largeChunks) > 0)
        let ratio = await asyncGrowthRatio(bound: Self.bound) { _ = await read(smallChunks) } large: { _ = await read(largeChunks) }
        #expect(ratio < Self.bound, "\(shape): 8× the input took \(ratio)× the time")
    }

    @Test(.timed, arguments: ["binary records", "json lines", "blank lines"])
    func syncReadingIsLinear(_ shape: String) throws {
        let make = Self.shapes[shape]!
        let n = Self.units(shape) * 16
        let (small, binary) = make(n)
        let (large, _) = make(8 * n)
        func read(_ bytes: [UInt8]) -> Int {
            var rest = bytes[...]
            var count = 0
            while let (_, used) = binary ? try! LengthDelimited.read(from: rest) : try! JSONLines.read(from: rest) {
                rest = rest.dropFirst(used)
                count += 1
            }
            return count
        }
        #expect(read(small) > 0)
        let ratio = growthRatio(bound: Self.bound) { _ = read(small) } large: { _ = read(large) }
        #expect(ratio < Self.bound, "\(shape): 8× the input took \(ratio)× the time")
    }
}
