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

    package private(set) var words: UnsafeMutablePointer<UInt64>
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

    /// Returns the buffer to the thread (or frees it, when it grew past what the thread keeps).
    @usableFromInline package func discard() {
        // [unsafe: thread-scratch] Given back once, by the view's `defer`, after the last read.
        Scratch.words.giveBack(words, capacity: capacity)
    }
}
