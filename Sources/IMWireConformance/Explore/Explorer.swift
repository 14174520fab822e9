import IMWire

/// The generative mode, `imwire conformance --explore`: makes cases from the schema, sends them to a
/// testee through the conformance protocol and judges each answer with the suite's comparison and
/// level rules (Docs/conformance.md, "Generative mode"). A Required disagreement is shrunk to a small
/// case and reported with the seed that makes it again.
public struct Explorer {
    /// What to run.
    public struct Options: Sendable {
        /// The seed of the first case; case `k` is made from the `k`-th seed after it.
        public var seed: UInt64
        /// How many cases to make (`nil`: until ``time`` runs out).
        public var count: Int?
        /// How long to keep making cases (`nil`: until ``count`` is reached).
        public var time: Duration?
        /// How long one request may take.
        public var timeout: Duration
        /// Whether Recommended disagreements fail the run (and are shrunk) too.
        public var enforceRecommended: Bool
        /// The most findings shrunk in one run; later disagreements are counted.
        public var maxFindings: Int
        /// The most requests one shrink sends.
        public var shrinkAttempts: Int
        /// The longest one shrink runs.
        public var shrinkTime: Duration
        /// The testee's expected failures: a disagreement an entry names — by the generated test's
        /// name, or by the name of the golden case its case generalises at the same check — is
        /// counted as expected, not shrunk, and fails nothing. An entry no generated case meets is no
        /// unexpected pass (a run need not make every class).
        public var expectedFailures: ExpectedFailureList?

        /// Options for a run from `seed`; the defaults are the command line's.
        public init(
            seed: UInt64, count: Int? = 10_000, time: Duration? = nil, timeout: Duration = .seconds(10),
            enforceRecommended: Bool = false, maxFindings: Int = 30, shrinkAttempts: Int = 3_000, shrinkTime: Duration = .seconds(60),
            expectedFailures: ExpectedFailureList? = nil
        ) {
            self.seed = seed
            self.count = count
            self.time = time
            self.timeout = timeout
            self.enforceRecommended = enforceRecommended
            self.maxFindings = maxFindings
            self.shrinkAttempts = shrinkAttempts
            self.shrinkTime = shrinkTime
            self.expectedFailures = expectedFailures
        }
    }

    /// What it runs.
    public let options: Options
    /// The levels of the classes that follow a golden case.
    let levels: ExploreLevels

    /// An explorer whose classes take their levels from `manifest` (the golden cases they follow).
    public init(options: Options, manifest: FixtureManifest) throws(ConformanceSetupError) {
        self.options = options
        self.levels = try ExploreLevels(manifest: manifest)
    }

    /// The seed of case `index` of a run started at `runSeed`; a run started at it makes that case
    /// first.
    public static func caseSeed(runSeed: UInt64, index: Int) -> UInt64 {
        var seed = runSeed
        for _ in 0..<index { seed = CaseGenerator.next(seed) }
        return seed
    }

    /// The request of case `index` of a run started at `seed`: what the testee is sent.
    public func request(seed: UInt64, index: Int) -> ConformanceRequest {
        CaseGenerator.make(seed: Self.caseSeed(runSeed: seed, index: index)).materialize(levels: levels).request
    }

    /// The classes of generated cases and how each is judged, with the levels of this explorer's
    /// manifest.
    public var classes: [ExploreClass] {
        [ExploreClass(name: "explore_valid", inputs: "binary, JSON, tim-rest", exemplar: nil, judging: JudgingRule.valid.summary(level: .required))]
            + FlawKind.allCases.map { kind in
                ExploreClass(
                    name: "explore_\(kind.rawValue)", inputs: kind.input == .json ? "JSON" : "binary", exemplar: kind.exemplar,
                    judging: kind.rule.summary(level: levels.level(of: kind.exemplar)))
            }
    }

    /// Runs the cases against `testee`, then shuts it down.
    public func run(against testee: any Testee) -> ExploreResults {
        let clock = ContinuousClock()
        let started = clock.now
        let stopAt = options.time.map { started + $0 }
        var results = ExploreResults(
            testee: testee.description, seed: options.seed, enforceRecommended: options.enforceRecommended, maxFindings: options.maxFindings,
            expectedFailures: options.expectedFailures)
        var seed = options.seed
        var index = 0
        var unwellInARow = 0
        var shrinkTime = Duration.zero

        while options.count.map({ index < $0 }) ?? true {
            if let stopAt, clock.now >= stopAt { break }
            let explorerCase = CaseGenerator.make(seed: seed)
            let materialized = explorerCase.materialize(levels: levels)
            let outcome = testee.respond(to: materialized.request, timeout: options.timeout)
            let verdict = ExploreJudge.verdict(for: outcome, of: materialized)
            results.cases += 1
            results.classes["\(explorerCase.input.rawValue) \(explorerCase.className)", default: 0] += 1

            if let reason = verdict.skipped {
                results.skipped += 1
                results.skipReasons[reason, default: 0] += 1
            }
            unwellInARow = verdict.testeeUnwell ? unwellInARow + 1 : 0
            let sorted = sort(verdict, of: explorerCase)
            for hit in sorted.expected {
                results.expected[hit.entry, default: .init(example: hit.failure, matchedAs: hit.matchedAs)].count += 1
            }
            var enforced: [ExploreJudge.Failure] = sorted.required.map { [$0] } ?? []
            for failure in sorted.recommended {
                results.recommended[failure.name, default: .init(example: failure)].count += 1
                if options.enforceRecommended { enforced.append(failure) }
            }
            if let failure = enforced.first {
                results.failedCases += 1
                let shrinkStart = clock.now
                record(failure, of: explorerCase, size: materialized.payload.count, index: index, against: testee, into: &results)
                shrinkTime += clock.now - shrinkStart
            } else if !sorted.expected.isEmpty {
                results.expectedCases += 1
            } else if verdict.skipped == nil {
                results.passed += 1
            }
            if unwellInARow >= 3 {
                results.abandoned = "the testee crashed, hung or broke the framing on 3 cases in a row (the last: case \(index), seed \(Self.hex(seed)))"
                break
            }
            seed = CaseGenerator.next(seed)
            index += 1
        }
        testee.shutdown()
        results.duration = clock.now - started
        results.shrinkDuration = shrinkTime
        return results
    }

    /// Counts a disagreement. When its case uses everything a finding's shrunk case uses, the case
    /// is tried again without those features: if the disagreement goes away it is that finding again
    /// (a repeat); if it stays, it has another cause, and the case without them is shrunk into a new
    /// finding (while there is room for one). A finding's check name is shared by at most
    /// ``maxFindingsPerCheck`` findings.
    private func record(
        _ failure: ExploreJudge.Failure, of explorerCase: ExploreCase, size: Int, index: Int, against testee: any Testee,
        into results: inout ExploreResults
    ) {
        let features = Set(explorerCase.features)
        var candidate = explorerCase
        var explainedBy: Int?
        for known in results.findings.indices {
            let finding = results.findings[known]
            let telling = ExploreCase.telling(finding.features)
            guard finding.input == explorerCase.input, telling.isSubset(of: features) else { continue }
            let removable = telling.filter(ExploreCase.isRemovable)
            if removable.isEmpty {
                // Nothing to take out (a flaw class alone): the same check is the same finding.
                guard finding.name == failure.name else { continue }
                results.findings[known].repeats += 1
                return
            }
            let without = explorerCase.removing(Array(removable))
            guard without.className == explorerCase.className, without.message.flawsTakeEffect() else { continue }
            if !fails(without, against: testee) {
                results.findings[known].repeats += 1
                return
            }
            candidate = candidate.removing(Array(removable))
            explainedBy = explainedBy ?? known
        }
        if let explainedBy {
            // Several known causes at once: without all of them it passes.
            if candidate.className == explorerCase.className, candidate.message.flawsTakeEffect(), !fails(candidate, against: testee) {
                results.findings[explainedBy].repeats += 1
                return
            }
        }
        if candidate.className != explorerCase.className || !candidate.message.flawsTakeEffect() {
            candidate = explorerCase
        }
        guard results.findings.count < options.maxFindings,
            results.findings.count(where: { $0.name == failure.name }) < Self.maxFindingsPerCheck
        else {
            results.unshrunk += 1
            return
        }
        let shrinker = Shrinker(
            testee: testee, timeout: options.timeout, levels: levels, maxAttempts: options.shrinkAttempts,
            deadline: ContinuousClock.now + options.shrinkTime)
        let materialized = candidate.materialize(levels: levels)
        let verdict = ExploreJudge.verdict(for: testee.respond(to: materialized.request, timeout: options.timeout), of: materialized)
        let startFailure = verdict.failures.first { $0.name == failure.name } ?? verdict.failures.first ?? failure
        let shrunk = shrinker.shrink(candidate, failure: startFailure)
        let shrunkFeatures = ExploreCase.telling(shrunk.explorerCase.features)
        if let known = results.findings.firstIndex(where: { $0.name == shrunk.failure.name && ExploreCase.telling($0.features) == shrunkFeatures }) {
            results.findings[known].repeats += 1
            return
        }
        results.findings.append(ExploreFinding(
            name: shrunk.failure.name, caseIndex: index, caseSeed: explorerCase.seed, runSeed: options.seed,
            originalSize: size, shrunk: shrunk))
    }

    /// The most findings one check name gets in a run, so that one frequent cause does not crowd
    /// out the rest.
    public static let maxFindingsPerCheck = 4

    /// Whether `explorerCase` still gets an enforced disagreement from `testee` that the expected
    /// failures do not name.
    private func fails(_ explorerCase: ExploreCase, against testee: any Testee) -> Bool {
        let materialized = explorerCase.materialize(levels: levels)
        let verdict = ExploreJudge.verdict(for: testee.respond(to: materialized.request, timeout: options.timeout), of: materialized)
        let sorted = sort(verdict, of: explorerCase)
        return sorted.required != nil || (options.enforceRecommended && !sorted.recommended.isEmpty)
    }

    /// A verdict's failures, the ones the expected-failure list names set apart: each with the index
    /// of the first entry naming it and the name it matched as. An entry names a failure by the
    /// generated test's name (`Required.JsonInput.explore_json_number_hex.ParseError`) or by the same
    /// check of the golden case the case generalises (`Required.JsonInput.n_number_hex.ParseError`).
    /// No answer at all — a crash, a hang, `runtime_error` — is never expected.
    private func sort(_ verdict: ExploreJudge.Verdict, of explorerCase: ExploreCase) -> (
        required: ExploreFailure?, recommended: [ExploreFailure], expected: [ExpectedHit]
    ) {
        guard let list = options.expectedFailures else { return (verdict.requiredFailure, verdict.recommendedFailures, []) }
        var expected: [ExpectedHit] = []
        func isExpected(_ failure: ExploreFailure) -> Bool {
            var names = [failure.name]
            if let exemplar = explorerCase.exemplar { names.append(TestName.replacing(.case, of: failure.name, with: exemplar)) }
            for name in names {
                if let entry = list.matches(name).first {
                    expected.append((entry, failure, name))
                    return true
                }
            }
            return false
        }
        var required = verdict.requiredFailure
        if let failure = required, !verdict.unanswered, isExpected(failure) { required = nil }
        let recommended = verdict.recommendedFailures.filter { !isExpected($0) }
        return (required, recommended, expected)
    }

    /// A disagreement an entry of the expected-failure list names: the entry's index, the failure,
    /// and the name the entry matched (the generated test's, or its golden case's).
    private typealias ExpectedHit = (entry: Int, failure: ExploreFailure, matchedAs: String)

    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
}

/// The outcome of a generative run.
public struct ExploreResults: Sendable {
    /// A class of Recommended disagreement: how often, and the first.
    public struct RecommendedCount: Sendable {
        /// Cases that failed the check.
        public var count = 0
        /// The first of them.
        public let example: ExploreFailure

        init(example: ExploreFailure) { self.example = example }
    }

    /// Disagreements that one entry of the expected-failure list names: how many, and the first.
    public struct ExpectedCount: Sendable {
        /// Disagreeing checks the entry named.
        public var count = 0
        /// The first of them.
        public let example: ExploreFailure
        /// The name the entry matched: the generated test's, or its golden case's at the same check.
        public let matchedAs: String

        init(example: ExploreFailure, matchedAs: String) {
            self.example = example
            self.matchedAs = matchedAs
        }
    }

    /// The testee's description.
    public let testee: String
    /// The seed of the first case.
    public let seed: UInt64
    /// Whether Recommended disagreements fail the run.
    public let enforceRecommended: Bool
    /// Cases sent.
    public internal(set) var cases = 0
    /// Cases every check of which passed.
    public internal(set) var passed = 0
    /// Cases the testee answered `skipped`.
    public internal(set) var skipped = 0
    /// The testee's reasons for `skipped`, with how often it gave each.
    public internal(set) var skipReasons: [String: Int] = [:]
    /// Cases with an enforced disagreement (Required, and Recommended when enforced).
    public internal(set) var failedCases = 0
    /// The shrunk disagreements, in the order they were found.
    public internal(set) var findings: [ExploreFinding] = []
    /// Disagreements not shrunk because the run, or their check, had its most findings
    /// (``maxFindings``, ``Explorer/maxFindingsPerCheck``).
    public internal(set) var unshrunk = 0
    /// The most findings the run shrinks.
    public let maxFindings: Int
    /// Recommended disagreements by test name (those the expected failures name are in
    /// ``expected``).
    public internal(set) var recommended: [String: RecommendedCount] = [:]
    /// The expected-failure list of the run, if it had one.
    public let expectedFailures: ExpectedFailureList?
    /// Disagreements the expected-failure list names, by the index of the entry naming them.
    public internal(set) var expected: [Int: ExpectedCount] = [:]
    /// Cases whose only disagreements the expected-failure list names.
    public internal(set) var expectedCases = 0
    /// Cases by class and input, for the report (`explore_valid` binary → json …).
    public internal(set) var classes: [String: Int] = [:]
    /// Why the run stopped early, if it did.
    public internal(set) var abandoned: String?
    /// How long the run took, shrinking included.
    public internal(set) var duration: Duration = .zero
    /// How much of it was shrinking (and telling repeats apart).
    public internal(set) var shrinkDuration: Duration = .zero

    init(testee: String, seed: UInt64, enforceRecommended: Bool, maxFindings: Int, expectedFailures: ExpectedFailureList? = nil) {
        self.testee = testee
        self.expectedFailures = expectedFailures
        self.seed = seed
        self.enforceRecommended = enforceRecommended
        self.maxFindings = maxFindings
    }

    /// No enforced disagreement and the run went to its end.
    public var succeeded: Bool { failedCases == 0 && abandoned == nil }
}

/// A class of generated cases (the third segment of their test names) and how its answers are judged.
public struct ExploreClass: Sendable {
    /// `explore_valid`, `explore_truncated`, `explore_json_number_leading_zero`, …
    public let name: String
    /// The input formats it is sent in.
    public let inputs: String
    /// The golden case it generalises, whose level it takes where it has one level.
    public let exemplar: String?
    /// The answers each level accepts, in words.
    public let judging: String
}

extension JudgingRule {
    /// The answers each level accepts, in words; `level` is the level of a ``rejected`` class.
    func summary(level: TestName.Level) -> String {
        switch self {
        case .valid: "the message: Required; IMWire's canonical bytes: Recommended"
        case .rejected where level == .required: "parse_error: Required"
        case .rejected: "parse_error: Recommended (any answer is Required-correct)"
        case .acceptedOrRejected(.accepted): "the message or parse_error: Required; the message: Recommended"
        case .acceptedOrRejected: "the message or parse_error: Required; parse_error: Recommended"
        case .keptAsUnknownOrRejected: "kept as an unknown field, or parse_error: Required; kept: Recommended"
        case .invalidUTF8: "any answer: Required; parse_error: Recommended"
        case .beyondDoublePrecision:
            "the exact value, the value a double holds, or parse_error when that is out of range: Required; the exact value: Recommended"
        case .emptyInput: "the empty message or parse_error: Required; parse_error: Recommended"
        }
    }
}
