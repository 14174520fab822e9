import Foundation
import IMWireFuzzSupport
import IMWireTestSupport
import Testing

/// Replays every kept fuzz finding (Fixtures/fuzz-regressions/TARGET/*.bin, minimised by
/// Scripts/fuzz and named by content hash) and every fuzz seed through the fuzz targets' own
/// checks: decode, then the canonical fixed point and JSON/binary agreement, or a located error.
@Suite struct FuzzRegressionTests {
    struct Input: Sendable, CustomTestStringConvertible {
        let target: String
        let path: String
        var testDescription: String { "\(target): \((path as NSString).lastPathComponent)" }
    }

    static let checks: [String: @Sendable ([UInt8]) throws(Invariants.Violation) -> Void] = [
        "binary": FuzzChecks.binary,
        "json": FuzzChecks.json,
        "tim-rest": FuzzChecks.timREST,
        "validation": FuzzChecks.validation,
        "conformance": FuzzChecks.conformanceFrames,
        "utf8": FuzzChecks.utf8,
        "differential": FuzzChecks.differential,
    ]

    static func files(in relative: String, suffix: String) -> [String] {
        let directory = Fixtures.directory.appendingPathComponent(relative)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { directory.appendingPathComponent($0).path }
    }

    static let regressions: [Input] = checks.keys.sorted().flatMap { target in
        files(in: "fuzz-regressions/\(target)", suffix: ".bin").map { Input(target: target, path: $0) }
    }

    static let seeds: [Input] =
        (files(in: "valid", suffix: ".binpb") + files(in: "noncanonical", suffix: ".binpb") + files(in: "invalid", suffix: ".binpb"))
            .flatMap { [Input(target: "binary", path: $0), Input(target: "differential", path: $0)] }
        + files(in: "valid", suffix: ".json").flatMap { [Input(target: "json", path: $0), Input(target: "differential", path: $0)] }
        + files(in: "tim_rest", suffix: ".input.json").map { Input(target: "tim-rest", path: $0) }
        + files(in: "limits", suffix: ".binpb").map { Input(target: "validation", path: $0) }
        + files(in: "../Tests/Conformance/seeds", suffix: ".bin").map { Input(target: "conformance", path: $0) }

    @Test(arguments: regressions + seeds)
    func inputSatisfiesTheFuzzInvariants(_ input: Input) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input.path)))
        let check = try #require(Self.checks[input.target])
        do {
            try check(bytes)
        } catch {
            Issue.record("\(error)")
        }
    }
}
