/// Everything one decode produced: the nodes and lists the decoder wrote (64-bit words, laid out by
/// ``ArenaLayout``) and the bytes the string and bytes words point into (a copy of the binary input,
/// or the unescaped strings of a JSON input). Immutable once made, so the values that read it can be
/// `Sendable`; the last value that refers to it frees it.
///
/// One allocation holds both, except after a large decode: then the words stay in the buffer the
/// decoder built them in, shrunk to fit, instead of being copied (``ArenaWords/finish(bytes:)``).
///
/// A decoded message and every part of it read from it (an elem, its text) refer to the same
/// storage, as a `Substring` refers to its string: keeping a small part alive keeps the whole input
/// alive. Changing a value copies its own fields out first (see ``ArenaRef``), and a value built in
/// code has no storage at all.
///
/// (`ManagedBuffer` is not `Sendable`; values share the storage across threads through ``ArenaRef``,
/// which is, because nothing writes to a storage once it is made.)
package final class ArenaStorage: ManagedBuffer<ArenaStorage.Header, UInt64> {
    package struct Header {
        package var wordCount: Int
        package var byteCount: Int
        /// The words, when they are not in this object's elements (a large decode's buffer).
        package var external: UnsafeMutablePointer<UInt64>?
    }

    /// A storage holding `wordCount` words from `source` (copied, or adopted when `adopt`) and a copy
    /// of `bytes`.
    static func make(words source: UnsafeMutablePointer<UInt64>, wordCount: Int, adopt: Bool, bytes: UnsafeBufferPointer<UInt8>) -> ArenaStorage {
        let byteWords = (bytes.count + 7) / 8
        let buffer = ArenaStorage.create(minimumCapacity: (adopt ? 0 : wordCount) + byteWords) { buffer in
            buffer.withUnsafeMutablePointerToElements { elements in
                var byteStart = elements
                if !adopt {
                    elements.initialize(from: source, count: wordCount)
                    byteStart += wordCount
                }
                if let inputBase = bytes.baseAddress, bytes.count > 0 {
                    UnsafeMutableRawPointer(byteStart).copyMemory(from: inputBase, byteCount: bytes.count)
                }
            }
            return Header(wordCount: wordCount, byteCount: bytes.count, external: adopt ? source : nil)
        }
        return unsafeDowncast(buffer, to: ArenaStorage.self)
    }

    deinit {
        withUnsafeMutablePointerToHeader { header in
            if let external = header.pointee.external { ScratchMemory.release(external) }
        }
    }

    /// The first word (word 0 is never a node or an entry: 0 means "none" in links). Through the
    /// object's address, not a stored property: reading a class's stored `var` checks exclusivity at
    /// run time, on every read.
    @inline(__always)
    package var words: UnsafeMutablePointer<UInt64> {
        withUnsafeMutablePointers { header, elements in header.pointee.external ?? elements }
    }

    /// The first byte of the string and bytes values.
    @inline(__always)
    package var bytes: UnsafePointer<UInt8> {
        withUnsafeMutablePointers { header, elements in
            let start = header.pointee.external == nil ? elements + header.pointee.wordCount : elements
            return UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self)
        }
    }
}

/// A string or bytes value in an ``ArenaStorage``: one word, the offset of its bytes in the storage's
/// bytes (bits 0–31), their count (bits 32–62), and whether they are all ASCII (bit 63, strings only,
/// and only where the decoder knew). 0 is the empty value.
package enum ArenaString {
    @inline(__always)
    package static func word(offset: Int, count: Int, isASCII: Bool) -> UInt64 {
        UInt64(truncatingIfNeeded: offset) | UInt64(truncatingIfNeeded: count) << 32 | (isASCII ? 1 << 63 : 0)
    }

    @inline(__always)
    package static func offset(_ word: UInt64) -> Int { Int(truncatingIfNeeded: word & 0xFFFF_FFFF) }

    @inline(__always)
    package static func count(_ word: UInt64) -> Int { Int(truncatingIfNeeded: (word >> 32) & 0x7FFF_FFFF) }

    @inline(__always)
    package static func isASCII(_ word: UInt64) -> Bool { word >> 63 != 0 }
}

/// The words a decoder builds a storage's nodes in: the thread's scratch buffer (``Scratch/words``),
/// grown in place (`realloc`) when a large input needs more. Both decoders (binary and JSON) use it,
/// so they lay out nodes and lists the same way.
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

    /// Appends an entry with `valueWords` value words (zeroed) to the list whose links are at
    /// `links`; returns the index of the entry's first value word. (Linked both ways: the binary
    /// encoder writes back to front.)
    @inline(__always)
    package mutating func appendEntry(links: Int, valueWords: Int) -> Int {
        let entry = allocate(2 &+ valueWords)
        let current = words[links]
        if current == 0 {
            words[links] = UInt64(truncatingIfNeeded: entry) | UInt64(truncatingIfNeeded: entry) << 32
        } else {
            let tail = Int(truncatingIfNeeded: current >> 32)
            words[tail] = UInt64(truncatingIfNeeded: entry)
            words[entry &+ 1] = UInt64(truncatingIfNeeded: tail)
            words[links] = (current & 0xFFFF_FFFF) | UInt64(truncatingIfNeeded: entry) << 32
        }
        return entry &+ 2
    }

    /// The storage of the words and `bytes`; the buffer goes back to the thread, or, when it grew
    /// past what the thread keeps, becomes the storage's words (shrunk to fit: no copy).
    package func finish(bytes: UnsafeBufferPointer<UInt8>) -> ArenaStorage {
        if capacity > Scratch.words.keptCapacity {
            let fitted = ScratchMemory.resize(words, to: count)
            return ArenaStorage.make(words: fitted, wordCount: count, adopt: true, bytes: bytes)
        }
        let storage = ArenaStorage.make(words: words, wordCount: count, adopt: false, bytes: bytes)
        Scratch.words.giveBack(words, capacity: capacity)
        return storage
    }

    /// Returns the buffer after a failed decode.
    package func discard() {
        Scratch.words.giveBack(words, capacity: capacity)
    }
}
