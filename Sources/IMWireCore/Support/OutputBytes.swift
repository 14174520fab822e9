#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where ``JSONTextWriter`` (and base64) put bytes: `[UInt8]`, or ``OutputBytes`` on the proto3
/// JSON writer's hot path.
@usableFromInline package protocol ByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteSink {
    @inline(__always)
    @inlinable
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    @inlinable
    package mutating func append(_ text: StaticString) {
        // [unsafe: output-bytes] A static string's UTF-8 is `utf8CodeUnitCount` bytes at `utf8Start`.
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inline(__always)
    @inlinable
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }
}

/// A growable byte buffer the writer owns outright: an append is a capacity check and a store,
/// without an array's uniqueness check and bookkeeping on every byte (a fifth of JSON encoding
/// time went there). Not a value type in spirit: the owner calls ``deallocate()`` exactly once,
/// after ``bytes()`` has copied out the result.
@usableFromInline package struct OutputBytes: ByteSink {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline package var count = 0

    @inlinable
    package init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    @inlinable
    package mutating func append(_ byte: UInt8) {
        // [unsafe: output-bytes] grown first when full, so `count < capacity`.
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    @inlinable
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        // [unsafe: output-bytes] Grown first when `capacity - count < bytes.count`.
        guard let source = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(to: count + bytes.count) }
        memcpy(base + count, source, bytes.count)
        count += bytes.count
    }

    /// Makes room for at least `needed` bytes in all, doubling.
    @inline(never)
    @inlinable
    mutating func grow(to needed: Int) {
        // [unsafe: output-bytes] the new block holds at least `needed >= count` bytes; the `count` written
        // ones are copied.
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// The bytes written so far, copied into an array.
    @inlinable
    package func bytes() -> [UInt8] {
        // [unsafe: output-bytes] the `count` bytes written.
        [UInt8](UnsafeBufferPointer(start: base, count: count))
    }

    @inlinable
    package func deallocate() { base.deallocate() }
}
