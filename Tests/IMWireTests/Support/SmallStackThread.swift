import Foundation

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it — the situation
/// of a server decoding on a worker thread (512 KiB must be enough for any input). Foundation's
/// `Thread`, so the library's tests need nothing beyond the toolchain (the CLI's own `StackThread`
/// is tested with the CLI).
func runOnThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let result = ThreadResult<T>()
    let thread = Thread {
        result.value = body()
        result.done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    result.done.wait()
    guard let value = result.value else { fatalError("the \(stackSize)-byte thread returned nothing") }
    return value
}

/// What the thread hands back; the semaphore orders the write before the read.
private final class ThreadResult<T>: @unchecked Sendable {
    var value: T?
    let done = DispatchSemaphore(value: 0)
}
