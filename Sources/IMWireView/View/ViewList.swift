import IMWireCore
import IMWireBinary

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
        let first = ArenaList.first(links)
        return first == 0 ? endIndex : Index(entry: first, ordinal: 0)
    }
    @inlinable public var endIndex: Index { Index(entry: 0, ordinal: .max) }
    @inlinable public var isEmpty: Bool { links == 0 }

    @inlinable @inline(__always)
    public func index(after position: Index) -> Index {
        // `position.entry` is an entry of this list (not the end: checked).
        precondition(position.entry != 0, "ViewList: advancing past the end")
        let next = ArenaList.next(after: position.entry, in: node.words)
        return next == 0 ? endIndex : Index(entry: next, ordinal: position.ordinal &+ 1)
    }

    @inlinable @inline(__always)
    public subscript(position: Index) -> Element {
        precondition(position.entry != 0, "ViewList: subscript at the end")
        // An entry is [next][value…].
        return Element._element(of: node, at: position.entry &+ ArenaWords.valueOffset)
    }

    /// The last element, found from the list's tail in O(1).
    @inlinable
    public var last: Element? {
        let tail = ArenaList.last(links)
        return tail == 0 ? nil : Element._element(of: node, at: tail &+ ArenaWords.valueOffset)
    }
}

@available(*, unavailable) extension ViewList: Sendable {}
