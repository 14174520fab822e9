import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this test run is instrumented by a sanitizer: `Scripts/test` sets `IMWIRE_SANITIZER`
/// (to `address` or `thread`) for its sanitizer steps.
package let runsUnderASanitizer = getenv("IMWIRE_SANITIZER") != nil

extension Trait where Self == ConditionTrait {
    /// For a test that measures time (a linear-time check, a time bound): it runs in the optimised
    /// test run and is skipped under a sanitizer, whose instrumentation changes what it measures.
    /// A skipped test is reported as skipped, never as passed.
    package static var timed: Self {
        .disabled(if: runsUnderASanitizer, "measures time: run in the optimised test run, not under a sanitizer")
    }
}
