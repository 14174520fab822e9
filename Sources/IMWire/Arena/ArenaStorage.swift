/// Everything one binary decode produced, in one allocation: the nodes and lists the arena decoder
/// wrote (64-bit words, laid out by ``ArenaLayout``), then a copy of the input bytes, which the
/// string and bytes words point into. Immutable once made, so values built on it are `Sendable`;
/// the last value that refers to it frees it.
///
/// A decoded message and every part of it read from it (an elem, its text) refer to the same
/// storage, as a `Substring` refers to its string: keeping a small part alive keeps the whole input
/// alive. Changing a value copies its own fields out first (see ``ArenaRef``), and a value built in
/// code has no storage at all.
/// (`ManagedBuffer` is not `Sendable`; values share the storage across threads through ``ArenaRef``,
/// which is, because nothing writes to a storage after ``make(words:wordCount:input:)``.)
package final class ArenaStorage: ManagedBuffer<ArenaStorage.Header, UInt64> {
    package struct Header {
        package var wordCount: Int
        package var byteCount: Int
    }

    /// A storage holding `wordCount` words from `words` and a copy of `input`.
    static func make(words source: UnsafePointer<UInt64>, wordCount: Int, input: UnsafeBufferPointer<UInt8>) -> ArenaStorage {
        let byteWords = (input.count + 7) / 8
        let buffer = ArenaStorage.create(minimumCapacity: wordCount + byteWords) { buffer in
            buffer.withUnsafeMutablePointerToElements { elements in
                elements.initialize(from: source, count: wordCount)
                if let inputBase = input.baseAddress, input.count > 0 {
                    UnsafeMutableRawPointer(elements + wordCount).copyMemory(from: inputBase, byteCount: input.count)
                }
            }
            return Header(wordCount: wordCount, byteCount: input.count)
        }
        return unsafeDowncast(buffer, to: ArenaStorage.self)
    }

    /// The first word (word 0 is never a node or an entry: 0 means "none" in links). Through the
    /// elements' address, not a stored property: reading a class's stored `var` checks exclusivity
    /// at run time, on every string read.
    @inline(__always)
    package var words: UnsafeMutablePointer<UInt64> {
        withUnsafeMutablePointerToElements { $0 }
    }

    /// The copy of the input bytes, after the words.
    @inline(__always)
    package var bytes: UnsafePointer<UInt8> {
        withUnsafeMutablePointers { header, elements in
            UnsafeRawPointer(elements + header.pointee.wordCount).assumingMemoryBound(to: UInt8.self)
        }
    }
}

/// A string or bytes value in an ``ArenaStorage``: one word, the offset of its bytes in the input
/// copy (bits 0–31), their count (bits 32–62), and whether they are all ASCII (bit 63, strings only).
/// 0 is the empty value.
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
