/// A proto `map<string, bytes>` (``GroupMemberInfo/customInfo``, V2TIM `customInfo`).
///
/// Keys are compared by their UTF-8 bytes, not by Swift's `String ==` (which treats canonically
/// equivalent strings such as "é" and "e\u{301}" as equal): the wire format distinguishes them,
/// so a `[String: [UInt8]]` would silently merge distinct keys.
///
/// The entries are kept in canonical order — by key bytes, one entry per key — which is the order
/// the encoders write and the order iteration gives, so reading a map (iterating it, its
/// ``entries``, its ``count``) allocates nothing and sorts nothing. A lookup is a binary search,
/// O(log n); adding a key keeps the order (O(n) moves in the worst case, when keys come in reverse
/// order). The decoders add all of a map's entries first and order them once (O(n log n)).
public struct StringBytesMap: Hashable, Sendable, ExpressibleByDictionaryLiteral, RandomAccessCollection {
    /// One entry.
    public struct Entry: Hashable, Sendable {
        public var key: String
        public var value: [UInt8]

        public init(key: String, value: [UInt8]) {
            self.key = key
            self.value = value
        }

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.key.utf8.elementsEqual(rhs.key.utf8) && lhs.value == rhs.value
        }

        public func hash(into hasher: inout Hasher) {
            StringBytesMap.hashKey(key, into: &hasher)
            hasher.combine(value)
        }
    }

    /// Sorted by key bytes, one entry per key. (A decoder appends entries in wire order and
    /// orders them before it returns the map, so a decoded map is sorted too.)
    public private(set) var entries: [Entry] = []
    /// Whether entries appended by a decoder may be out of order or repeat a key.
    private var needsOrdering = false

    /// An empty map.
    public init() {}

    /// A map of the given pairs; for a repeated key the last value wins, as on the wire.
    public init(dictionaryLiteral elements: (String, [UInt8])...) {
        for (key, value) in elements { self[key] = value }
    }

    /// A map of a dictionary's pairs.
    public init(_ dictionary: [String: [UInt8]]) {
        entries = dictionary.map { Entry(key: $0.key, value: $0.value) }
        needsOrdering = true
        finishDecoding()
    }

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

    // MARK: - Collection (the entries, in canonical order)

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }
    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    // MARK: - Decoding

    /// Adds an entry as a decoder reads it, in wire order; `finishDecoding()` then orders the
    /// entries and keeps the last value of a repeated key (as on the wire).
    @usableFromInline package mutating func appendDecoded(key: String, value: [UInt8]) {
        if let last = entries.last, !Self.precedes(last.key, key) { needsOrdering = true }
        entries.append(Entry(key: key, value: value))
    }

    /// Orders what `appendDecoded(key:value:)` added: by key bytes, the last value of a key kept.
    @usableFromInline package mutating func finishDecoding() {
        guard needsOrdering else { return }
        needsOrdering = false
        // Stable, so that among equal keys the wire order stays, and the last one is kept.
        let ordered = entries.enumerated().sorted { lhs, rhs in
            Self.precedes(lhs.element.key, rhs.element.key) || (!Self.precedes(rhs.element.key, lhs.element.key) && lhs.offset < rhs.offset)
        }
        var result: [Entry] = []
        result.reserveCapacity(ordered.count)
        for (_, entry) in ordered {
            if let last = result.last, last.key.utf8.elementsEqual(entry.key.utf8) {
                result[result.count - 1] = entry
            } else {
                result.append(entry)
            }
        }
        entries = result
    }

    // MARK: - Keys by their bytes

    /// Whether `lhs` comes before `rhs` by UTF-8 bytes.
    @inline(__always)
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// Where `key` is, or where it would go.
    private func search(_ key: String) -> (index: Int, found: Bool) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(entries[middle].key, key) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return (low, low < entries.count && entries[low].key.utf8.elementsEqual(key.utf8))
    }

    /// Feeds a key's UTF-8 bytes to `hasher` (so that keys equal by bytes hash alike).
    static func hashKey(_ key: String, into hasher: inout Hasher) {
        var key = key
        key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    // MARK: - Equality

    public static func == (lhs: StringBytesMap, rhs: StringBytesMap) -> Bool {
        lhs.entries == rhs.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
    }
}
