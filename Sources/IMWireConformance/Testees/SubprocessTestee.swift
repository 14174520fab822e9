#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A testee that is a program: `/bin/sh -c COMMAND`, speaking the framed protocol on its stdin and
/// stdout (Docs/conformance.md). It is started on the first request. A crash, a hang (no complete answer within
/// the case's timeout) or a malformed frame is reported as that case's outcome; the program is then
/// killed and started afresh for the next case. Its stderr is captured, case by case, for the report.
///
/// The timeout covers writing the request and reading the whole answer; for the first case after a
/// (re)start it includes the program's start-up.
public final class SubprocessTestee: Testee {
    /// The shell command line.
    public let command: String
    /// How many times the program has been started.
    public private(set) var startCount = 0

    private var child: ChildProcess?
    private var stdoutBuffer: [UInt8] = []
    private var stderrBuffer: [UInt8] = []
    private var stdoutClosed = false
    /// The most stderr kept per case: its tail.
    private let stderrLimit = 16 * 1024

    /// A testee that runs `/bin/sh -c command` when it is first needed.
    public init(command: String) {
        self.command = command
    }

    /// The command line.
    public var description: String { command }

    /// Writes the framed request, reads the framed answer; starts the program first if needed.
    public func respond(to request: ConformanceRequest, timeout: Duration) -> TesteeOutcome {
        stderrBuffer = []
        if child == nil {
            do {
                child = try ChildProcess.spawn(shellCommand: command)
                startCount += 1
                stdoutBuffer = []
                stdoutClosed = false
            } catch {
                return TesteeOutcome(.crashed("it could not be started: \(error)"))
            }
        }
        guard let child else { return TesteeOutcome(.crashed("it could not be started")) }

        if !stdoutBuffer.isEmpty {
            // Nothing may arrive between a response and the next request.
            let outcome = TesteeOutcome.Kind.malformedFrame(
                "it wrote \(stdoutBuffer.count) unexpected bytes after its previous response: \(Shorten.hex(stdoutBuffer))")
            return end(child, with: outcome)
        }

        let frame = Framing.frame(Framing.encode(request))
        var written = 0
        var stdinBroken = false
        let deadline = ContinuousClock.now + timeout

        while true {
            if stdoutBuffer.count >= 4 {
                let length = Framing.length(stdoutBuffer.prefix(4))
                if length > Framing.maxFrameSize {
                    return end(child, with: .malformedFrame(
                        "its length prefix \(Shorten.hex(stdoutBuffer.prefix(4))) announces \(length) bytes, more than the limit of \(Framing.maxFrameSize)"))
                }
                if stdoutBuffer.count >= 4 + length {
                    let body = Array(stdoutBuffer[4..<(4 + length)])
                    stdoutBuffer.removeFirst(4 + length)
                    drainStderr(child, waitingUpTo: .zero)
                    if !stdoutBuffer.isEmpty {
                        return end(child, with: .malformedFrame(
                            "it wrote \(stdoutBuffer.count) unexpected bytes after the response frame: \(Shorten.hex(stdoutBuffer))"))
                    }
                    do {
                        let response = try Framing.decode(ConformanceResponse.self, from: body)
                        return TesteeOutcome(.response(response), stderr: stderrText)
                    } catch where error.code == .invalidUTF8 {
                        // Every string of a ConformanceResponse is an error text: the frame is
                        // intact and the testee in step, so only this case fails.
                        return TesteeOutcome(.invalidResponse(
                            "error strings must be UTF-8, and its \(length)-byte response has one that is not (\(error.reason)): \(Shorten.hex(body))"),
                            stderr: stderrText)
                    } catch {
                        return end(child, with: .malformedFrame(
                            "its \(length)-byte frame is not a ConformanceResponse (\(error)): \(Shorten.hex(body))"))
                    }
                }
            }
            if stdoutClosed {
                let partial = stdoutBuffer.isEmpty
                    ? "before answering"
                    : "after \(stdoutBuffer.count) bytes of a response frame (\(Shorten.hex(stdoutBuffer)))"
                child.reap(waitingUpTo: .seconds(2))
                let how = child.waitStatus == nil ? "it closed its stdout \(partial) but kept running" : "it \(child.endDescription) \(partial)"
                return end(child, with: .crashed(how))
            }
            let now = ContinuousClock.now
            if now >= deadline {
                return end(child, with: .timedOut(timeout))
            }

            var descriptors: [pollfd] = [pollfd(fd: child.stdoutDescriptor, events: Int16(POLLIN), revents: 0)]
            if child.stderrDescriptor >= 0 {
                descriptors.append(pollfd(fd: child.stderrDescriptor, events: Int16(POLLIN), revents: 0))
            }
            let writing = written < frame.count && !stdinBroken
            if writing {
                descriptors.append(pollfd(fd: child.stdinDescriptor, events: Int16(POLLOUT), revents: 0))
            }
            let remaining = deadline - now
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return end(child, with: .crashed("it could not be polled: \(String(cString: strerror(errno)))"))
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                if descriptor.fd == child.stdinDescriptor {
                    let count = frame.withUnsafeBytes { write(descriptor.fd, $0.baseAddress! + written, frame.count - written) }
                    if count > 0 {
                        written += count
                    } else if count < 0 && errno != EAGAIN && errno != EINTR {
                        // EPIPE: the testee closed its stdin, probably by dying; its stdout will tell.
                        stdinBroken = true
                    }
                } else if descriptor.fd == child.stdoutDescriptor {
                    if readAvailable(descriptor.fd, into: &stdoutBuffer, limit: Int.max) == 0 { stdoutClosed = true }
                } else if descriptor.fd == child.stderrDescriptor {
                    if readAvailable(descriptor.fd, into: &stderrBuffer, limit: stderrLimit) == 0 { child.closeStderr() }
                }
            }
        }
    }

    /// Closes the program's stdin, waits up to 2 s for it to exit, then kills it.
    public func shutdown() {
        guard let child else { return }
        child.closeStdin()
        if !child.reap(waitingUpTo: .seconds(2)) {
            child.kill()
            child.reap(waitingUpTo: .seconds(5))
        }
        self.child = nil
    }

    /// Ends the current process after a crash, hang or framing error, collecting the rest of its
    /// stderr, and returns `kind` with that stderr. The next request starts a new process.
    private func end(_ child: ChildProcess, with kind: TesteeOutcome.Kind) -> TesteeOutcome {
        child.closeStdin()
        if case .crashed = kind {} else {
            child.kill()
        }
        drainStderr(child, waitingUpTo: .milliseconds(300))
        child.kill()
        child.reap(waitingUpTo: .seconds(5))
        self.child = nil
        stdoutBuffer = []
        return TesteeOutcome(kind, stderr: stderrText)
    }

    /// Reads what the child has written to stderr, until it closes it or `timeout` passes.
    private func drainStderr(_ child: ChildProcess, waitingUpTo timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        while child.stderrDescriptor >= 0 {
            let count = readAvailable(child.stderrDescriptor, into: &stderrBuffer, limit: stderrLimit)
            if count == 0 {
                child.closeStderr()
                return
            }
            if count < 0 {
                // Nothing available now.
                if ContinuousClock.now >= deadline { return }
                var descriptor = pollfd(fd: child.stderrDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 20)
            }
        }
    }

    /// Reads what is available without blocking (at most 1 MiB, so a testee that writes without end
    /// cannot keep the caller from its checks), keeping at most the last `limit` bytes. Returns the
    /// number of bytes read, 0 at end of file, -1 if nothing was available.
    private func readAvailable(_ descriptor: Int32, into buffer: inout [UInt8], limit: Int) -> Int {
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while total < 1024 * 1024 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                if buffer.count > limit { buffer.removeFirst(buffer.count - limit) }
                total += count
                continue
            }
            if count == 0 { return total > 0 ? total : 0 }
            if errno == EINTR { continue }
            return total > 0 ? total : -1
        }
        return total
    }

    private var stderrText: String { String(decoding: stderrBuffer, as: UTF8.self) }

    deinit {
        shutdown()
    }
}
