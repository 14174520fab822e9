import IMWireCLI

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it — the situation
/// of a server decoding on a worker thread (512 KiB must be enough for any input).
func runOnThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    guard let result = StackThread.run(stackSize: stackSize, body) else {
        fatalError("could not start a thread with a \(stackSize)-byte stack")
    }
    return result
}
