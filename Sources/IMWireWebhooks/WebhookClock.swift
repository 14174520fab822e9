#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Where ``CallbackAuthenticator`` reads the time it compares `RequestTime` with: the system's
/// real-time clock, or a clock of your own in tests.
public struct WebhookClock: Sendable {
    /// Now, in whole seconds since 1970-01-01 00:00 UTC (Unix time, as `RequestTime`).
    public var now: @Sendable () -> Int64

    /// A clock that answers `now()`.
    public init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// The system's real-time clock (`CLOCK_REALTIME`).
    public static let system = WebhookClock {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec)
    }

    /// A clock that always says `seconds`: for tests and for Tencent's published example.
    public static func fixed(_ seconds: Int64) -> WebhookClock {
        WebhookClock { seconds }
    }
}
