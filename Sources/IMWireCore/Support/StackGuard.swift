import CIMWireUTF8
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a recursive descent from running off the end of its thread's stack.
///
/// The depth limits (``BinaryDecodingOptions/maxDepth`` and its kin) bound nesting, and the default
/// limits fit a 512 KiB thread stack with room to spare. A caller may raise a limit, though, or
/// decode on a thread with a small stack; then the nesting the limit admits may need more stack than
/// the thread has. Each recursive step asks the guard, which compares the current stack position with
/// the thread's stack bounds (read from the system once, and only when nesting gets deep) and throws
/// `depth_limit_exceeded` — instead of letting the process die — when less than ``reserve`` bytes
/// would be left.
@usableFromInline package struct StackGuard {
    /// Bytes kept free below the deepest check: enough for one more nesting level of any codec
    /// (about 2 KiB at most) and for the error's own work, with a wide margin.
    @usableFromInline package static let reserve = 32 * 1024
    /// Levels shallower than this are not checked: every codec's first levels fit in any stack a
    /// thread can have (16 KiB), and reading the stack bounds costs a system call.
    @usableFromInline package static let uncheckedLevels = 16

    /// The lowest address a frame may use; 0 until it is read.
    private var limit: UInt = 0

    @inlinable
    package init() {}

    /// Throws `depth_limit_exceeded` when the stack, at nesting level `depth`, has less than
    /// ``reserve`` bytes left. `offset` or `path` locate the error like the codec's own.
    @inline(__always)
    @inlinable
    package mutating func check(depth: Int, offset: Int? = nil, path: @autoclosure () -> String? = nil) throws(IMWireError) {
        guard depth >= Self.uncheckedLevels else { return }
        if !checkStack() {
            throw .stackExhausted(depth: depth, offset: offset, path: path())
        }
    }

    /// Whether the current frame is above the limit.
    @inline(never)
    @usableFromInline mutating func checkStack() -> Bool {
        if limit == 0 { limit = Self.threadLimit() }
        // The frame's address, not a local's: under AddressSanitizer locals live on the heap.
        return UInt(imwire_stack_position()) >= limit
    }

    /// ``lowestUsableAddress()`` for the current thread, read once per thread: on a process's main
    /// thread glibc finds the stack by reading `/proc/self/maps`, a file read that costs more than
    /// decoding a small message, so a guard made per decode must not repeat it.
    private static func threadLimit() -> UInt {
        #if canImport(Glibc)
        if let cached = pthread_getspecific(limitKey) { return UInt(bitPattern: cached) }
        let limit = lowestUsableAddress()
        pthread_setspecific(limitKey, UnsafeRawPointer(bitPattern: limit))
        return limit
        #else
        return lowestUsableAddress()
        #endif
    }

    #if canImport(Glibc)
    /// The thread-specific slot of ``threadLimit()`` (never 0 once set: the limit is at least 1).
    private static let limitKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for the stack guard")
        return key
    }()
    #endif

    /// The lowest address of the current thread's stack plus ``reserve``; 1 (no limit) where the
    /// system does not say.
    private static func lowestUsableAddress() -> UInt {
        #if canImport(Glibc)
        var attributes = pthread_attr_t()
        guard imwire_pthread_getattr_np(pthread_self(), &attributes) == 0 else { return 1 }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return 1 }
        return UInt(bitPattern: address) + UInt(reserve)
        #elseif canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        let size = UInt(pthread_get_stacksize_np(pthread_self()))
        return top - size + UInt(reserve)
        #else
        return 1
        #endif
    }
}

#if canImport(Glibc)
/// glibc's `pthread_getattr_np`, which Swift's Glibc module leaves out (it is a GNU extension):
/// the attributes of a running thread, its stack's address and size among them.
@_silgen_name("pthread_getattr_np")
private func imwire_pthread_getattr_np(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
#endif
