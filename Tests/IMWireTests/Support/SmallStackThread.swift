#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it — the situation
/// of a server decoding on a worker thread (SPEC §2.1: 512 KB must be enough for any input).
func runOnThread(stackSize: Int, _ body: @escaping @Sendable () -> String) -> String {
    let box = ThreadBox()
    box.body = body
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0, "stack size rejected")
    let context = Unmanaged.passRetained(box).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let created = pthread_create(&thread, &attributes, { raw in
        let box = Unmanaged<ThreadBox>.fromOpaque(raw!).takeRetainedValue()
        box.result = box.body!()
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

private final class ThreadBox: @unchecked Sendable {
    var body: (@Sendable () -> String)?
    var result: String?
}
