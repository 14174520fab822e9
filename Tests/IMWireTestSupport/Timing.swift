#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shortest of `runs` timings of `body`, in seconds of this thread's CPU time: the machine is
/// shared and noisy, and time spent preempted by other processes (or by the other suites running at
/// the same time) is not counted; of what remains, the fastest run is the one least disturbed.
package func bestTime(runs: Int = 3, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = threadCPUTime()
        body()
        best = min(best, threadCPUTime() - start)
    }
    return best
}

/// The CPU time this thread has used, in seconds.
package func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// The shortest of `runs` timings of `body`, in seconds of wall-clock time (an asynchronous body may
/// move between threads, so its CPU time cannot be read from one).
package func asyncBestTime(runs: Int, _ body: () async -> Void) async -> Double {
    var best = Double.infinity
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        await body()
        best = min(best, seconds(clock.now - start))
    }
    return best
}

package func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// The largest growth a linear-time test accepts when the input grows 8×: linear is about 8×,
/// quadratic about 64×. 24× is three times linear, room for caches that hold the small input and not
/// the large one and for two cores shared with other suites and processes, and still well under half
/// of quadratic.
package let growthBound = 24.0

/// How much longer `large` (8× the input of `small`) takes than `small`: linear is about 8×,
/// quadratic about 64×. Other suites run at the same time on a machine with two cores, so one
/// measurement proves little: each attempt interleaves the two in rounds and keeps the fastest run of
/// each, and while the ratio is not under `bound` it is measured again, up to five attempts in all.
/// A quadratic shape fails every attempt; a noisy neighbour rarely spoils five.
package func growthRatio(bound: Double, small: () -> Void, large: () -> Void) -> Double {
    var ratio = Double.infinity
    for _ in 0..<5 where ratio >= bound {
        var (smallTime, largeTime) = (Double.infinity, Double.infinity)
        for _ in 0..<3 {
            smallTime = min(smallTime, bestTime(runs: 2, small))
            largeTime = min(largeTime, bestTime(runs: 1, large))
        }
        ratio = min(ratio, largeTime / smallTime)
    }
    return ratio
}

/// `growthRatio` for asynchronous work.
package func asyncGrowthRatio(bound: Double, small: () async -> Void, large: () async -> Void) async -> Double {
    var ratio = Double.infinity
    for _ in 0..<5 where ratio >= bound {
        var (smallTime, largeTime) = (Double.infinity, Double.infinity)
        for _ in 0..<3 {
            smallTime = min(smallTime, await asyncBestTime(runs: 2, small))
            largeTime = min(largeTime, await asyncBestTime(runs: 1, large))
        }
        ratio = min(ratio, largeTime / smallTime)
    }
    return ratio
}
