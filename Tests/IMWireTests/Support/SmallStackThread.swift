import IMWireCLI

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it — the situation
/// of a server decoding on a worker thread (SPEC §2.1: 512 KB must be enough for any input).
func runOnThread(stackSize: Int, _ body: @escaping @Sendable () -> String) -> String {
    StackThread.run(stackSize: stackSize, body)
}
