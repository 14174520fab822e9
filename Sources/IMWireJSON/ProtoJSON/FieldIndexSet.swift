import IMWireCore
import IMWireJSONText

/// A set of field indices of one message type (``MessageSchema/fields``), for the JSON reader's
/// duplicate and oneof checks: two words of bits, no allocation. A schema has at most
/// ``capacity`` fields (``MessageSchema`` checks it when it is made).
struct FieldIndexSet: Sequence {
    /// The most fields a message type may have.
    static let capacity = 128

    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// Adds `index`; `false` if it was there already.
    @inline(__always)
    mutating func insert(_ index: Int) -> Bool {
        if index < 64 {
            let bit: UInt64 = 1 << UInt64(index)
            defer { low |= bit }
            return low & bit == 0
        }
        let bit: UInt64 = 1 << UInt64(index - 64)
        defer { high |= bit }
        return high & bit == 0
    }

    func makeIterator() -> Iterator { Iterator(low: low, high: high) }

    /// The indices, ascending.
    struct Iterator: IteratorProtocol {
        var low: UInt64
        var high: UInt64

        mutating func next() -> Int? {
            if low != 0 {
                defer { low &= low - 1 }
                return low.trailingZeroBitCount
            }
            if high != 0 {
                defer { high &= high - 1 }
                return 64 + high.trailingZeroBitCount
            }
            return nil
        }
    }
}
