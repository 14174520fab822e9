import IMWireCore
import IMWireBinary

/// A string field read in place: its UTF-8 bytes in the input, checked once when the view was made.
///
/// A collection of the UTF-8 bytes, so `count`, `first`, `starts(with:)`, `elementsEqual(_:)` and
/// iteration need no copy; compare it with a `String` with `==`, read it through ``withUTF8Span(_:)``,
/// ``withSpan(_:)`` or ``withUTF8(_:)``, and copy it out with `String(view)`. Valid only inside the view's closure.
public struct StringView: RandomAccessCollection, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let length: Int
    /// Whether the decoder found every byte ASCII (then a character is a byte).
    public let isASCII: Bool

    /// The value of an ``ArenaString`` word, over `input`.
    @inlinable @inline(__always)
    init(_ input: UnsafePointer<UInt8>, word: UInt64) {
        // [unsafe: view-bytes] a string word holds a range its decoder checked inside the bytes the view
        // reads: `offset + count <= inputCount < 2^32`.
        base = input + ArenaString.offset(word)
        length = ArenaString.count(word)
        isASCII = ArenaString.isASCII(word) || word == 0
    }

    public typealias Index = Int
    public typealias Indices = Range<Int>
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { length }
    @inlinable public var count: Int { length }
    @inlinable public var isEmpty: Bool { length == 0 }
    @inlinable public subscript(position: Int) -> UInt8 {
        // [unsafe: view-bytes] checked by the precondition: `position < length`.
        precondition(position >= 0 && position < length, "StringView index out of range")
        return base[position]
    }

    /// Calls `body` with the UTF-8 bytes (valid UTF-8; valid during the call).
    @inlinable
    public func withUTF8<Result, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> Result) throws(E) -> Result {
        // [unsafe: view-bytes] `base` and `length` are the checked range.
        try body(UnsafeBufferPointer(start: base, count: length))
    }

    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        // [unsafe: view-bytes] `base` and `length` are the checked range.
        try body(UnsafeBufferPointer(start: base, count: length))
    }

    #if compiler(>=6.2)
    /// Calls `body` with the UTF-8 bytes as a span (valid during the call).
    @inlinable
    public func withSpan<Result, E: Error>(_ body: (Span<UInt8>) throws(E) -> Result) throws(E) -> Result {
        // [unsafe: view-bytes] `base` and `length` are the checked range; the span lives for the call only.
        try body(Span(_unsafeStart: base, count: length))
    }

    /// Calls `body` with the string as a `UTF8Span`, not checked again: the view checked the bytes
    /// when it was made.
    @available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *)
    @inlinable
    public func withUTF8Span<Result, E: Error>(_ body: (UTF8Span) throws(E) -> Result) throws(E) -> Result {
        // [unsafe: validated-utf8] the decoder checked these bytes are UTF-8 (and all ASCII where `isASCII`)
        // when it made the view. [unsafe: view-bytes] `base` and `length` are the checked range.
        try body(UTF8Span(unchecked: Span(_unsafeStart: base, count: length), isKnownASCII: isASCII))
    }
    #endif

    /// An owned copy.
    public var description: String { String(self) }
    public var debugDescription: String { String(self).debugDescription }

    @inlinable
    public static func == (lhs: StringView, rhs: StringView) -> Bool {
        lhs.length == rhs.length && (lhs.base == rhs.base || lhs.elementsEqual(rhs))
    }

    /// Whether the view's bytes are the UTF-8 of `string`.
    @inlinable
    public static func == (lhs: StringView, rhs: String) -> Bool {
        // [unsafe: view-bytes] `memcmpEqual` runs only when both are `lhs.length` bytes long and not empty,
        // so `utf8.baseAddress` is there.
        var string = rhs
        return string.withUTF8 { utf8 in
            utf8.count == lhs.length && (lhs.length == 0 || memcmpEqual(lhs.base, utf8.baseAddress!, lhs.length))
        }
    }

    @inlinable
    public static func == (lhs: String, rhs: StringView) -> Bool { rhs == lhs }
    @inlinable
    public static func != (lhs: StringView, rhs: String) -> Bool { !(lhs == rhs) }
    @inlinable
    public static func != (lhs: String, rhs: StringView) -> Bool { !(rhs == lhs) }

    public func hash(into hasher: inout Hasher) {
        // [unsafe: view-bytes] `base` and `length` are the checked range.
        hasher.combine(bytes: UnsafeRawBufferPointer(start: base, count: length))
    }
}

/// Byte equality of two buffers of `count` bytes.
@inlinable @inline(__always)
func memcmpEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    // [unsafe: view-bytes] both callers pass two buffers of at least `count` bytes.
    UnsafeBufferPointer(start: lhs, count: count).elementsEqual(UnsafeBufferPointer(start: rhs, count: count))
}

extension String {
    /// An owned copy of a string view (its bytes are known to be UTF-8: they are not checked again
    /// where the standard library allows it).
    public init(_ view: StringView) {
        self = view.withUTF8 { UTF8Validation.string(validated: $0, isASCII: view.isASCII) }
    }
}

extension StringView: _ViewListElement {
    @inlinable @inline(__always)
    public static func _element(of node: _ViewNode, at value: Int) -> StringView {
        // [unsafe: view-words] `value` is an entry's value word (``ViewList``).
        StringView(node.bytes, word: node.words[value])
    }
}

// A view points into memory that lives only as long as the closure that made it: it must not
// cross to another thread or task.
@available(*, unavailable) extension StringView: Sendable {}
