// The JSON corpus (Fixtures/json/, made by Scripts/fixtures_json_corpus.py from
// Fixtures/sources/json_corpus.json with Python's json_format): `y_` inputs the decoder must accept,
// each with the canonical JSON and binary it must give, and `n_` inputs it must reject with a given
// error code and a byte offset inside the input.

import Foundation
import IMWire
import IMWireTestSupport
import Testing

/// The corpus cases of Fixtures/manifest.json (kinds `json_accept` and `json_reject`).
enum JSONCorpus {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: String
        let description: String
        let inputPath: String
        let jsonPath: String?
        let binpbPath: String?
        let error: String?
        let ignoreUnknownFields: Bool

        var testDescription: String { name }
        var input: [UInt8] { Fixtures.read(inputPath) }
        var options: JSONDecodingOptions { JSONDecodingOptions(ignoreUnknownFields: ignoreUnknownFields) }
    }

    static let all: [Case] = {
        let data = try! Data(contentsOf: Fixtures.directory.appendingPathComponent("manifest.json"))
        let root = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["cases"] as! [[String: Any]]).compactMap { entry in
            let kind = entry["kind"] as! String
            guard kind == "json_accept" || kind == "json_reject" else { return nil }
            let options = entry["options"] as? [String: Any] ?? [:]
            return Case(
                name: entry["name"] as! String,
                kind: kind,
                description: entry["description"] as? String ?? "",
                inputPath: entry["input"] as! String,
                jsonPath: entry["json"] as? String,
                binpbPath: entry["binpb"] as? String,
                error: entry["error"] as? String,
                ignoreUnknownFields: options["ignore_unknown_fields"] as? Bool ?? false)
        }
    }()

    static let accept = all.filter { $0.kind == "json_accept" }
    static let reject = all.filter { $0.kind == "json_reject" }

    /// Cases where the Swift decoder and the corpus (the spec as the corpus reads it) still disagree,
    /// with the reason. Each runs as a known issue, so fixing the decoder makes the test report
    /// "known issue was not recorded": then delete the entry.
    static let knownDisagreements: [String: String] = [:]
}

@Suite struct JSONCorpusTests {
    @Test func corpusIsLoaded() {
        // Guards against a manifest without the corpus (the parameterised tests would run zero cases).
        #expect(JSONCorpus.accept.count >= 60)
        #expect(JSONCorpus.reject.count >= 150)
        for name in JSONCorpus.knownDisagreements.keys {
            #expect(JSONCorpus.all.contains { $0.name == name }, "known disagreement \(name) is not in the corpus")
        }
    }

    @Test(arguments: JSONCorpus.accept)
    func acceptedInputGivesTheCanonicalJSONAndBinary(_ corpusCase: JSONCorpus.Case) throws {
        try Self.checking(corpusCase) {
            let input = corpusCase.input
            let message = try Message(jsonUTF8Bytes: input, options: corpusCase.options)
            let json = try message.jsonUTF8Bytes()
            let expectedJSON = Fixtures.read(corpusCase.jsonPath!)
            #expect(
                json == expectedJSON,
                "JSON \(String(decoding: json, as: UTF8.self))\nwant \(String(decoding: expectedJSON, as: UTF8.self))")
            let binary = try message.serializedBytes()
            let expectedBinary = Fixtures.read(corpusCase.binpbPath!)
            #expect(binary == expectedBinary, "binary \(hex(binary))\nwant   \(hex(expectedBinary))")
            // The same through the String entry point, and the canonical forms mean the same message.
            #expect(try Message(jsonString: String(decoding: input, as: UTF8.self), options: corpusCase.options) == message)
            #expect(try Message(serializedBytes: expectedBinary) == message)
            #expect(try Message(jsonUTF8Bytes: expectedJSON) == message)
        }
    }

    @Test(arguments: JSONCorpus.reject)
    func rejectedInputFailsWithItsErrorCodeAndAnOffset(_ corpusCase: JSONCorpus.Case) throws {
        try Self.checking(corpusCase) {
            let input = corpusCase.input
            Self.expectRejection(corpusCase, input: input) { () throws(IMWireError) in
                try Message(jsonUTF8Bytes: input, options: corpusCase.options)
            }
            // The String entry point must agree (only for UTF-8 input: a String cannot hold anything else).
            if let text = String(validating: input, as: UTF8.self) {
                Self.expectRejection(corpusCase, input: input) { () throws(IMWireError) in
                    try Message(jsonString: text, options: corpusCase.options)
                }
            }
        }
    }

    private static func expectRejection(
        _ corpusCase: JSONCorpus.Case, input: [UInt8], _ decode: () throws(IMWireError) -> Message
    ) {
        do {
            let message = try decode()
            let json = (try? message.jsonString()) ?? "?"
            Issue.record("accepted, giving \(json); want error \(corpusCase.error!)")
        } catch {
            #expect(error.code.name == corpusCase.error, "\(error)")
            if let offset = error.offset {
                #expect((0...input.count).contains(offset), "offset \(offset) outside the \(input.count)-byte input: \(error)")
            } else {
                Issue.record("error without a byte offset: \(error)")
            }
        }
    }

    /// Runs `body`, as a known issue if the case is listed in ``JSONCorpus/knownDisagreements``.
    private static func checking(_ corpusCase: JSONCorpus.Case, _ body: () throws -> Void) throws {
        if let reason = JSONCorpus.knownDisagreements[corpusCase.name] {
            withKnownIssue(Comment(rawValue: reason)) { try body() }
        } else {
            try body()
        }
    }
}
