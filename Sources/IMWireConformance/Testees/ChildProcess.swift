import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Held while pipes are created and the child spawned: Glibc's Swift module does not export `pipe2`,
/// so close-on-exec is set after `pipe`, and no other spawn of ours may run in between (it would
/// inherit the new pipe ends, and the testee would never see the end of its input).
private let spawnLock = NSLock()

/// A child process running `/bin/sh -c COMMAND` with pipes on its stdin, stdout and stderr (the
/// parent's ends non-blocking and close-on-exec), in its own process group so that killing it also
/// kills whatever the shell started.
final class ChildProcess {
    let pid: pid_t
    private(set) var stdinDescriptor: Int32
    private(set) var stdoutDescriptor: Int32
    private(set) var stderrDescriptor: Int32
    /// The raw wait status once the child has been reaped.
    private(set) var waitStatus: Int32?

    private init(pid: pid_t, stdin: Int32, stdout: Int32, stderr: Int32) {
        self.pid = pid
        stdinDescriptor = stdin
        stdoutDescriptor = stdout
        stderrDescriptor = stderr
    }

    /// Starts `/bin/sh -c command`. Throws a message if the pipes or the spawn fail.
    static func spawn(shellCommand command: String) throws(ConformanceSetupError) -> ChildProcess {
        // A testee that dies while we write its request must not kill the runner with SIGPIPE: the
        // write fails with EPIPE instead, and the death is reported.
        _ = signal(SIGPIPE, SIG_IGN)

        spawnLock.lock()
        defer { spawnLock.unlock() }
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard makePipe(&input), makePipe(&output), makePipe(&errors) else {
            let reason = String(cString: strerror(errno))
            for descriptor in input + output + errors where descriptor >= 0 { close(descriptor) }
            throw ConformanceSetupError("cannot create pipes for the testee: \(reason)")
        }

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // dup2 clears close-on-exec on the child's 0, 1 and 2; every other pipe end stays closed in it.
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // Own process group; SIGPIPE back to its default (we ignore it); no blocked signals.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
        close(input[0])
        close(output[1])
        close(errors[1])
        guard status == 0 else {
            close(input[1])
            close(output[0])
            close(errors[0])
            throw ConformanceSetupError("cannot start /bin/sh -c \(command): \(String(cString: strerror(status)))")
        }
        for descriptor in [input[1], output[0], errors[0]] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return ChildProcess(pid: pid, stdin: input[1], stdout: output[0], stderr: errors[0])
    }

    private static func makePipe(_ descriptors: inout [Int32]) -> Bool {
        guard pipe(&descriptors) == 0 else { return false }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return true
    }

    func closeStdin() {
        if stdinDescriptor >= 0 { close(stdinDescriptor) }
        stdinDescriptor = -1
    }

    func closeStdout() {
        if stdoutDescriptor >= 0 { close(stdoutDescriptor) }
        stdoutDescriptor = -1
    }

    func closeStderr() {
        if stderrDescriptor >= 0 { close(stderrDescriptor) }
        stderrDescriptor = -1
    }

    /// SIGKILL to the child's process group.
    func kill() {
        if waitStatus == nil { _ = signalProcessGroup(-pid, SIGKILL) }
    }

    /// Reaps the child if it has exited, waiting up to `timeout`. Returns whether it has.
    @discardableResult
    func reap(waitingUpTo timeout: Duration) -> Bool {
        if waitStatus != nil { return true }
        let deadline = ContinuousClock.now + timeout
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                waitStatus = status
                return true
            }
            if result < 0 && errno != EINTR {
                waitStatus = -1
                return true
            }
            if ContinuousClock.now >= deadline { return false }
            usleep(2_000)
        }
    }

    /// How the child ended, e.g. `exited with status 1`, `was killed by signal 11 (Segmentation fault)`.
    var endDescription: String {
        guard let status = waitStatus else { return "is still running" }
        if status == -1 { return "ended (its status could not be read)" }
        let signal = status & 0x7F
        if signal == 0 {
            let code = (status >> 8) & 0xFF
            // A shell running the command reports a child killed by signal N as exit status 128 + N.
            if code > 128 && code < 128 + 65 {
                return "exited with status \(code) (a shell's way of saying: killed by signal \(code - 128), \(String(cString: strsignal(code - 128))))"
            }
            return "exited with status \(code)"
        }
        return "was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
    }

    deinit {
        closeStdin()
        closeStdout()
        closeStderr()
        if waitStatus == nil {
            kill()
            reap(waitingUpTo: .seconds(5))
        }
    }
}

// `kill` is also a method name here.
@inline(__always)
private func signalProcessGroup(_ pid: pid_t, _ signal: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.kill(pid, signal)
    #else
    Darwin.kill(pid, signal)
    #endif
}
