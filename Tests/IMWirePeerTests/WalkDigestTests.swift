import Foundation
import IMWire
import IMWireTestSupport
import Testing

// The benchmarks' walks (Benchmarks/Sources/BenchSupport/Walk+IMWire.swift and Walk+IMWireView.swift,
// compiled here through the symbolic links in Walks/) against the same digest computed by Google's
// Python runtime from the schema's descriptors (Scripts/walk_digest.py): every field of every message
// type, so a field added to the schema and not to a walk fails here, in `Scripts/test`, and not only
// in a benchmark run. The inputs are the golden fixtures and generated messages; the Python side says
// which fields no input set to a value the digest sees, and the test asks for none, so a walk that
// skipped any field would disagree on some input.
@Suite struct WalkDigestTests {
    struct Input {
        let name: String
        let bytes: [UInt8]
    }

    static func inputs() throws -> [Input] {
        let valid = Fixtures.directory.appendingPathComponent("valid")
        let names = try FileManager.default.contentsOfDirectory(atPath: valid.path)
            .filter { $0.hasSuffix(".binpb") }.sorted()
        var inputs = names.map { Input(name: "Fixtures/valid/\($0)", bytes: Fixtures.read("valid/\($0)")) }
        let seed = ProcessInfo.processInfo.environment["IMWIRE_WALK_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        for index in 0..<PropertyIterations.count(default: 200) {
            var generator = ModelGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15,
                                           options: MessageGenerationOptions.full.withoutUnknownFields())
            inputs.append(Input(name: "generated message \(index) of seed \(seed)",
                                bytes: try generator.message().serializedBytes()))
        }
        return inputs
    }

    @Test func theWalksComputeTheDigestPythonComputes() throws {
        let inputs = try Self.inputs()
        let request = inputs.map { Data($0.bytes).base64EncodedString() + "\n" }.joined()
        let output = String(decoding: try PythonPeer.run("walk_digest.py", input: Array(request.utf8)), as: UTF8.self)
        let lines = output.split(separator: "\n").map(String.init)
        try #require(lines.count == inputs.count + 1, "walk_digest.py answered \(lines.count) lines for \(inputs.count) inputs")
        var compared = 0
        for (input, line) in zip(inputs, lines) {
            // upb refuses nesting beyond 100 levels (one fixture); nothing else may be refused.
            if line.hasPrefix("error\t") {
                #expect(input.name.contains("nested_100"), "Python refused \(input.name): \(line)")
                continue
            }
            let expected = try #require(UInt64(line), "\(input.name): not a digest: \(line)")
            let owned = IMWireWalk.message(try Message(serializedBytes: input.bytes))
            let viewed = try Message.withView(serializedBytes: input.bytes) { IMWireViewWalk.message($0) }
            #expect(owned == expected, "\(input.name): the walk of the decoded Message gives \(owned), Python \(expected)")
            #expect(viewed == expected, "\(input.name): the walk of the view gives \(viewed), Python \(expected)")
            compared += 1
        }
        #expect(compared >= inputs.count - 1)
        let uncovered = lines.last ?? ""
        #expect(uncovered == "uncovered\t-", "fields no input sets to a value the digest sees: \(uncovered)")
    }
}
