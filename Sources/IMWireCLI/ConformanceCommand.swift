import ArgumentParser
import IMWireConformance

/// `imwire conformance`: runs the conformance suite derived from the golden fixtures against a
/// testee (README "Test your implementation", Docs/conformance.md).
struct ConformanceCommand: IMWireSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the conformance suite against a testee (the built-in Swift codec by default).",
        discussion: """
            Prints one line per failure (FAIL) and per Recommended failure (WARN), the counts of each level, \
            then `N passed, N failed, N skipped` for the levels that are enforced: Required, and Recommended \
            with --enforce-recommended. Exit status: 0 when nothing enforced failed unexpectedly, 1 on any \
            unexpected failure or on an expected failure that now passes, 2 on a usage error (unreadable \
            fixtures, a malformed expected-failure file). The fixtures this binary was built with are used \
            unless --fixtures names a directory. Docs/conformance.md is the guide for implementers.

            With --explore it makes cases from the schema instead (valid messages written every way proto3 \
            allows, and corrupted ones), judges the answers by the same level rules, shrinks each Required \
            disagreement to a small case and prints it with the seed that makes it again and as a \
            Fixtures/sources entry. With --expected-failures, a disagreement the list names (by the generated \
            test's name, or by the golden case the generated case generalises at the same check) is counted as \
            expected and not shrunk. Exit status 1 on a Required disagreement the list does not name.
            """
    )

    @Option(help: ArgumentHelp(
        "Shell command line of the testee (run with /bin/sh -c); it speaks the framed protocol on stdin/stdout.",
        valueName: "CMD"))
    var testee: String?

    @Option(help: ArgumentHelp(
        "Fixtures directory holding manifest.json (default: the fixtures built into this binary).",
        valueName: "DIR"))
    var fixtures: String?

    @Flag(help: "Fail the run on Recommended failures too (by default they are printed as warnings).")
    var enforceRecommended = false

    @Option(help: ArgumentHelp("The testee's expected failures: `PATTERN  # reason` per line (`?PATTERN` may also pass).", valueName: "FILE"))
    var expectedFailures: String?

    @Option(help: ArgumentHelp("Also write a JUnit XML report to FILE.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp(
        "Run only tests matching PATTERN (`*` = one dot-separated segment; fewer segments match as a prefix). Repeatable.",
        valueName: "PATTERN"))
    var filter: [String] = []

    @Option(help: ArgumentHelp("Seconds one case may take before the testee counts as hung.", valueName: "SECONDS"))
    var timeout: Double = 10

    @Flag(help: "Generative mode: make cases from the schema, judge them like the golden ones, shrink each Required disagreement.")
    var explore = false

    @Option(help: ArgumentHelp(
        "--explore: the seed of the first case, decimal or 0x-hex (default: a random seed, printed in the report).",
        valueName: "SEED"))
    var seed: String?

    @Option(help: ArgumentHelp("--explore: how many cases to make (default 10000; no limit when only --time is given).", valueName: "N"))
    var count: Int?

    @Option(help: ArgumentHelp("--explore: stop making cases after SECONDS (shrinking included).", valueName: "SECONDS"))
    var time: Double?

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
        if explore {
            for (name, used) in [("--junit", junit != nil), ("--filter", !filter.isEmpty)] where used {
                throw ValidationError("\(name) applies to the golden cases, not to --explore")
            }
            if let count, count < 1 { throw ValidationError("--count must be at least 1") }
            if let time, !(time > 0 && time.isFinite) { throw ValidationError("--time must be a positive number of seconds") }
            if let seed, Self.parseSeed(seed) == nil { throw ValidationError("--seed must be a 64-bit number, decimal or 0x-hex (got \"\(seed)\")") }
        } else {
            for (name, used) in [("--seed", seed != nil), ("--count", count != nil), ("--time", time != nil)] where used {
                throw ValidationError("\(name) applies to --explore only")
            }
        }
    }

    static func parseSeed(_ text: String) -> UInt64? {
        let lowered = text.lowercased()
        return lowered.hasPrefix("0x") ? UInt64(lowered.dropFirst(2), radix: 16) : UInt64(lowered)
    }

    func execute(input: CLIInput, output: inout CLIOutput) throws {
        if explore { return try executeExplore(output: &output) }
        let results: ConformanceResults
        do {
            let manifest = try fixtures.map { (directory) throws(ConformanceSetupError) in
                try FixtureManifest.load(directory: directory)
            } ?? FixtureManifest.embedded()
            let suite = try ConformanceSuite.derive(from: manifest)
            var runner = ConformanceRunner(
                cases: suite.cases,
                expectedFailures: try expectedFailures.map { (path) throws(ConformanceSetupError) in try ExpectedFailureList.load(path: path) },
                timeout: .milliseconds(Int64((timeout * 1000).rounded())),
                notes: suite.notes, enforceRecommended: enforceRecommended)
            var patterns: [TestNamePattern] = []
            for text in filter { patterns.append(try TestNamePattern(text, matchesPrefix: true)) }
            runner.filter(patterns)
            if runner.cases.isEmpty {
                throw ConformanceSetupError("no test matches the filter \(filter.joined(separator: ", "))")
            }
            let testee: any Testee = testee.map { SubprocessTestee(command: $0) } ?? InProcessTestee.swiftCodec()
            results = runner.run(against: testee)
            if let junit { try JUnitReport.write(results, toFile: junit) }
        } catch let error as ConformanceSetupError {
            throw CLIFailure(message: "conformance: \(error)", status: 2)
        }
        output.stdout += Array(ConformanceReport.text(results).utf8)
        if !results.succeeded {
            throw CLIFailure(message: "conformance: \(results.failedCount) failed", status: 1)
        }
    }
}

extension ConformanceCommand {
    /// `--explore`: the generative mode (Docs/conformance.md, "Generative mode (`--explore`)").
    private func executeExplore(output: inout CLIOutput) throws {
        let results: ExploreResults
        do {
            let manifest = try fixtures.map { (directory) throws(ConformanceSetupError) in
                try FixtureManifest.load(directory: directory)
            } ?? FixtureManifest.embedded()
            let options = Explorer.Options(
                seed: seed.flatMap(Self.parseSeed) ?? UInt64.random(in: 0...UInt64.max),
                count: count ?? (time == nil ? 10_000 : nil),
                time: time.map { .milliseconds(Int64(($0 * 1000).rounded())) },
                timeout: .milliseconds(Int64((timeout * 1000).rounded())),
                enforceRecommended: enforceRecommended,
                expectedFailures: try expectedFailures.map { (path) throws(ConformanceSetupError) in try ExpectedFailureList.load(path: path) })
            let explorer = try Explorer(options: options, manifest: manifest)
            let testee: any Testee = testee.map { SubprocessTestee(command: $0) } ?? InProcessTestee.swiftCodec()
            results = explorer.run(against: testee)
        } catch let error as ConformanceSetupError {
            throw CLIFailure(message: "conformance: \(error)", status: 2)
        }
        output.stdout += Array(ExploreReport.text(results).utf8)
        if !results.succeeded {
            let what = results.abandoned.map { "stopped: \($0)" } ?? "\(results.failedCases) cases disagree (\(results.findings.count) findings)"
            throw CLIFailure(message: "conformance --explore: \(what)", status: 1)
        }
    }
}

/// `imwire testee`: serves the conformance protocol with the Swift codec on stdin/stdout until end of
/// input, for `imwire conformance --testee 'imwire testee'` and for other runners.
struct TesteeCommand: IMWireSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "testee",
        abstract: "Serve the conformance protocol on stdin/stdout with the Swift codec (ends at end of input).",
        discussion: "Reads 4-byte little-endian length-prefixed ConformanceRequests and answers each with a ConformanceResponse."
    )

    func execute(input: CLIInput, output: inout CLIOutput) throws {
        // The protocol is interactive: it reads and writes the real stdin and stdout directly instead
        // of the buffered CLIInput / CLIOutput.
        if case .failed(let message) = TesteeServer.serve(handler: SwiftCodecTestee.respond(to:)) {
            throw CLIFailure(message: "testee: \(message)", status: 1)
        }
    }
}
