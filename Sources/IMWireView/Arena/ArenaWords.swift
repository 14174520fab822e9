import IMWireCore
import IMWireBinary

/// A string or bytes value in a message view's words: one word, the offset of its bytes in the input
/// (bits 0–31), their count (bits 32–62), and whether they are all ASCII (bit 63, strings only,
/// and only where the decoder knew). 0 is the empty value.
@usableFromInline
package enum ArenaString {
    @inlinable @inline(__always)
    package static func word(offset: Int, count: Int, isASCII: Bool) -> UInt64 {
        UInt64(truncatingIfNeeded: offset) | UInt64(truncatingIfNeeded: count) << 32 | (isASCII ? 1 << 63 : 0)
    }

    @inlinable @inline(__always)
    package static func offset(_ word: UInt64) -> Int { Int(truncatingIfNeeded: word & 0xFFFF_FFFF) }

    @inlinable @inline(__always)
    package static func count(_ word: UInt64) -> Int { Int(truncatingIfNeeded: (word >> 32) & 0x7FFF_FFFF) }

    @inlinable @inline(__always)
    package static func isASCII(_ word: UInt64) -> Bool { word >> 63 != 0 }

    /// Refuses an input whose offsets a word cannot hold (over 4 GiB): what every decoder of a
    /// message view checks first.
    @usableFromInline package static func checkOffsets(inputCount: Int) throws(IMWireError) {
        guard inputCount <= Int(UInt32.max) else {
            throw .inputBeyondFourGiB(size: inputCount)
        }
    }
}

/// The words ``ArenaDecoder`` builds a message view's nodes in: the thread's scratch buffer
/// (``Scratch/words``), grown in place (`realloc`) when a large input needs more, and given back when
/// the view's closure returns.
///
/// Bounds: `count <= capacity`, and `words` holds `capacity` words; ``allocate(_:at:)`` grows the
/// buffer before it hands out words past `capacity`, so every word it returns, and every word of a
/// node up to its layout's `slotCount`, is below `count`. A list's links hold entry indices in 32
/// bits each, so a view may use at most ``maxWords`` words: past that, ``allocate(_:at:)`` throws
/// instead of letting an index wrap.
@usableFromInline
package struct ArenaWords {
    /// The most words one view may use: indices below 2^32, as a list's links keep them.
    @usableFromInline package static let maxWords = 1 << 32

    @usableFromInline package private(set) var words: UnsafeMutablePointer<UInt64>
    /// The buffer's size in words.
    private var capacity: Int
    /// `min(capacity, limit)`: the words ``allocate(_:at:)`` hands out before it asks
    /// ``grow(_:at:)``, so that one comparison serves both the buffer's end and the limit.
    private var usable: Int
    /// Words in use; word 0 is never a node or an entry (0 means "none" in a link).
    package private(set) var count = 1
    /// ``maxWords``, or less for a test of the limit.
    private let limit: Int

    @usableFromInline package init(limit: Int = ArenaWords.maxWords) {
        // [unsafe: thread-scratch] The buffer is the thread's, taken out of its slot until
        // ``discard()``; it holds at least one word (the initial capacity is 512).
        (words, capacity) = Scratch.words.take()
        self.limit = min(limit, Self.maxWords)
        usable = min(capacity, self.limit)
        words[0] = 0
    }

    /// `wordCount` zeroed words; returns the first. `offset` is where the input is, for the error
    /// when the view would need more than ``maxWords``.
    @inline(__always)
    @usableFromInline package mutating func allocate(_ wordCount: Int, at offset: Int) throws(IMWireError) -> Int {
        // [unsafe: arena-words] Grown first, so `count + wordCount <= usable <= capacity`.
        if wordCount > usable &- count { try grow(wordCount, at: offset) }
        assert(count &+ wordCount <= usable && usable <= capacity, "arena words past the buffer")
        let start = count
        (words + start).initialize(repeating: 0, count: wordCount)
        count &+= wordCount
        return start
    }

    @inline(never)
    private mutating func grow(_ wordCount: Int, at offset: Int) throws(IMWireError) {
        // [unsafe: thread-scratch] The buffer is reallocated in place of the one taken; its new
        // capacity holds `count + wordCount` words and never more than `limit`.
        guard wordCount <= limit &- count else { throw .viewTooLarge(limit: limit, offset: offset) }
        if wordCount > capacity &- count {
            var newCapacity = capacity * 2
            while newCapacity - count < wordCount { newCapacity *= 2 }
            newCapacity = min(newCapacity, limit)
            words = ScratchMemory.resize(words, to: newCapacity)
            capacity = newCapacity
        }
        usable = min(capacity, limit)
    }

    /// Where an entry's value starts: after the word that links it to the next entry.
    @inlinable @inline(__always)
    package static var valueOffset: Int { 1 }

    /// Appends an entry with `valueWords` value words (zeroed) to the list whose links are at
    /// `links` (the first entry | the last << 32); returns the index of the entry's first value word.
    @inline(__always)
    @usableFromInline package mutating func appendEntry(links: Int, valueWords: Int, at offset: Int) throws(IMWireError) -> Int {
        // [unsafe: arena-words] `links` is a word of a node allocated before; the entry's words
        // are new (below `count`); the last entry's index came from an earlier call. Every index
        // is below ``maxWords``, so it fits its 32 bits.
        let entry = try allocate(Self.valueOffset &+ valueWords, at: offset)
        assert(links > 0 && links < count, "a list's links outside the words")
        let current = words[links]
        if current == 0 {
            words[links] = UInt64(truncatingIfNeeded: entry) | UInt64(truncatingIfNeeded: entry) << 32
        } else {
            let tail = Int(truncatingIfNeeded: current >> 32)
            words[tail] = UInt64(truncatingIfNeeded: entry)
            words[links] = (current & 0xFFFF_FFFF) | UInt64(truncatingIfNeeded: entry) << 32
        }
        return entry &+ Self.valueOffset
    }

    // MARK: - Storing a field's value, for every decoder of a view

    // The word format is written here and read by ``ArenaList``, for the binary decoder
    // (``ArenaDecoder``) and the JSON one alike: where a field's value goes depends only on its
    // container, whatever the input's format.

    /// Stores `value`, the word of a scalar, string or bytes field (number `number`, slot word
    /// `slot` of its node), as its container keeps it: in the slot (a whole word, or its bits), as a
    /// oneof's member number and value, or as a new entry of a repeated field's list.
    @inlinable @inline(__always)
    package mutating func store(_ value: UInt64, _ field: ArenaField, number: Int, slot: Int, at offset: Int) throws(IMWireError) {
        // [unsafe: arena-words] `slot` (+ 1 for a oneof) is a word of a node allocated with its layout's
        // `slotCount`; an entry's value word is new.
        switch field.container {
        case .single, .bits:
            field.store(value, in: words, at: slot)
        case .oneof:
            words[slot] = UInt64(truncatingIfNeeded: number)
            words[slot &+ 1] = value
        case .repeated:
            let entry = try appendEntry(links: slot, valueWords: 1, at: offset)
            words[entry] = value
        }
    }

    /// The node a message field's value (number `number`, slot word `slot` of its node) is read
    /// into: the node of a present singular field or of the same oneof member, which the value
    /// merges into; else a new node of `slotCount` words (always for a repeated field: the new
    /// entry's value words).
    @inlinable @inline(__always)
    package mutating func messageNode(_ field: ArenaField, number: Int, slot: Int, slotCount: Int, at offset: Int) throws(IMWireError) -> Int {
        // [unsafe: arena-words] As ``store(_:_:number:slot:at:)``; a child index read from a slot was
        // written by an earlier allocation of `slotCount` words.
        if field.container == .repeated {
            return try appendEntry(links: slot, valueWords: slotCount, at: offset)
        }
        if field.container == .oneof {
            if words[slot] == UInt64(truncatingIfNeeded: number) { return Int(truncatingIfNeeded: words[slot &+ 1]) }
            let child = try allocate(slotCount, at: offset)
            words[slot] = UInt64(truncatingIfNeeded: number)
            words[slot &+ 1] = UInt64(truncatingIfNeeded: child)
            return child
        }
        let present = Int(truncatingIfNeeded: words[slot])
        if present != 0 { return present }
        let child = try allocate(slotCount, at: offset)
        words[slot] = UInt64(truncatingIfNeeded: child)
        return child
    }

    /// Appends a `map<string, bytes>` entry (its key's and its value's words) to the map at `slot`.
    @inlinable @inline(__always)
    package mutating func storeMapEntry(key: UInt64, value: UInt64, slot: Int, at offset: Int) throws(IMWireError) {
        // [unsafe: arena-words] The entry's two value words are new.
        let entry = try appendEntry(links: slot, valueWords: 2, at: offset)
        words[entry] = key
        words[entry &+ 1] = value
    }

    /// Returns the buffer to the thread (or frees it, when it grew past what the thread keeps).
    @usableFromInline package func discard() {
        // [unsafe: thread-scratch] Given back once, by the view's `defer`, after the last read.
        Scratch.words.giveBack(words, capacity: capacity)
    }
}

/// How a repeated field's or a map's list is read, from its links word (the first entry | the last
/// << 32; 0: empty): the one reader of the list format ``ArenaWords/appendEntry(links:valueWords:at:)``
/// writes, for ``ViewList`` and every walk over a view's words. An entry's value words start
/// ``ArenaWords/valueOffset`` after it.
@usableFromInline
package enum ArenaList {
    /// The first entry of the list whose links word is `links` (0: empty).
    @inlinable @inline(__always)
    package static func first(_ links: UInt64) -> Int { Int(truncatingIfNeeded: links & 0xFFFF_FFFF) }

    /// The last entry (0: empty).
    @inlinable @inline(__always)
    package static func last(_ links: UInt64) -> Int { Int(truncatingIfNeeded: links >> 32) }

    /// The entry after `entry` (0: none).
    @inlinable @inline(__always)
    package static func next(after entry: Int, in words: UnsafePointer<UInt64>) -> Int {
        // [unsafe: view-words] `entry` is an entry of a list the decoder built: its first word links
        // the next entry or holds 0.
        Int(truncatingIfNeeded: words[entry])
    }
}
