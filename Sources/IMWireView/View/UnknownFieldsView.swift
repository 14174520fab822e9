import IMWireCore
import IMWireBinary

/// A message's unknown fields read in place: each field's bytes (tag included), in wire order.
public struct UnknownFieldsView: Sequence {
    @usableFromInline let list: ViewList<RawField>

    @inlinable init(list: ViewList<RawField>) { self.list = list }

    /// One field's bytes.
    public struct RawField: _ViewListElement {
        @usableFromInline let bytes: BytesView
        @inlinable @inline(__always)
        public static func _element(of node: _ViewNode, at value: Int) -> RawField {
            // [unsafe: view-words] `value` is an entry's value word (``ViewList``).
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

@available(*, unavailable) extension UnknownFieldsView: Sendable {}
