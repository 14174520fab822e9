#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs work on a new thread with a stack of a chosen size and waits for the result. The CLI runs
/// every command this way, with a stack sized for `--max-depth`, so a raised depth limit can never
/// overflow the main thread's stack; tests use it to decode on a 512 KiB worker-sized stack.
public enum StackThread {
    /// Stack bytes the CLI reserves per allowed nesting level: generous, because unoptimised (debug)
    /// builds need about 10 KiB per level where optimised ones need 1–2 KiB.
    public static let bytesPerLevel = 16 * 1024

    /// Runs `body` on a thread whose stack is `stackSize` bytes and returns its result.
    public static func run<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
        let box = Box<T>(body)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0, "stack size \(stackSize) rejected")
        let context = Unmanaged.passRetained(box).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let created = pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<AnyObject>.fromOpaque(raw!).takeRetainedValue() as! Runnable
            box.run()
            return nil
        }, context)
        precondition(created == 0, "pthread_create failed")
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        pthread_join(thread!, nil)
        #endif
        return box.result!
    }
}

private protocol Runnable: AnyObject {
    func run()
}

private final class Box<T: Sendable>: Runnable, @unchecked Sendable {
    let body: @Sendable () -> T
    var result: T?

    init(_ body: @escaping @Sendable () -> T) { self.body = body }

    func run() { result = body() }
}
