import Foundation

/// The text report of a run: a header, one line per failure and per warning, notes, a count per
/// level, and the closing line `N passed, N failed, N skipped`.
///
/// ```
/// imwire conformance: 2905 cases against `python3 Tests/Conformance/testees/python/testee.py`
/// FAIL Required.BinaryInput.unicode_nul.BinaryOutput: expected binary_payload 0a…, got …
/// WARN Recommended.BinaryInput.truncated_tag_top.ParseErrorCode: expected parse_error starting with "truncated:", got …
/// UNEXPECTED PASS Required.BinaryInput.utf8_byte_ff.ParseError (python.txt:12: upb accepts …): every matching test passes now; remove the entry
/// NOT RUN 120 cases: not run: the testee crashed, hung or broke the framing on 3 cases in a row (…)
/// expected failures: 37 (Tests/Conformance/expected-failures/python.txt)
/// Required: 1400 passed, 0 failed, 21 expected failures, 300 skipped
/// Recommended: 900 passed, 180 failed (warnings: --enforce-recommended makes them fail the run), 16 expected failures, 300 skipped
/// ran in 1.2 s
/// 1400 passed, 0 failed, 300 skipped
/// ```
///
/// Counting: every case is passed, failed, skipped, an expected failure (a failure the list names) or
/// a warning (a Recommended failure in a run that does not enforce them). The closing line counts
/// the enforced levels — Required, and Recommended with `--enforce-recommended` — and `failed`
/// there is what fails the run: unexpected failures, cases of an expected-failure entry that no
/// longer fails, and cases not run because the testee was given up on.
public enum ConformanceReport {
    /// The report of `results`, ending in a newline.
    public static func text(_ results: ConformanceResults) -> String {
        var lines = ["imwire conformance: \(results.results.count) cases against \(results.testee)"]
        for result in results.results where !result.notRun && result.listEntry == nil {
            let prefix: String
            switch result.status {
            case .failed: prefix = "FAIL"
            case .warning: prefix = "WARN"
            default: continue
            }
            var line = "\(prefix) \(result.name): \(result.detail)"
            if !result.stderr.isEmpty { line += " [testee stderr: \(stderrTail(result.stderr))]" }
            lines.append(line)
        }
        for pass in results.unexpectedPasses {
            let names = pass.passingTests
            let shown = names.count == 1 ? "" : ": \(names.prefix(3).joined(separator: ", "))\(names.count > 3 ? " and \(names.count - 3) more" : "")"
            lines.append("UNEXPECTED PASS \(pass.entry.pattern) (\(pass.entry.location): \(pass.entry.reason)): every matching test passes now (\(names.count)\(shown)); remove the entry")
        }
        let notRun = results.results.filter(\.notRun)
        if let first = notRun.first {
            lines.append("NOT RUN \(notRun.count) cases: \(first.detail)")
        }
        for entry in results.unusedEntries {
            lines.append("note: \(entry.location): \(entry.pattern) matches no test that ran")
        }
        for note in results.notes { lines.append("note: \(note)") }
        if let source = results.expectedFailureSource {
            lines.append("expected failures: \(results.expectedFailureCount) (\(source))")
        }
        for level in TestName.Level.allCases {
            let counts = results.counts(level)
            var failed = "\(counts.failed) failed"
            if level == .recommended && !results.enforceRecommended && counts.failed > 0 {
                failed += " (warnings: --enforce-recommended makes them fail the run)"
            }
            lines.append("\(level.rawValue): \(counts.passed) passed, \(failed), \(counts.expectedFailures) expected failures, \(counts.skipped) skipped")
        }
        lines.append("ran in \(ConformanceRunner.seconds(results.duration))")
        lines.append("\(results.passedCount) passed, \(results.failedCount) failed, \(results.skippedCount) skipped")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The last few hundred characters of stderr on one line.
    static func stderrTail(_ stderr: String) -> String {
        let trimmed = stderr.trimmingTrailingWhitespace()
        let tail = trimmed.count > 300 ? "…" + String(trimmed.suffix(300)) : trimmed
        return Shorten.text(tail.replacingNewlines(), limit: 320)
    }
}

/// A JUnit XML report for CI systems: one `<testsuite>` with one `<testcase>` per case
/// (`classname` = the level and input, `name` = the case and output). A failure carries the report
/// line in `<failure>`, a skip the testee's reason in `<skipped>`; an expected failure is a
/// `<skipped>` whose message starts with `expected failure`. The testee's stderr for a case goes
/// into `<system-err>`.
public enum JUnitReport {
    /// The JUnit XML document for `results`.
    public static func xml(_ results: ConformanceResults, suiteName: String = "imwire-conformance") -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let skipped = results.results.count { $0.status == .skipped || $0.status == .expectedFailure || $0.status == .warning }
        out += "<testsuites>\n"
        out += "  <testsuite name=\"\(escape(suiteName))\" tests=\"\(results.results.count)\" failures=\"\(results.failedCount)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(seconds(results.duration))\">\n"
        out += "    <properties><property name=\"testee\" value=\"\(escape(results.testee))\"/></properties>\n"
        for result in results.results {
            let parts = result.name.split(separator: ".", maxSplits: 2).map(String.init)
            let className = parts.count == 3 ? "\(parts[0]).\(parts[1])" : result.name
            let name = parts.count == 3 ? parts[2] : result.name
            out += "    <testcase classname=\"\(escape(className))\" name=\"\(escape(name))\" time=\"\(seconds(result.duration))\""
            var body = ""
            switch result.status {
            case .passed: break
            case .failed:
                body += "      <failure message=\"\(escape(Shorten.text(result.detail, limit: 300)))\">\(escape(result.detail))</failure>\n"
            case .skipped:
                body += "      <skipped message=\"\(escape(result.detail))\"/>\n"
            case .expectedFailure:
                body += "      <skipped message=\"\(escape("expected failure (\(result.listEntry ?? "")): \(Shorten.text(result.detail, limit: 300))"))\"/>\n"
            case .warning:
                body += "      <skipped message=\"\(escape("warning (Recommended, not enforced): \(Shorten.text(result.detail, limit: 300))"))\"/>\n"
            }
            if !result.stderr.isEmpty {
                body += "      <system-err>\(escape(result.stderr))</system-err>\n"
            }
            out += body.isEmpty ? "/>\n" : ">\n\(body)    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1_000_000)
        return "\(microseconds / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }

    /// XML-escapes text; characters XML 1.0 cannot carry at all become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    fileprivate func trimmingTrailingWhitespace() -> String {
        var scalars = Substring(self)
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    fileprivate func replacingNewlines() -> String {
        split(separator: "\n", omittingEmptySubsequences: true).joined(separator: " ⏎ ")
    }
}

extension JUnitReport {
    /// Writes ``xml(_:suiteName:)`` to `path`.
    public static func write(_ results: ConformanceResults, toFile path: String) throws(ConformanceSetupError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(xml(results).utf8)) else {
            throw ConformanceSetupError("cannot write the JUnit report to \(path)")
        }
    }
}
