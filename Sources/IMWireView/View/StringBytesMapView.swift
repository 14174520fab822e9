import IMWireCore
import IMWireBinary

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
            // [unsafe: view-words] a map entry has two value words, key and value (``ArenaDecoder`` and
            // ``JSONViewDecoder`` append it so).
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

extension StringBytesMap {
    /// An owned copy of a map view: sorted by key, the last value of a repeated key kept.
    public init(_ view: StringBytesMapView) {
        self.init()
        for (key, value) in view { appendDecoded(key: String(key), value: Array(value)) }
        finishDecoding()
    }
}

@available(*, unavailable) extension StringBytesMapView: Sendable {}
