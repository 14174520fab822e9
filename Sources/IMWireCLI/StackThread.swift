#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs work on a new thread with a stack of a chosen size and waits for the result. The CLI runs
/// every command this way, with a stack sized for `--max-depth`, so a raised depth limit can never
/// overflow the main thread's stack; tests use it to decode on a 512 KiB worker-sized stack.
public enum StackThread {
    /// Stack bytes the CLI reserves per allowed nesting level. Optimised builds use about 1.1 KiB
    /// per level, unoptimised (debug) ones about 10 KiB. Reserving no more than that leaves the
    /// address space to the heap (a `--max-depth 20000` run reserves 47 MiB, not 320 MiB).
    #if DEBUG
    public static let bytesPerLevel = 16 * 1024
    #else
    public static let bytesPerLevel = 2 * 1024
    #endif

    /// The smallest stack ``runPreferring(stackSize:_:)`` falls back to (the main thread's usual size).
    public static let fallbackStackSize = 8 * 1024 * 1024

    /// Runs `body` on a thread whose stack is `stackSize` bytes and returns its result, or `nil`
    /// when the system cannot make such a thread (the stack cannot be reserved, too many threads).
    public static func run<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return nil }
        let box = Box<T>(body)
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
        guard created == 0 else {
            Unmanaged<Box<T>>.fromOpaque(context).release()
            return nil
        }
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        pthread_join(thread!, nil)
        #endif
        return box.result
    }

    /// Runs `body` on a thread with a `stackSize`-byte stack, or the largest smaller one the system
    /// grants (halving down to ``fallbackStackSize``), or else on the calling thread. Never fails:
    /// the codecs check the stack that remains as they nest (a depth they cannot reach on the stack
    /// they got is `depth_limit_exceeded`, not a crash), so a smaller stack only lowers the depth
    /// reached.
    public static func runPreferring<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
        var size = stackSize
        while true {
            if let result = run(stackSize: size, body) { return result }
            if size <= fallbackStackSize { return body() }
            size = max(size / 2, fallbackStackSize)
        }
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
