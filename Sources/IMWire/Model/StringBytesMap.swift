/// A proto `map<string, bytes>` (``GroupMemberInfo/customInfo``, V2TIM `customInfo`).
///
/// Keys are compared by their UTF-8 bytes, not by Swift's `String ==` (which treats canonically
/// equivalent strings such as "é" and "e\u{301}" as equal): the wire format distinguishes them,
/// so a `Dictionary` would silently merge distinct keys. Entries are kept sorted by key bytes —
/// the canonical order the encoder writes.
public struct StringBytesMap: Hashable, Sendable, ExpressibleByDictionaryLiteral, Sequence {
    /// One entry.
    public struct Entry: Hashable, Sendable {
        public var key: String
        public var value: [UInt8]

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.key.utf8.elementsEqual(rhs.key.utf8) && lhs.value == rhs.value
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(key.utf8.count)
            for byte in key.utf8 { hasher.combine(byte) }
            hasher.combine(value)
        }
    }

    /// Entries sorted by key bytes, keys unique (byte-wise).
    public private(set) var entries: [Entry] = []

    /// An empty map.
    public init() {}

    /// A map of the given pairs; for a repeated key the last value wins, as on the wire.
    public init(dictionaryLiteral elements: (String, [UInt8])...) {
        for (key, value) in elements { self[key] = value }
    }

    /// A map of a dictionary's pairs.
    public init(_ dictionary: [String: [UInt8]]) {
        for (key, value) in dictionary { self[key] = value }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    /// The keys in canonical (byte) order.
    public var keys: [String] { entries.map(\.key) }

    /// The value for exactly these key bytes; setting `nil` removes the entry.
    public subscript(key: String) -> [UInt8]? {
        get {
            let (index, found) = search(key)
            return found ? entries[index].value : nil
        }
        set {
            let (index, found) = search(key)
            switch (found, newValue) {
            case (true, let value?): entries[index].value = value
            case (true, nil): entries.remove(at: index)
            case (false, let value?): entries.insert(Entry(key: key, value: value), at: index)
            case (false, nil): break
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// Binary search by key bytes: the index of `key`, or where it would be inserted.
    private func search(_ key: String) -> (index: Int, found: Bool) {
        // Appending in order (the common case when decoding canonical input) skips the search.
        if let last = entries.last, last.key.utf8.lexicographicallyPrecedes(key.utf8) {
            return (entries.count, false)
        }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let candidate = entries[middle].key.utf8
            if candidate.lexicographicallyPrecedes(key.utf8) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        let found = low < entries.count && entries[low].key.utf8.elementsEqual(key.utf8)
        return (low, found)
    }
}
