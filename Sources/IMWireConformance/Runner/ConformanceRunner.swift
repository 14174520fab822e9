/// Runs conformance cases against a testee and judges the answers.
///
/// Required failures fail the run. Recommended failures are warnings unless
/// ``enforceRecommended`` is set (as in Google's runner); either level can be listed as expected
/// failures.
public struct ConformanceRunner {
    /// The cases to run, in order.
    public var cases: [ConformanceCase]
    /// The testee's expected failures, if it has a list.
    public var expectedFailures: ExpectedFailureList?
    /// How long one case may take.
    public var timeout: Duration
    /// After this many cases in a row end in a crash, a hang or a malformed frame, the testee is
    /// taken to be unusable and the remaining cases are failed as not run (so a dead testee costs
    /// seconds, not one timeout per case).
    public var maxConsecutiveTesteeFailures: Int
    /// Lines for the report about what the suite left out (``ConformanceSuite/notes``).
    public var notes: [String]
    /// Whether Recommended failures fail the run (otherwise they are warnings).
    public var enforceRecommended: Bool

    /// A runner for `cases` (in that order), with the testee's expected failures if it has a list,
    /// the per-case `timeout`, and `notes` for the report.
    public init(
        cases: [ConformanceCase], expectedFailures: ExpectedFailureList? = nil, timeout: Duration = .seconds(10),
        maxConsecutiveTesteeFailures: Int = 3, notes: [String] = [], enforceRecommended: Bool = false
    ) {
        self.cases = cases
        self.expectedFailures = expectedFailures
        self.timeout = timeout
        self.maxConsecutiveTesteeFailures = maxConsecutiveTesteeFailures
        self.notes = notes
        self.enforceRecommended = enforceRecommended
    }

    /// Keeps the cases whose names match any of `patterns` (all of them if `patterns` is empty).
    public mutating func filter(_ patterns: [TestNamePattern]) {
        guard !patterns.isEmpty else { return }
        cases = cases.filter { testCase in patterns.contains { $0.matches(testCase.name) } }
    }

    /// Runs every case against `testee`, then shuts it down.
    public func run(against testee: any Testee) -> ConformanceResults {
        let clock = ContinuousClock()
        let started = clock.now
        var results: [CaseResult] = []
        results.reserveCapacity(cases.count)
        var consecutiveTesteeFailures = 0
        var abandonReason: String?

        for testCase in cases {
            if let abandonReason {
                results.append(CaseResult(name: testCase.name, level: testCase.level, status: .failed, detail: abandonReason, notRun: true))
                continue
            }
            let caseStart = clock.now
            let outcome = testee.respond(to: testCase.request, timeout: timeout)
            var result = CaseResult(name: testCase.name, level: testCase.level, status: .passed, detail: "", stderr: outcome.stderr)
            if case .response(let response) = outcome.kind {
                consecutiveTesteeFailures = 0
                switch ResponseCheck.verdict(for: response, expecting: testCase.expectation) {
                case .passed: break
                case .failed(let detail): (result.status, result.detail) = (.failed, detail)
                case .skipped(let reason): (result.status, result.detail) = (.skipped, reason)
                }
            } else if let failure = Self.testeeFailure(outcome.kind) {
                consecutiveTesteeFailures = failure.testeeUnwell ? consecutiveTesteeFailures + 1 : 0
                (result.status, result.detail) = (.failed, failure.detail)
            }
            result.duration = clock.now - caseStart
            results.append(result)
            if consecutiveTesteeFailures >= maxConsecutiveTesteeFailures {
                abandonReason = "not run: the testee crashed, hung or broke the framing on \(consecutiveTesteeFailures) cases in a row (the last: \(testCase.name))"
            }
        }
        testee.shutdown()

        var summary = ConformanceResults(
            testee: testee.description, results: results, expectedFailureSource: expectedFailures?.source,
            notes: notes, duration: clock.now - started, enforceRecommended: enforceRecommended)
        if let expectedFailures { summary.apply(expectedFailures) }
        if !enforceRecommended { summary.demoteRecommendedFailures() }
        return summary
    }

    /// What an outcome other than a response means for its case: the failure's detail, and whether
    /// the testee itself is unwell (crashed, hung or broke the framing: it was restarted, and several
    /// in a row give it up). `nil` for a response.
    static func testeeFailure(_ kind: TesteeOutcome.Kind) -> (detail: String, testeeUnwell: Bool)? {
        switch kind {
        case .response: nil
        case .crashed(let how): ("testee crashed: \(how); restarted", true)
        case .timedOut(let limit): ("testee hung: no complete answer within \(seconds(limit)); killed and restarted", true)
        case .malformedFrame(let what): ("testee broke the framing: \(what); restarted", true)
        case .invalidResponse(let what): ("testee's response breaks the protocol: \(what)", false)
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}

/// How one case ended.
public struct CaseResult: Sendable {
    /// The five ways a case ends; each case is counted in exactly one.
    public enum Status: Sendable, Equatable {
        case passed
        /// Failed and not expected to (or expected to fail but passes: an unexpected pass). Fails
        /// the run.
        case failed
        case skipped
        /// Failed, as an entry of the expected-failure list says it does.
        case expectedFailure
        /// A Recommended case that failed in a run that does not enforce Recommended cases.
        case warning
    }

    /// The test name.
    public let name: String
    /// The case's level.
    public let level: TestName.Level
    /// How the case ended.
    public var status: Status
    /// For a failure, what was expected and what came back; for a skip, the testee's reason; for an
    /// expected failure, the failure.
    public var detail: String
    /// For an expected failure or an unexpected pass, the matching entry: `FILE:LINE: reason`.
    public var listEntry: String?
    /// What the testee wrote to stderr while handling the case.
    public var stderr: String
    /// How long the testee took to answer.
    public var duration: Duration
    /// Not sent: the testee was given up on.
    public var notRun: Bool

    init(name: String, level: TestName.Level, status: Status, detail: String, stderr: String = "", notRun: Bool = false) {
        self.name = name
        self.level = level
        self.status = status
        self.detail = detail
        self.stderr = stderr
        self.duration = .zero
        self.notRun = notRun
    }
}

/// The outcome of a run: every case's result and the state of the expected-failure list.
public struct ConformanceResults: Sendable {
    /// An expected-failure entry whose matching tests all pass now.
    public struct UnexpectedPass: Sendable {
        /// The entry to remove.
        public let entry: ExpectedFailureList.Entry
        /// The tests it matches, all passing.
        public let passingTests: [String]
    }

    /// The testee's description.
    public let testee: String
    /// One result per case, in run order.
    public internal(set) var results: [CaseResult]
    /// Expected-failure entries that no longer fail: each fails the run.
    public internal(set) var unexpectedPasses: [UnexpectedPass] = []
    /// Expected-failure entries that matched no test that ran.
    public internal(set) var unusedEntries: [ExpectedFailureList.Entry] = []
    /// The expected-failure file, if there was one.
    public let expectedFailureSource: String?
    /// What the suite left out, one sentence each.
    public let notes: [String]
    /// How long the whole run took.
    public let duration: Duration
    /// Whether Recommended failures failed the run.
    public let enforceRecommended: Bool

    init(
        testee: String, results: [CaseResult], expectedFailureSource: String?, notes: [String], duration: Duration,
        enforceRecommended: Bool
    ) {
        self.testee = testee
        self.results = results
        self.expectedFailureSource = expectedFailureSource
        self.notes = notes
        self.duration = duration
        self.enforceRecommended = enforceRecommended
    }

    /// The levels whose failures fail the run.
    public var enforcedLevels: [TestName.Level] { enforceRecommended ? [.required, .recommended] : [.required] }

    /// Cases of the enforced levels that passed.
    public var passedCount: Int { results.count { $0.status == .passed && enforcedLevels.contains($0.level) } }
    /// Failures that fail the run: unexpected failures and cases not run in the enforced levels, and
    /// expected-failure entries of any level that no longer fail.
    public var failedCount: Int { results.count { $0.status == .failed } }
    /// Cases of the enforced levels the testee answered `skipped`.
    public var skippedCount: Int { results.count { $0.status == .skipped && enforcedLevels.contains($0.level) } }
    /// Failures an expected-failure entry names.
    public var expectedFailureCount: Int { results.count { $0.status == .expectedFailure } }
    /// Recommended failures that do not fail the run.
    public var warningCount: Int { results.count { $0.status == .warning } }

    /// Whether the run passes: no unexpected failure and no unexpected pass.
    public var succeeded: Bool { failedCount == 0 }

    /// How the cases of one level ended.
    public struct LevelCounts: Sendable, Hashable {
        public var passed = 0
        /// Unexpected failures (and unexpected passes), and warnings: every failure no list names.
        public var failed = 0
        public var expectedFailures = 0
        public var skipped = 0
    }

    /// The counts of `level`'s cases.
    public func counts(_ level: TestName.Level) -> LevelCounts {
        var counts = LevelCounts()
        for result in results where result.level == level {
            switch result.status {
            case .passed: counts.passed += 1
            case .failed, .warning: counts.failed += 1
            case .expectedFailure: counts.expectedFailures += 1
            case .skipped: counts.skipped += 1
            }
        }
        return counts
    }

    /// Turns the Recommended failures that are not unexpected passes into warnings.
    mutating func demoteRecommendedFailures() {
        for index in results.indices where results[index].level == .recommended && results[index].status == .failed
            && results[index].listEntry == nil {
            results[index].status = .warning
        }
    }

    /// Marks failures the list expects, then flags entries that no longer fail and the tests only
    /// they cover (never a `?` entry, whose tests may pass).
    mutating func apply(_ list: ExpectedFailureList) {
        var matchesByEntry = [[Int]](repeating: [], count: list.entries.count)
        var entriesByResult = [[Int]](repeating: [], count: results.count)
        for index in results.indices where !results[index].notRun && results[index].status != .skipped {
            let entries = list.matches(results[index].name)
            entriesByResult[index] = entries
            for entry in entries { matchesByEntry[entry].append(index) }
        }
        var stale = Set<Int>()
        for (entry, matched) in matchesByEntry.enumerated() {
            if matched.isEmpty {
                unusedEntries.append(list.entries[entry])
            } else if !list.entries[entry].mayPass && matched.allSatisfy({ results[$0].status == .passed }) {
                stale.insert(entry)
                unexpectedPasses.append(UnexpectedPass(entry: list.entries[entry], passingTests: matched.map { results[$0].name }))
            }
        }
        for index in results.indices {
            let entries = entriesByResult[index]
            guard let first = entries.first else { continue }
            let entry = list.entries[entries.first(where: { !stale.contains($0) }) ?? first]
            results[index].listEntry = "\(entry.location): \(entry.reason)"
            switch results[index].status {
            case .failed:
                results[index].status = .expectedFailure
            case .passed where entries.allSatisfy(stale.contains):
                results[index].status = .failed
                results[index].detail = "unexpected pass: listed as an expected failure (\(entry.location): \(entry.reason)) but passes; remove the entry"
            default:
                break
            }
        }
    }
}
