import Foundation
import IMWire
import IMWireWebhooks
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Fixtures/webhooks/, written by Scripts/gen_webhook_fixtures.py (Python's hashlib and json).
enum WebhookFixtures {
    static let repository = URL(fileURLWithPath: #filePath)  // Tests/IMWireWebhooksTests/Support.swift
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = repository.appendingPathComponent("Fixtures/webhooks")

    static func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    struct Signature: Decodable, Sendable, CustomTestStringConvertible {
        var token: String
        var request_time: String
        var sign: String
        var testDescription: String { "token of \(token.count) characters, RequestTime \(request_time)" }
    }

    static func signatures() throws -> [Signature] {
        try JSONDecoder().decode([Signature].self, from: Data(read("signatures.json")))
    }
}

/// Tencent's published example ("Webhook Overview", Security Considerations).
enum Published {
    static let token = "xxxxyyyy"
    static let requestTime: Int64 = 1_669_872_112
    static let sign = "17773bc39a671d7b9aa835458704d2a6db81360a5940292b587d6d760d484061"
    static let appID: UInt64 = 1_400_000_000

    static func query(
        sign: String = sign, requestTime: String = String(requestTime), appID: UInt64 = appID,
        command: String = "C2C.CallbackBeforeSendMsg"
    ) -> String {
        "SdkAppid=\(appID)&CallbackCommand=\(command)&contenttype=json&ClientIP=127.0.0.1&OptPlatform=iOS"
            + "&Sign=\(sign)&RequestTime=\(requestTime)"
    }

    static func authenticator(now: Int64 = requestTime) throws -> CallbackAuthenticator {
        CallbackAuthenticator(sdkAppID: appID, token: try CallbackToken(token), clock: .fixed(now))
    }
}

/// How much longer `large` (8× the input of `small`) takes than `small`, in this thread's CPU time:
/// linear is about 8×, quadratic about 64×. Measured up to five times while the ratio is over
/// `bound`, because the machine's two cores are shared with other suites.
func growthRatio(bound: Double = 24, small: () -> Void, large: () -> Void) -> Double {
    func cpuTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
    func best(_ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = cpuTime()
            body()
            best = min(best, cpuTime() - start)
        }
        return best
    }
    var ratio = Double.infinity
    for _ in 0..<5 where ratio >= bound {
        ratio = best(large) / max(best(small), 1e-9)
    }
    return ratio
}
