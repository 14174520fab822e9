import IMWireCore
import IMWireBinary

/// A bytes field read in place: a collection of its bytes in the input. Copy it out with
/// `Array(view)`. Valid only inside the view's closure.
public struct BytesView: RandomAccessCollection, Hashable {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let length: Int

    @inlinable @inline(__always)
    init(_ input: UnsafePointer<UInt8>, word: UInt64) {
        // [unsafe: view-bytes] a string or bytes word holds a range its decoder checked inside the bytes the
        // view reads (the input, or the JSON view's copy of it, as long as the input): `offset + count <=
        // inputCount < 2^32`.
        base = input + ArenaString.offset(word)
        length = ArenaString.count(word)
    }

    public typealias Index = Int
    public typealias Indices = Range<Int>
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { length }
    @inlinable public var count: Int { length }
    @inlinable public var isEmpty: Bool { length == 0 }
    @inlinable public subscript(position: Int) -> UInt8 {
        // [unsafe: view-bytes] checked by the precondition: `position < length`.
        precondition(position >= 0 && position < length, "BytesView index out of range")
        return base[position]
    }

    /// Calls `body` with the bytes (valid during the call).
    @inlinable
    public func withUnsafeBytes<Result, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Result) throws(E) -> Result {
        // [unsafe: view-bytes] `base` and `length` are the checked range.
        try body(UnsafeRawBufferPointer(start: base, count: length))
    }

    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        // [unsafe: view-bytes] `base` and `length` are the checked range.
        try body(UnsafeBufferPointer(start: base, count: length))
    }

    #if compiler(>=6.2)
    /// Calls `body` with the bytes as a span (valid during the call).
    @inlinable
    public func withSpan<Result, E: Error>(_ body: (RawSpan) throws(E) -> Result) throws(E) -> Result {
        // [unsafe: view-bytes] `base` and `length` are the checked range; the span lives for the call only.
        try body(RawSpan(_unsafeStart: UnsafeRawPointer(base), byteCount: length))
    }
    #endif
    @inlinable
    public static func == (lhs: BytesView, rhs: BytesView) -> Bool {
        lhs.length == rhs.length && (lhs.base == rhs.base || lhs.elementsEqual(rhs))
    }

    public func hash(into hasher: inout Hasher) {
        // [unsafe: view-bytes] `base` and `length` are the checked range.
        hasher.combine(bytes: UnsafeRawBufferPointer(start: base, count: length))
    }
}

// A view points into memory that lives only as long as the closure that made it: it must not
// cross to another thread or task.
@available(*, unavailable) extension BytesView: Sendable {}
