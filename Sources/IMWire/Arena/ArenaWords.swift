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
    package static func checkOffsets(inputCount: Int) throws(IMWireError) {
        guard inputCount <= Int(UInt32.max) else {
            throw .inputBeyondFourGiB(size: inputCount)
        }
    }
}

/// The words ``ArenaDecoder`` builds a message view's nodes in: the thread's scratch buffer
/// (``Scratch/words``), grown in place (`realloc`) when a large input needs more, and given back when
/// the view's closure returns.
@usableFromInline
package struct ArenaWords {
    package private(set) var words: UnsafeMutablePointer<UInt64>
    private var capacity: Int
    /// Words in use; word 0 is never a node or an entry (0 means "none" in a link).
    package private(set) var count = 1

    package init() {
        (words, capacity) = Scratch.words.take()
        words[0] = 0
    }

    /// `wordCount` zeroed words; returns the first.
    @inline(__always)
    package mutating func allocate(_ wordCount: Int) -> Int {
        if wordCount > capacity &- count { grow(wordCount) }
        let start = count
        (words + start).initialize(repeating: 0, count: wordCount)
        count &+= wordCount
        return start
    }

    @inline(never)
    private mutating func grow(_ wordCount: Int) {
        var newCapacity = capacity * 2
        while newCapacity - count < wordCount { newCapacity *= 2 }
        words = ScratchMemory.resize(words, to: newCapacity)
        capacity = newCapacity
    }

    /// Where an entry's value starts: after the word that links it to the next entry.
    @inlinable @inline(__always)
    package static var valueOffset: Int { 1 }

    /// Appends an entry with `valueWords` value words (zeroed) to the list whose links are at
    /// `links` (the first entry | the last << 32); returns the index of the entry's first value word.
    @inline(__always)
    package mutating func appendEntry(links: Int, valueWords: Int) -> Int {
        let entry = allocate(Self.valueOffset &+ valueWords)
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
    package func discard() {
        Scratch.words.giveBack(words, capacity: capacity)
    }
}
