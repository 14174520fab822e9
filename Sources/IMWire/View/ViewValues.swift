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
        base = input + Int(truncatingIfNeeded: word & 0xFFFF_FFFF)
        length = Int(truncatingIfNeeded: (word >> 32) & 0x7FFF_FFFF)
        isASCII = word >> 63 != 0 || word == 0
    }

    public typealias Index = Int
    public typealias Indices = Range<Int>
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { length }
    @inlinable public var count: Int { length }
    @inlinable public var isEmpty: Bool { length == 0 }
    @inlinable public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < length, "StringView index out of range")
        return base[position]
    }

    /// Calls `body` with the UTF-8 bytes (valid UTF-8; valid during the call).
    @inlinable
    public func withUTF8<Result, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> Result) throws(E) -> Result {
        try body(UnsafeBufferPointer(start: base, count: length))
    }

    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(UnsafeBufferPointer(start: base, count: length))
    }

    #if compiler(>=6.2)
    /// Calls `body` with the UTF-8 bytes as a span (valid during the call).
    @inlinable
    public func withSpan<Result, E: Error>(_ body: (Span<UInt8>) throws(E) -> Result) throws(E) -> Result {
        try body(Span(_unsafeStart: base, count: length))
    }

    /// Calls `body` with the string as a `UTF8Span`, not checked again: the view checked the bytes
    /// when it was made.
    @available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *)
    @inlinable
    public func withUTF8Span<Result, E: Error>(_ body: (UTF8Span) throws(E) -> Result) throws(E) -> Result {
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
        hasher.combine(bytes: UnsafeRawBufferPointer(start: base, count: length))
    }
}

/// Byte equality of two buffers of `count` bytes.
@inlinable @inline(__always)
func memcmpEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    UnsafeBufferPointer(start: lhs, count: count).elementsEqual(UnsafeBufferPointer(start: rhs, count: count))
}

extension String {
    /// An owned copy of a string view (its bytes are known to be UTF-8: they are not checked again
    /// where the standard library allows it).
    public init(_ view: StringView) {
        self = view.withUTF8 { UTF8Validation.string(validated: $0, isASCII: view.isASCII) }
    }
}

/// A bytes field read in place: a collection of its bytes in the input. Copy it out with
/// `Array(view)`. Valid only inside the view's closure.
public struct BytesView: RandomAccessCollection, Hashable {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let length: Int

    @inlinable @inline(__always)
    init(_ input: UnsafePointer<UInt8>, word: UInt64) {
        base = input + Int(truncatingIfNeeded: word & 0xFFFF_FFFF)
        length = Int(truncatingIfNeeded: (word >> 32) & 0x7FFF_FFFF)
    }

    public typealias Index = Int
    public typealias Indices = Range<Int>
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { length }
    @inlinable public var count: Int { length }
    @inlinable public var isEmpty: Bool { length == 0 }
    @inlinable public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < length, "BytesView index out of range")
        return base[position]
    }

    /// Calls `body` with the bytes (valid during the call).
    @inlinable
    public func withUnsafeBytes<Result, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Result) throws(E) -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: length))
    }

    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(UnsafeBufferPointer(start: base, count: length))
    }

    #if compiler(>=6.2)
    /// Calls `body` with the bytes as a span (valid during the call).
    @inlinable
    public func withSpan<Result, E: Error>(_ body: (RawSpan) throws(E) -> Result) throws(E) -> Result {
        try body(RawSpan(_unsafeStart: UnsafeRawPointer(base), byteCount: length))
    }
    #endif
    @inlinable
    public static func == (lhs: BytesView, rhs: BytesView) -> Bool {
        lhs.length == rhs.length && (lhs.base == rhs.base || lhs.elementsEqual(rhs))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes: UnsafeRawBufferPointer(start: base, count: length))
    }
}

/// What a ``ViewList`` holds: message views and string views. Only IMWire's types conform.
public protocol _ViewListElement {
    /// Implementation detail: the element whose value starts at word `value` of `node`'s decode.
    static func _element(of node: _ViewNode, at value: Int) -> Self
}

extension StringView: _ViewListElement {
    @inlinable @inline(__always)
    public static func _element(of node: _ViewNode, at value: Int) -> StringView {
        StringView(node.bytes, word: node.words[value])
    }
}

/// A repeated field read in place: a collection of views (``Elem/View``, ``StringView``…), in wire
/// order. Walking it is O(1) a step; `count` walks it (O(n)), `isEmpty` does not. Valid only inside
/// the view's closure.
public struct ViewList<Element: _ViewListElement>: Collection {
    @usableFromInline let node: _ViewNode
    /// First entry | last entry << 32 (0: empty).
    @usableFromInline let links: UInt64

    @inlinable @inline(__always)
    init(_ node: _ViewNode, links: UInt64) {
        self.node = node
        self.links = links
    }

    /// A position in the list: the word of an entry (0: the end).
    public struct Index: Comparable {
        @usableFromInline let entry: Int
        /// The entry's place in the list (the end's is `Int.max`), so that positions compare.
        @usableFromInline let ordinal: Int
        @inlinable init(entry: Int, ordinal: Int) {
            self.entry = entry
            self.ordinal = ordinal
        }
        @inlinable public static func < (lhs: Index, rhs: Index) -> Bool { lhs.ordinal < rhs.ordinal }
        @inlinable public static func == (lhs: Index, rhs: Index) -> Bool { lhs.ordinal == rhs.ordinal }
    }

    @inlinable public var startIndex: Index {
        let first = Int(truncatingIfNeeded: links & 0xFFFF_FFFF)
        return first == 0 ? endIndex : Index(entry: first, ordinal: 0)
    }
    @inlinable public var endIndex: Index { Index(entry: 0, ordinal: .max) }
    @inlinable public var isEmpty: Bool { links == 0 }

    @inlinable @inline(__always)
    public func index(after position: Index) -> Index {
        precondition(position.entry != 0, "ViewList: advancing past the end")
        let next = Int(truncatingIfNeeded: node.words[position.entry])
        return next == 0 ? endIndex : Index(entry: next, ordinal: position.ordinal &+ 1)
    }

    @inlinable @inline(__always)
    public subscript(position: Index) -> Element {
        precondition(position.entry != 0, "ViewList: subscript at the end")
        // An entry is [next][previous][value…].
        return Element._element(of: node, at: position.entry &+ 2)
    }

    /// The last element, found from the list's tail in O(1).
    @inlinable
    public var last: Element? {
        let tail = Int(truncatingIfNeeded: links >> 32)
        return tail == 0 ? nil : Element._element(of: node, at: tail &+ 2)
    }
}

/// A `map<string, bytes>` field read in place: its entries in wire order, a key given twice
/// appearing twice (the owned ``StringBytesMap`` keeps the last; so does ``subscript(_:)``). Valid
/// only inside the view's closure.
public struct StringBytesMapView: Sequence {
    public typealias Element = (key: StringView, value: BytesView)

    @usableFromInline let list: ViewList<MapEntry>

    @inlinable init(list: ViewList<MapEntry>) { self.list = list }

    /// An entry: two words, the key's and the value's.
    public struct MapEntry: _ViewListElement {
        @usableFromInline let key: StringView
        @usableFromInline let value: BytesView
        @inlinable @inline(__always)
        public static func _element(of node: _ViewNode, at value: Int) -> MapEntry {
            MapEntry(key: StringView(node.bytes, word: node.words[value]), value: BytesView(node.bytes, word: node.words[value &+ 1]))
        }
        @inlinable init(key: StringView, value: BytesView) {
            self.key = key
            self.value = value
        }
    }

    public struct Iterator: IteratorProtocol {
        @usableFromInline var base: IndexingIterator<ViewList<MapEntry>>
        @inlinable init(base: IndexingIterator<ViewList<MapEntry>>) { self.base = base }
        @inlinable public mutating func next() -> Element? {
            base.next().map { ($0.key, $0.value) }
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(base: list.makeIterator()) }
    @inlinable public var isEmpty: Bool { list.isEmpty }

    /// The value of `key` (the last one given on the wire), or `nil`.
    public subscript(key: String) -> BytesView? {
        var found: BytesView?
        for entry in self where entry.key == key { found = entry.value }
        return found
    }
}

/// A message's unknown fields read in place: each field's bytes (tag included), in wire order.
public struct UnknownFieldsView: Sequence {
    @usableFromInline let list: ViewList<RawField>

    @inlinable init(list: ViewList<RawField>) { self.list = list }

    /// One field's bytes.
    public struct RawField: _ViewListElement {
        @usableFromInline let bytes: BytesView
        @inlinable @inline(__always)
        public static func _element(of node: _ViewNode, at value: Int) -> RawField {
            RawField(bytes: BytesView(node.bytes, word: node.words[value]))
        }
        @inlinable init(bytes: BytesView) { self.bytes = bytes }
    }

    public struct Iterator: IteratorProtocol {
        @usableFromInline var base: IndexingIterator<ViewList<RawField>>
        @inlinable init(base: IndexingIterator<ViewList<RawField>>) { self.base = base }
        @inlinable public mutating func next() -> BytesView? { base.next()?.bytes }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(base: list.makeIterator()) }
    @inlinable public var isEmpty: Bool { list.isEmpty }

    /// An owned copy.
    public var owned: UnknownFields {
        var fields = UnknownFields()
        for field in self { field.withUnsafeBytes { fields.append($0) } }
        return fields
    }
}

extension StringBytesMap {
    /// An owned copy of a map view: sorted by key, the last value of a repeated key kept.
    public init(_ view: StringBytesMapView) {
        self.init()
        for (key, value) in view { appendDecoded(key: String(key), value: Array(value)) }
        finishDecoding()
    }
}

// Views point into memory that lives only as long as the closure that made them: they must not
// cross to another thread or task.
@available(*, unavailable) extension StringView: Sendable {}
@available(*, unavailable) extension BytesView: Sendable {}
@available(*, unavailable) extension ViewList: Sendable {}
@available(*, unavailable) extension StringBytesMapView: Sendable {}
@available(*, unavailable) extension UnknownFieldsView: Sendable {}
@available(*, unavailable) extension _ViewNode: Sendable {}
