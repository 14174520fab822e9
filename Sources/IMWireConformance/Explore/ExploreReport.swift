/// The text report of a generative run:
///
/// ```
/// imwire conformance --explore: seed 0x2a, 10000 cases against `…/imwire-testee-java`
/// REQUIRED DISAGREEMENT 1 of 2: Required.BinaryInput.explore_valid.BinaryOutput (3 more cases like it)
///   first seen in case 17 (its seed 0x…: --seed 0x… --count 1 makes it again); shrunk from 212 to 13 bytes (41 requests, 19 steps)
///   uses: varint padded to 10 bytes
///   input: binary_payload (13 bytes)
///     38 81 80 80 80 80 80 80 80 80 00          # seq (7)
///   expected: binary_payload 3801 (2 bytes)
///   got: binary_payload 388180… 
///   detail: …
///   ready to commit (Fixtures/sources/noncanonical_binary.json):
///     { … }
/// WARN Recommended.BinaryInput.explore_valid.CanonicalBinaryOutput: 312 cases, e.g. expected …
/// EXPECTED list.txt:7: 40 checks, Required.JsonInput.explore_json_number_hex.ParseError as Required.JsonInput.n_number_hex.ParseError (reason)
/// Required: 9998 cases passed or skipped, 2 failed (2 findings)
/// ran 10000 cases in 3.2 s (3100 cases/s; shrinking 0.4 s)
/// ```
public enum ExploreReport {
    /// The report of `results`, ending in a newline.
    public static func text(_ results: ExploreResults) -> String {
        var lines = ["imwire conformance --explore: seed \(Explorer.hex(results.seed)), \(results.cases) cases against \(results.testee)"]
        let level = results.enforceRecommended ? "DISAGREEMENT" : "REQUIRED DISAGREEMENT"
        for (index, finding) in results.findings.enumerated() {
            let more = finding.repeats > 0 ? " (\(finding.repeats) more case\(finding.repeats == 1 ? "" : "s") like it)" : ""
            lines.append("\(level) \(index + 1) of \(results.findings.count): \(finding.name)\(more)")
            let seed = Explorer.hex(finding.caseSeed)
            lines.append("  first seen in case \(finding.caseIndex) (its seed \(seed): --seed \(seed) --count 1 makes it again); shrunk from \(finding.originalSize) to \(finding.payload.count) bytes (\(finding.attempts) requests, \(finding.steps) steps)")
            if !finding.features.isEmpty { lines.append("  uses: \(finding.features.joined(separator: ", "))") }
            lines.append("  input: \(inputDescription(finding))")
            if finding.input == .binary {
                for part in finding.parts {
                    let hex = finding.payload[part.range].map { FixtureSource.hexByte($0) }.joined(separator: " ")
                    lines.append("    \(hex)  # \(part.label)")
                }
            }
            lines.append("  expected: \(finding.expected)")
            lines.append("  got: \(finding.actual)")
            lines.append("  detail: \(finding.detail)")
            lines.append("  ready to commit (\(finding.fixtureFile)):")
            lines += finding.fixtureSource.split(separator: "\n").map { "    " + $0 }
        }
        if results.unshrunk > 0 {
            lines.append("\(results.unshrunk) more disagreeing cases not shrunk (a run shrinks at most \(results.maxFindings) findings, \(Explorer.maxFindingsPerCheck) per check)")
        }
        for (name, count) in results.recommended.sorted(by: { $0.key < $1.key }) where !results.enforceRecommended {
            lines.append("WARN \(name): \(count.count) case\(count.count == 1 ? "" : "s"), e.g. \(count.example.detail)")
        }
        if let list = results.expectedFailures {
            for (entry, count) in results.expected.sorted(by: { $0.key < $1.key }) {
                let listed = list.entries[entry]
                let name = count.example.name
                let via = count.matchedAs == name ? "" : " as \(count.matchedAs)"
                let example = listed.pattern.hasWildcard ? "e.g. " : ""
                lines.append("EXPECTED \(listed.location): \(count.count) check\(count.count == 1 ? "" : "s"), \(example)\(name)\(via) (\(listed.reason))")
            }
        }
        if let abandoned = results.abandoned { lines.append("STOPPED: \(abandoned)") }
        for (reason, count) in results.skipReasons.sorted(by: { $0.value > $1.value }).prefix(5) {
            lines.append("skipped: \(count) case\(count == 1 ? "" : "s"): \(Shorten.text(reason, limit: 120))")
        }
        let classes = results.classes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        lines.append("classes: \(classes.joined(separator: ", "))")
        let seconds = Double(results.duration.components.seconds) + Double(results.duration.components.attoseconds) * 1e-18
        let rate = seconds > 0 ? Int(Double(results.cases) / seconds) : results.cases
        lines.append("ran \(results.cases) cases in \(ConformanceRunner.seconds(results.duration)) (\(rate) cases/s; shrinking \(ConformanceRunner.seconds(results.shrinkDuration)))")
        let warnings = results.recommended.values.reduce(0) { $0 + $1.count }
        let expected = results.expectedFailures.map { ", \(results.expectedCases) expected (\($0.source))" } ?? ""
        lines.append("\(results.passed) passed, \(results.failedCases) failed (\(results.findings.count) findings)\(expected), \(results.skipped) skipped, \(results.enforceRecommended ? 0 : warnings) Recommended warnings")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func inputDescription(_ finding: ExploreFinding) -> String {
        let options = finding.ignoreUnknownFields ? ", json_ignore_unknown_fields" : ""
        let asked = "asked for \(finding.output)"
        switch finding.input {
        case .binary: return "binary_payload (\(finding.payload.count) bytes), \(asked)"
        case .json: return "json_payload \(Shorten.text(finding.payload, limit: 400))\(options), \(asked)"
        case .timRest: return "tim_rest_payload \(Shorten.text(finding.payload, limit: 400)), \(asked)"
        }
    }
}
