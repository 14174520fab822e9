/// The shortest of `runs` timings of `body`, in seconds. The machine is shared and noisy: the
/// fastest run is the one least disturbed.
func bestTime(runs: Int = 3, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let duration = ContinuousClock().measure(body)
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        best = min(best, seconds)
    }
    return best
}
