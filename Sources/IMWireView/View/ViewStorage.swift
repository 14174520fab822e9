import IMWireCore
import IMWireBinary

/// Where a message view reads from: the words the arena decoder wrote for one decode (a node per
/// message, laid out by ``ArenaLayout``) and the input they point into. Plain pointers: reading a
/// field is a load, with no reference counting.
///
/// Valid only inside the closure of ``IMWireMessage/withView(serializedBytes:options:_:)``, which
/// owns both the words and the borrowed input for its duration.
///
/// Implementation detail of the generated views (public because their accessors are inlinable);
/// it has no public members and no public initialiser.
///
/// [unsafe: view-lifetime] The node, and every view made from it, holds pointers into the words and
/// the input: they stay valid until the `withView` closure returns, and a view used after that, or
/// an index of one list used with another view's list, reads freed or foreign memory. The views are
/// ordinary (escapable) values, so the compiler does not stop that; the documentation of every
/// `withView` says so, as `withUnsafeBufferPointer` does.
public struct _ViewNode {
    @usableFromInline package let words: UnsafePointer<UInt64>
    /// The input: string and bytes words hold offsets into it.
    @usableFromInline let bytes: UnsafePointer<UInt8>
    /// The node's first word.
    @usableFromInline package let node: Int

    @inlinable @inline(__always)
    package init(words: UnsafePointer<UInt64>, bytes: UnsafePointer<UInt8>, node: Int) {
        self.words = words
        self.bytes = bytes
        self.node = node
    }

    /// The node at word `node` of the same decode.
    @inlinable @inline(__always)
    func child(_ node: Int) -> _ViewNode { _ViewNode(words: words, bytes: bytes, node: node) }

    /// Word `slot` of the node.
    ///
    /// [unsafe: view-words] The generated accessors pass their field's slot in the type's layout,
    /// which the generator writes from the same description as the layout the decoder allocated the
    /// node with (`slot < slotCount`); a child node or an entry was allocated by the same decode.
    @inlinable @inline(__always)
    package func word(_ slot: Int) -> UInt64 { words[node &+ slot] }

    @inlinable @inline(__always) package func uint64(_ slot: Int) -> UInt64 { word(slot) }
    @inlinable @inline(__always) package func double(_ slot: Int) -> Double { Double(bitPattern: word(slot)) }
    @inlinable @inline(__always) package func uint32(_ slot: Int, _ shift: Int = 0) -> UInt32 {
        UInt32(truncatingIfNeeded: word(slot) &>> UInt64(shift))
    }
    @inlinable @inline(__always) package func int32(_ slot: Int, _ shift: Int = 0) -> Int32 {
        Int32(truncatingIfNeeded: word(slot) &>> UInt64(shift))
    }
    /// A bool: bit `bit` of a shared word.
    @inlinable @inline(__always) package func bool(_ slot: Int, _ bit: Int) -> Bool { (word(slot) &>> UInt64(bit)) & 1 != 0 }
    /// A bool with a word of its own (a oneof member).
    @inlinable @inline(__always) package func bool(_ slot: Int) -> Bool { word(slot) != 0 }

    @inlinable @inline(__always)
    package func string(_ slot: Int) -> StringView { StringView(bytes, word: word(slot)) }

    @inlinable @inline(__always)
    package func bytesValue(_ slot: Int) -> BytesView { BytesView(bytes, word: word(slot)) }

    /// A singular message field: its node, or `nil` when absent.
    @inlinable @inline(__always)
    package func message<V: IMWireMessageView>(_ slot: Int) -> V? {
        let child = Int(truncatingIfNeeded: word(slot))
        return child == 0 ? nil : V(_viewNode: self.child(child))
    }

    /// The node whose index is in word `slot` (a oneof's message member: the member is set).
    @inlinable @inline(__always)
    package func messageMember<V: IMWireMessageView>(_ slot: Int) -> V {
        V(_viewNode: child(Int(truncatingIfNeeded: word(slot))))
    }

    /// The field number of the member of the oneof at `slot` that is set, or 0.
    @inlinable @inline(__always)
    package func oneofCase(_ slot: Int) -> Int { Int(truncatingIfNeeded: word(slot)) }

    /// A repeated field (its list's links are in word `slot`).
    @inlinable @inline(__always)
    package func list<Element: _ViewListElement>(_ slot: Int) -> ViewList<Element> {
        ViewList(self, links: word(slot))
    }

    @inlinable @inline(__always)
    package func map(_ slot: Int) -> StringBytesMapView {
        StringBytesMapView(list: ViewList(self, links: word(slot)))
    }

    /// The node's unknown fields: their list heads word 0.
    @inlinable @inline(__always)
    package var unknownFields: UnknownFieldsView { UnknownFieldsView(list: ViewList(self, links: word(0))) }
}

@available(*, unavailable) extension _ViewNode: Sendable {}
