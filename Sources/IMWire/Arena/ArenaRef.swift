/// A message value read from an ``ArenaStorage``: the storage and the node of the message in it.
///
/// Every generated model type has an optional `_arena`. A decode sets it and leaves the stored
/// fields at their defaults; each accessor then reads its field from the node (a `String` is built
/// from bytes the decoder already validated, an array from the field's list). The first change to a
/// value copies all its fields out of the node into its stored properties and drops `_arena`
/// (`_thaw()`): from then on it is an ordinary value, whose sub-messages still read from the storage
/// until they are changed in turn.
package struct ArenaRef: @unchecked Sendable {
    package let storage: ArenaStorage
    /// The node's first word.
    package let node: Int

    @inline(__always)
    package init(_ storage: ArenaStorage, _ node: Int) {
        self.storage = storage
        self.node = node
    }

    /// Whether two references name the same node of the same storage (and so the same value).
    @inline(__always)
    package func isSameNode(as other: ArenaRef) -> Bool {
        storage === other.storage && node == other.node
    }

    @inline(__always)
    package func word(_ slot: Int) -> UInt64 { storage.words[node &+ slot] }

    // MARK: - Scalars (a word of their own, or bits of a shared one)

    @inline(__always) package func uint64(_ slot: Int) -> UInt64 { word(slot) }
    @inline(__always) package func double(_ slot: Int) -> Double { Double(bitPattern: word(slot)) }
    @inline(__always) package func uint32(_ slot: Int, _ shift: Int = 0) -> UInt32 { UInt32(truncatingIfNeeded: word(slot) &>> UInt64(shift)) }
    @inline(__always) package func int32(_ slot: Int, _ shift: Int = 0) -> Int32 { Int32(truncatingIfNeeded: word(slot) &>> UInt64(shift)) }
    @inline(__always) package func enumeration<E: ProtoEnum>(_ slot: Int, _ shift: Int = 0) -> E { E(rawValue: int32(slot, shift)) }
    /// A bool: bit `bit` of a shared word, or (a oneof member) its own word.
    @inline(__always) package func bool(_ slot: Int, _ bit: Int) -> Bool { (word(slot) &>> UInt64(bit)) & 1 != 0 }
    @inline(__always) package func bool(_ slot: Int) -> Bool { word(slot) != 0 }

    // MARK: - Strings and bytes

    @inline(__always)
    package func string(_ slot: Int) -> String { storage.string(word(slot)) }

    @inline(__always)
    package func bytes(_ slot: Int) -> [UInt8] { storage.byteArray(word(slot)) }

    /// The UTF-8 bytes of a string field (or the bytes of a bytes field), valid while `storage` is.
    @inline(__always)
    package func utf8(_ slot: Int) -> UnsafeBufferPointer<UInt8> { storage.buffer(word(slot)) }

    // MARK: - Oneofs

    /// The field number of the member of the oneof at `slot` that is set, or 0.
    @inline(__always)
    package func oneofCase(_ slot: Int) -> Int { Int(truncatingIfNeeded: word(slot)) }

    // MARK: - Lists

    @inline(__always)
    package func list(_ slot: Int) -> ArenaList { ArenaList(storage, links: word(slot)) }

    package func strings(_ slot: Int) -> [String] { list(slot).strings }

    /// A map's entries; for a key given twice, the last value (as on the wire).
    package func stringToBytesMap(_ slot: Int) -> StringBytesMap {
        var map = StringBytesMap()
        let words = storage.words
        list(slot).forEachEntry { entry in
            map[storage.string(words[entry])] = storage.byteArray(words[entry &+ 1])
        }
        return map
    }

    /// The node's unknown fields (their list heads word 0 of the node).
    package var unknownFieldList: ArenaUnknownFields { ArenaUnknownFields(ArenaList(storage, links: word(0))) }

    package var unknownFields: UnknownFields { unknownFieldList.unknownFields }
}

extension ArenaStorage {
    @inline(__always)
    package func buffer(_ word: UInt64) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + ArenaString.offset(word), count: ArenaString.count(word))
    }

    @inline(__always)
    package func string(_ word: UInt64) -> String {
        if word == 0 { return "" }
        return UTF8Validation.string(validated: buffer(word), isASCII: ArenaString.isASCII(word))
    }

    @inline(__always)
    package func byteArray(_ word: UInt64) -> [UInt8] {
        if word == 0 { return [] }
        return Array(buffer(word))
    }
}

/// A list in an ``ArenaStorage`` (a repeated field, a map, a node's unknown fields): entries of a
/// `next` word, a `previous` word and then the value (see ``ArenaLayout``).
package struct ArenaList {
    package let storage: ArenaStorage
    /// First entry | last entry << 32 (0: empty).
    package let links: UInt64

    @inline(__always)
    package init(_ storage: ArenaStorage, links: UInt64) {
        self.storage = storage
        self.links = links
    }

    @inline(__always)
    package var isEmpty: Bool { links == 0 }

    /// The number of entries (counted: the list does not store it).
    package var count: Int {
        var count = 0
        forEachEntry { _ in count &+= 1 }
        return count
    }

    /// Calls `body` with the index of each entry's value, in order.
    @inline(__always)
    package func forEachEntry<E: Error>(_ body: (Int) throws(E) -> Void) throws(E) {
        let words = storage.words
        var entry = Int(truncatingIfNeeded: links & 0xFFFF_FFFF)
        while entry != 0 {
            try body(entry &+ 2)
            entry = Int(truncatingIfNeeded: words[entry])
        }
    }

    /// Calls `body` with the index of each entry's value, last entry first.
    @inline(__always)
    package func forEachEntryReversed<E: Error>(_ body: (Int) throws(E) -> Void) throws(E) {
        let words = storage.words
        var entry = Int(truncatingIfNeeded: links >> 32)
        while entry != 0 {
            try body(entry &+ 2)
            entry = Int(truncatingIfNeeded: words[entry &+ 1])
        }
    }

    /// The entries' string values.
    package var strings: [String] {
        var result: [String] = []
        result.reserveCapacity(count)
        let words = storage.words
        forEachEntry { entry in result.append(storage.string(words[entry])) }
        return result
    }
}

/// A node's unknown fields in an ``ArenaStorage``: ranges of the input, in wire order.
package struct ArenaUnknownFields {
    package let list: ArenaList

    @inline(__always)
    package init(_ list: ArenaList) { self.list = list }

    @inline(__always)
    package var isEmpty: Bool { list.isEmpty }

    /// Calls `body` with each field's raw bytes (tag included), in wire order.
    @inline(__always)
    package func forEachField(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let storage = list.storage
        let words = storage.words
        list.forEachEntry { entry in body(storage.buffer(words[entry])) }
    }

    /// The total size of the fields.
    package var byteCount: Int {
        var total = 0
        forEachField { total &+= $0.count }
        return total
    }

    package var unknownFields: UnknownFields {
        var fields = UnknownFields()
        forEachField { fields.append(UnsafeRawBufferPointer($0)) }
        return fields
    }
}
