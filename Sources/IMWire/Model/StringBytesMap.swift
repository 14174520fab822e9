/// A proto `map<string, bytes>` (``GroupMemberInfo/customInfo``, V2TIM `customInfo`).
///
/// Keys are compared by their UTF-8 bytes, not by Swift's `String ==` (which treats canonically
/// equivalent strings such as "é" and "e\u{301}" as equal): the wire format distinguishes them,
/// so a `[String: [UInt8]]` would silently merge distinct keys. Lookup and insertion are O(1);
/// iteration is in canonical order — by key bytes — which is the order the encoders write.
public struct StringBytesMap: Hashable, Sendable, ExpressibleByDictionaryLiteral, Sequence {
    /// One entry.
    public struct Entry: Hashable, Sendable {
        public var key: String
        public var value: [UInt8]

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.key.utf8.elementsEqual(rhs.key.utf8) && lhs.value == rhs.value
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(ByteKey(key))
            hasher.combine(value)
        }
    }

    /// A string that hashes and compares by its UTF-8 bytes.
    private struct ByteKey: Hashable, Sendable {
        let string: String

        init(_ string: String) { self.string = string }

        static func == (lhs: ByteKey, rhs: ByteKey) -> Bool { lhs.string.utf8.elementsEqual(rhs.string.utf8) }

        func hash(into hasher: inout Hasher) {
            hasher.combine(string.utf8.count)
            for byte in string.utf8 { hasher.combine(byte) }
        }
    }

    private var storage: [ByteKey: [UInt8]] = [:]

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

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }

    /// The entries in canonical order: sorted by the UTF-8 bytes of their keys. O(n log n).
    public var entries: [Entry] {
        storage.map { Entry(key: $0.key.string, value: $0.value) }
            .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// The keys in canonical (byte) order.
    public var keys: [String] { entries.map(\.key) }

    /// The value for exactly these key bytes; setting `nil` removes the entry.
    public subscript(key: String) -> [UInt8]? {
        get { storage[ByteKey(key)] }
        set { storage[ByteKey(key)] = newValue }
    }

    /// Iterates in canonical order (see ``entries``).
    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// Visits the entries in no particular order (for sizes and counts, where order does not matter).
    package func forEachUnordered(_ body: (String, [UInt8]) -> Void) {
        for (key, value) in storage { body(key.string, value) }
    }
}
