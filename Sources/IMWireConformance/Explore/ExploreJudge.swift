/// Judges a testee's answer to a generated case with the suite's own comparison
/// (``ResponseCheck``), check by check.
enum ExploreJudge {
    /// How one case ended.
    struct Verdict {
        /// The Required failure, if any: the check's name and what was expected and came back.
        var requiredFailure: Failure?
        /// The Recommended failures.
        var recommendedFailures: [Failure] = []
        /// The testee's reason, when it answered `skipped`.
        var skipped: String?
        /// The testee crashed, hung or broke the framing.
        var testeeUnwell = false
        /// The Required failure is no answer at all (a crash, a hang, a broken frame, an empty
        /// response, `runtime_error`): no expected-failure entry excuses it.
        var unanswered = false

        var failures: [Failure] { (requiredFailure.map { [$0] } ?? []) + recommendedFailures }
    }

    typealias Failure = ExploreFailure

    /// The verdict on `outcome` for `materialized`. A crash, a hang, a broken frame, a response that
    /// breaks the protocol, an empty response and `runtime_error` are Required failures whatever the
    /// case's level: a correct runtime gives none of them.
    static func verdict(for outcome: TesteeOutcome, of materialized: MaterializedCase) -> Verdict {
        var verdict = Verdict()
        let requiredName = materialized.checks.first { $0.level == .required }?.name
            ?? TestName.replacing(.level, of: materialized.checks[0].name, with: TestName.Level.required.rawValue)
        guard case .response(let response) = outcome.kind else {
            let failure = ConformanceRunner.testeeFailure(outcome.kind)
            verdict.testeeUnwell = failure?.testeeUnwell ?? false
            verdict.unanswered = true
            verdict.requiredFailure = Failure(name: requiredName, detail: failure?.detail ?? "", actual: "no answer")
            return verdict
        }
        switch response.result {
        case nil, .runtimeError?:
            let actual = response.result.map(ResponseCheck.describe) ?? "an empty response (no result set)"
            verdict.requiredFailure = Failure(name: requiredName, detail: "expected an answer, got \(actual)", actual: actual)
            verdict.unanswered = true
            return verdict
        case .skipped(let reason)?:
            verdict.skipped = reason
            return verdict
        case let result?:
            for check in materialized.checks {
                guard case .failed(let detail) = Self.verdict(for: response, accepting: check.accepted) else { continue }
                let failure = Failure(name: check.name, detail: detail, actual: ResponseCheck.describe(result))
                if check.level == .required {
                    verdict.requiredFailure = verdict.requiredFailure ?? failure
                } else {
                    verdict.recommendedFailures.append(failure)
                }
            }
            return verdict
        }
    }

    /// Passes when any of `accepted` passes.
    static func verdict(for response: ConformanceResponse, accepting accepted: [Expectation]) -> Verdict.Outcome {
        var details: [String] = []
        for expectation in accepted {
            switch ResponseCheck.verdict(for: response, expecting: expectation) {
            case .passed: return .passed
            case .skipped: return .passed
            case .failed(let detail): details.append(detail)
            }
        }
        guard accepted.count > 1, let result = response.result else { return .failed(details.first ?? "") }
        let alternatives = accepted.map(ResponseCheck.describe).joined(separator: " or ")
        return .failed("expected \(alternatives); got \(ResponseCheck.describe(result)) (against the first: \(details[0]))")
    }
}

extension ExploreJudge.Verdict {
    enum Outcome { case passed, failed(String) }
}

/// A disagreement of a testee's answer with a generated case's check.
public struct ExploreFailure: Sendable {
    /// The check's test name, `Level.Input.explore_<class>.Output`.
    public var name: String
    /// What was expected and what came back.
    public var detail: String
    /// What came back, shortened.
    public var actual: String
}
