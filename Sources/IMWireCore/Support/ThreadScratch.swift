#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffer each thread keeps from one use to the next, so that a decode or an encode allocates only
/// what it returns (the arena decoder builds its words in one, the binary writer its bytes). A buffer
/// that grew past `keptCapacity` for one large input is freed after that use instead of being kept.
///
/// `take()` moves the thread's buffer out of its slot and `giveBack(_:capacity:)` returns it, so a
/// nested use on the same thread (a view made inside another view's closure) gets a fresh buffer
/// rather than share one.
///
/// [unsafe: thread-scratch] `@unchecked Sendable`: the object holds only its pthread key and two
/// constants; each thread's buffer is reached through the key, by that thread alone.
@usableFromInline package final class ThreadScratch<Element: BitwiseCopyable>: @unchecked Sendable {
    @usableFromInline typealias Slot = (buffer: UnsafeMutableRawPointer?, capacity: Int)

    @usableFromInline let key: pthread_key_t
    @usableFromInline let initialCapacity: Int
    /// The largest buffer the thread keeps for the next use.
    @usableFromInline package let keptCapacity: Int

    init(initialCapacity: Int, keptCapacity: Int) {
        // [unsafe: thread-scratch] the key's destructor gets the thread's slot (a pointer this type
        // allocated), frees its buffer and the slot, once, when the thread ends.
        self.initialCapacity = initialCapacity
        self.keptCapacity = keptCapacity
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            guard let slot = pointer?.assumingMemoryBound(to: Slot.self) else { return }
            free(slot.pointee.buffer)
            slot.deallocate()
        }
        precondition(created == 0, "no thread-specific key left for a scratch buffer")
        self.key = key
    }

    @inline(__always)
    @inlinable func slot() -> UnsafeMutablePointer<Slot> {
        // [unsafe: thread-scratch] a thread's slot is allocated once, initialised, and only that thread reads
        // it (thread-specific data).
        if let existing = pthread_getspecific(key) { return existing.assumingMemoryBound(to: Slot.self) }
        let slot = UnsafeMutablePointer<Slot>.allocate(capacity: 1)
        slot.initialize(to: (nil, 0))
        pthread_setspecific(key, slot)
        return slot
    }

    /// The thread's buffer, or a new one of the initial capacity.
    @inline(__always)
    @inlinable
    package func take() -> (buffer: UnsafeMutablePointer<Element>, capacity: Int) {
        // [unsafe: thread-scratch] the buffer moves out of the slot (which is left empty), so no other use on
        // this thread can take it until it is given back; its capacity is the one recorded with it.
        let slot = slot()
        if let buffer = slot.pointee.buffer {
            let capacity = slot.pointee.capacity
            slot.pointee = (nil, 0)
            return (buffer.assumingMemoryBound(to: Element.self), capacity)
        }
        return (ScratchMemory.allocate(initialCapacity), initialCapacity)
    }

    /// Returns a buffer from ``take()`` (or one that replaced it when it grew) to the thread, or
    /// frees it.
    @inline(__always)
    @inlinable
    package func giveBack(_ buffer: UnsafeMutablePointer<Element>, capacity: Int) {
        // [unsafe: thread-scratch] a buffer comes back once, with its capacity; it is kept only when the slot
        // is empty, otherwise freed.
        let slot = slot()
        guard capacity <= keptCapacity, slot.pointee.buffer == nil else {
            ScratchMemory.release(buffer)
            return
        }
        slot.pointee = (UnsafeMutableRawPointer(buffer), capacity)
    }
}

/// The thread buffers of the binary codec. Each starts at 4 KiB, enough for a chat message (a view
/// of one takes about 100 words; its encoding a few hundred bytes), and grows in place for a larger
/// one: a server's every thread keeps one of each, so a larger start is memory held for nothing.
@usableFromInline package enum Scratch {
    /// The arena decoder's words (4 KiB to start; kept up to 1 MiB).
    @usableFromInline package static let words = ThreadScratch<UInt64>(initialCapacity: 512, keptCapacity: 1 << 17)
    /// The binary writer's bytes (4 KiB to start; kept up to 1 MiB).
    @usableFromInline package static let bytes = ThreadScratch<UInt8>(initialCapacity: 4096, keptCapacity: 1 << 20)
}

/// The C allocator behind the scratch buffers (and the words a large decode's storage adopts), so
/// they can grow in place: `realloc` moves a large block by remapping its pages, not by copying, and
/// never needs the old and the new block at once.
@usableFromInline package enum ScratchMemory {
    @inlinable
    package static func allocate<T>(_ count: Int) -> UnsafeMutablePointer<T> {
        // [unsafe: thread-scratch] `malloc` of `count` elements (at least one), bound to `T`, a trivial type.
        guard let memory = malloc(max(1, count) * MemoryLayout<T>.stride) else { fatalError("out of memory") }
        return memory.bindMemory(to: T.self, capacity: count)
    }

    /// `pointer`'s block resized to `count` elements (moved if need be, keeping its contents).
    @inlinable
    package static func resize<T>(_ pointer: UnsafeMutablePointer<T>, to count: Int) -> UnsafeMutablePointer<T> {
        // [unsafe: thread-scratch] `realloc` keeps the contents up to the smaller size; the old pointer is
        // not used again by any caller.
        guard let memory = realloc(pointer, max(1, count) * MemoryLayout<T>.stride) else { fatalError("out of memory") }
        return memory.bindMemory(to: T.self, capacity: count)
    }

    @inlinable
    package static func release<T>(_ pointer: UnsafeMutablePointer<T>) {
        free(pointer)
    }
}
