import Foundation
import IMWireWebhooks
import Testing

/// Load on the service as it runs in production: the WebhookServer executable this package built
/// (debug, as Scripts/examples-test builds it), started on 127.0.0.1 with authentication and a
/// word list, driven by wrk (Debian's package; Scripts/install-deps) with signed before-send
/// callbacks that take the whole path — signature, time window, tim-rest decoding, moderation, a
/// rewritten MsgBody. After a 2 s warm-up,
/// a short run (2 s), then a run ten times as long (20 s) on the same process: no request may fail,
/// and the process's peak resident memory (VmHWM) after the long run must stay within 25 % of what
/// it was after the short one. Prints requests per second, p50/p99 latency and peak memory of both
/// runs (the figures in Examples/README.md come from this output). About 25 s; Scripts/examples-test
/// runs it on its own, after the other tests, so that they do not share the cores with it.
@Suite(.serialized) struct LoadTests {
    struct Run: Sendable {
        var seconds: Int
        var requests: Int
        var requestsPerSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var errors: Int
        var peakResidentKiB: Int
    }

    @Test func signedCallbacksUnderLoadFailNoneAndMemoryStaysFlat() async throws {
        let wrk = try #require(Self.which("wrk"), "wrk is not installed: run Scripts/install-deps (apt: wrk)")
        let body = try fixture("c2c_before_send_banned_word.input.json", in: "webhooks")
        let golden = try fixture("c2c_before_send_banned_word.response.json", in: "webhooks")
        let token = "load-test-token"

        let server = try await ServerProcess.start(environment: [
            "SDKAPPID": "1400000000", "CALLBACK_TOKEN": token, "BANNED_WORDS": "red packet,casino",
        ])
        defer { server.stop() }

        func signedPath() throws -> String {
            let time = String(WebhookClock.system.now())
            let sign = try CallbackToken(token).signature(requestTime: time)
            return "/webhook?SdkAppid=1400000000&CallbackCommand=C2C.CallbackBeforeSendMsg&contenttype=json"
                + "&ClientIP=127.0.0.1&OptPlatform=RESTAPI&Sign=\(sign)&RequestTime=\(time)"
        }
        // What every request of the runs gets: the golden rewritten MsgBody.
        let check = try await post(port: server.port, path: try signedPath(), body: body)
        #expect(check.status == 200)
        #expect(check.body == golden)

        // A warm-up run, not measured: the first requests of a process pay for lazy initialisation
        // (metadata, the allocator's arenas, NIO's buffers, each thread's decode and encode scratch
        // buffers) that a longer run would not repeat. (This test once needed a warm-up of several
        // seconds, and the optimised server tens of seconds, before the peak levelled off: the body
        // deadline was a `Task.sleep` whose timer, cancelled, stayed allocated for REQUEST_TIMEOUT, so
        // memory grew with requests/s × 10 s. The deadline is now a cancelled NIO task, freed at once.)
        _ = try Self.wrk(wrk, port: server.port, path: try signedPath(), body: body, seconds: 2)
        var runs: [Run] = []
        for seconds in [2, 20] {
            var run = try Self.wrk(wrk, port: server.port, path: try signedPath(), body: body, seconds: seconds)
            run.peakResidentKiB = try server.peakResidentKiB()
            runs.append(run)
            print(String(
                format: "load: %2d s, %d requests, %.0f requests/s, p50 %.2f ms, p99 %.2f ms, %d failed, peak RSS %.1f MiB",
                run.seconds, run.requests, run.requestsPerSecond, run.p50Milliseconds, run.p99Milliseconds, run.errors,
                Double(run.peakResidentKiB) / 1024))
        }
        let (short, long) = (runs[0], runs[1])
        #expect(short.requests > 0 && long.requests > short.requests)
        #expect(short.errors == 0 && long.errors == 0, "failed requests under load")
        #expect(Double(long.peakResidentKiB) <= Double(short.peakResidentKiB) * 1.25,
                "peak memory grew from \(short.peakResidentKiB) KiB to \(long.peakResidentKiB) KiB over a 10× longer run")
        #expect(server.isRunning)
    }

    /// One wrk run: 2 threads, 16 connections, `seconds` long; its Lua `done` prints the summary as JSON.
    static func wrk(_ wrk: String, port: Int, path: String, body: [UInt8], seconds: Int) throws -> Run {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("imwire-load-\(UUID().uuidString).lua")
        defer { try? FileManager.default.removeItem(at: script) }
        try Data("""
            wrk.method = "POST"
            wrk.headers["Content-Type"] = "application/json"
            wrk.body = [==[\(String(decoding: body, as: UTF8.self))]==]
            function done(summary, latency, requests)
              local e = summary.errors
              io.write(string.format('{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d}\\n',
                summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
                e.connect + e.read + e.write + e.status + e.timeout))
            end

            """.utf8).write(to: script)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t2", "-c16", "-d\(seconds)s", "--timeout", "5s", "-s", script.path, "http://127.0.0.1:\(port)\(path)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = text.split(separator: "\n").last(where: { $0.hasPrefix("{\"requests\"") }),
              let summary = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Int]
        else {
            throw LoadTestError("wrk failed (exit \(process.terminationStatus)):\n\(text)")
        }
        let requests = summary["requests"] ?? 0
        return Run(
            seconds: seconds, requests: requests,
            requestsPerSecond: Double(requests) / (Double(summary["duration_us"] ?? 1) / 1e6),
            p50Milliseconds: Double(summary["p50_us"] ?? 0) / 1000, p99Milliseconds: Double(summary["p99_us"] ?? 0) / 1000,
            errors: summary["errors"] ?? -1, peakResidentKiB: 0)
    }

    static func which(_ program: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

struct LoadTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The WebhookServer executable next to this test bundle, started with `PORT=0`; its port is read
/// from Hummingbird's "listening on" log line.
final class ServerProcess: Sendable {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    static func start(environment: [String: String]) async throws -> ServerProcess {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("WebhookServer")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw LoadTestError("no WebhookServer executable at \(executable.path): build it with swift build --package-path Examples")
        }
        let process = Process()
        process.executableURL = executable
        process.environment = ProcessInfo.processInfo.environment.merging(
            environment.merging(["HOST": "127.0.0.1", "PORT": "0", "LOG_LEVEL": "info"]) { $1 }) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()

        // Read until the "listening on 127.0.0.1:PORT" line; give up after 30 s.
        let handle = output.fileHandleForReading
        let port: Int? = await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                var seen = ""
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return nil }
                    seen += String(decoding: data, as: UTF8.self)
                    if let match = seen.firstMatch(of: /listening on 127\.0\.0\.1:([0-9]+)/) { return Int(match.1) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let port else {
            process.terminate()
            throw LoadTestError("WebhookServer did not say which port it listens on")
        }
        // Keep draining the output so the server never blocks on a full pipe.
        Thread.detachNewThread { while !handle.availableData.isEmpty {} }
        return ServerProcess(process: process, port: port)
    }

    var isRunning: Bool { process.isRunning }

    /// VmHWM of /proc/PID/status: the most resident memory the process has had, in KiB.
    func peakResidentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let match = status.firstMatch(of: /VmHWM:\s+([0-9]+) kB/), let kib = Int(match.1) else {
            throw LoadTestError("no VmHWM in /proc/\(process.processIdentifier)/status")
        }
        return kib
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
