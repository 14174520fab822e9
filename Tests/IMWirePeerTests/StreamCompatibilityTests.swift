// Streams against Google's Python runtime (upb), both ways:
//
//   Python's delimited stream (Fixtures/streams, `_VarintBytes(len) + SerializeToString()`) and its
//   NDJSON, read by Swift (sync and async)  ==  the golden fixtures' messages
//   Swift's delimited stream / NDJSON of random messages, read by Python (Scripts/gen_stream_fixtures.py
//   reencode-binary / reencode-json) and written back  ->  read by Swift  ==  the messages
//
// IMWIRE_PYTHON picks the interpreter (default: python3 on PATH, with google.protobuf and protoc:
// Scripts/install-deps). A missing Python fails these tests; it does not skip them.

import Foundation
import IMWire
import IMWireTestSupport
import Testing

@Suite struct StreamCompatibilityTests {
    static let streams = Fixtures.directory.appendingPathComponent("streams")

    /// The golden cases of Python's streams, in record order.
    static func pythonCases() throws -> [Fixtures.Case] {
        let names = String(decoding: Fixtures.read("streams/python.names"), as: UTF8.self).split(separator: "\n").map(String.init)
        let byName = Dictionary(uniqueKeysWithValues: Fixtures.all.map { ($0.name, $0) })
        return try names.map { name in try #require(byName[name], "no fixture \(name)") }
    }

    @Test func pythonsDelimitedStreamDecodesToTheFixtureMessages() async throws {
        let cases = try Self.pythonCases()
        #expect(cases.count > 150)
        let expected = try cases.map { try Message(serializedBytes: $0.bytes("binpb")) }
        let stream = Fixtures.read("streams/python.delimited.binpb")
        // Two- and three-byte prefixes are in there.
        #expect(expected.contains { (try? $0.serializedBytes().count) ?? 0 > 16 * 1024 })

        var decoded: [Message] = []
        var rest = stream[...]
        while let (message, count) = try LengthDelimited.read(from: rest) {
            decoded.append(message)
            rest = rest.dropFirst(count)
        }
        #expect(rest.isEmpty)
        #expect(decoded.count == expected.count)
        for (index, (got, want)) in zip(decoded, expected).enumerated() where got != want {
            Issue.record("record \(index) (\(cases[index].name)) differs")
        }

        let chunks = StreamSamples.Chunking.randomWithEmptyChunks.cut(stream)
        #expect(try await collect(Chunks(chunks).lengthDelimitedMessages()) == expected)
    }

    @Test func pythonsNDJSONDecodesToTheFixtureJSON() async throws {
        let cases = try Self.pythonCases()
        let stream = Fixtures.read("streams/python.ndjson")
        let decoded = try await collect(Chunks(StreamSamples.Chunking.randomSeeded.cut(stream)).jsonLinesMessages())
        #expect(decoded.count == cases.count)
        for (index, (message, fixture)) in zip(decoded, cases).enumerated() {
            let json = try message.jsonUTF8Bytes()
            #expect(json == fixture.bytes("json"), "record \(index) (\(fixture.name))")
        }
    }

    @Test func pythonReadsSwiftsDelimitedStream() throws {
        let messages = StreamSamples.messages(300, seed: 0xC0FFEE)
        let stream = try StreamSamples.delimited(messages)
        let back = try Self.runPython("reencode-binary", input: stream)
        // Python's canonical re-encoding is Swift's, byte for byte (unknown fields kept as read).
        #expect(back == stream)
        var decoded: [Message] = []
        var rest = back[...]
        while let (message, count) = try LengthDelimited.read(from: rest) {
            decoded.append(message)
            rest = rest.dropFirst(count)
        }
        #expect(rest.isEmpty)
        #expect(decoded.count == messages.count)
        for (index, (got, want)) in zip(decoded, messages).enumerated() where got != want {
            Issue.record("record \(index): Python's re-encoding decodes to another message")
        }
    }

    @Test func pythonReadsSwiftsNDJSON() throws {
        let messages = StreamSamples.messages(300, seed: 0xBEEF, json: true).map(CrossCheckBatch.canonicalNaNs)
        let stream = try StreamSamples.jsonLines(messages)
        let back = try Self.runPython("reencode-json", input: stream)
        var decoded: [Message] = []
        var rest = back[...]
        while let (message, count) = try LengthDelimited.read(from: rest) {
            decoded.append(message)
            rest = rest.dropFirst(count)
        }
        #expect(decoded.count == messages.count)
        for (index, (got, want)) in zip(decoded, messages).enumerated() where got != want {
            Issue.record("record \(index): Python reads Swift's JSON line as another message")
        }
    }

    /// Runs `gen_stream_fixtures.py MODE` with `input` on stdin and returns stdout.
    static func runPython(_ mode: String, input: [UInt8]) throws -> [UInt8] {
        try PythonPeer.run("gen_stream_fixtures.py", [mode], input: input)
    }
}
