import ArgumentParser
import IMWireConformance

/// `imwire conformance`: runs the conformance suite derived from the golden fixtures against a
/// testee (SPEC §4.2; README "Test your implementation").
struct ConformanceCommand: IMWireSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the conformance suite (every fixture of Fixtures/manifest.json) against a testee.",
        discussion: """
            Prints one line per failure, then `N passed, N failed, N skipped`. Exit status: 0 when nothing \
            failed unexpectedly, 1 on any unexpected failure or on an expected failure that now passes, 2 on a \
            usage error (no fixtures, a malformed expected-failure file). Without --testee, the built-in Swift \
            codec is tested in-process.
            """
    )

    @Option(help: ArgumentHelp(
        "Shell command line of the testee (run with /bin/sh -c); it speaks the framed protocol on stdin/stdout.",
        valueName: "CMD"))
    var testee: String?

    @Option(help: ArgumentHelp(
        "Fixtures directory holding manifest.json (default: ./Fixtures, else the nearest parent's Fixtures).",
        valueName: "DIR"))
    var fixtures: String?

    @Option(help: ArgumentHelp("The testee's expected failures: `PATTERN  # reason` per line.", valueName: "FILE"))
    var expectedFailures: String?

    @Option(help: ArgumentHelp("Also write a JUnit XML report to FILE.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp(
        "Run only tests matching PATTERN (`*` = one dot-separated segment; fewer segments match as a prefix). Repeatable.",
        valueName: "PATTERN"))
    var filter: [String] = []

    @Option(help: ArgumentHelp("Seconds one case may take before the testee counts as hung.", valueName: "SECONDS"))
    var timeout: Double = 10

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func execute(input: CLIInput, output: inout CLIOutput) throws {
        let results: ConformanceResults
        do {
            guard let directory = fixtures ?? FixtureManifest.findDirectory() else {
                throw ConformanceSetupError("no Fixtures/manifest.json in the current directory or its parents; pass --fixtures DIR")
            }
            let suite = try ConformanceSuite.load(fixturesDirectory: directory)
            var runner = ConformanceRunner(
                cases: suite.cases,
                expectedFailures: try expectedFailures.map { (path) throws(ConformanceSetupError) in try ExpectedFailureList.load(path: path) },
                timeout: .milliseconds(Int64((timeout * 1000).rounded())),
                notes: suite.notes)
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
