/// The names of one enum's values.
///
/// [unsafe: schema-lifetime] `nonisolated(unsafe)` tables: written only by the initialiser, read only
/// after it (a schema is a global constant), never freed.
@usableFromInline package final class EnumSchema: Sendable {
    /// Fully qualified proto name, e.g. `imwire.v1.ImageType`.
    @usableFromInline package let fullName: String
    /// (number, proto name) in declaration order.
    @usableFromInline package let values: [(number: Int32, name: String)]
    /// The numbers and the names as UTF-8, in declaration order, behind plain pointers (a schema lives
    /// as long as the program): ``number(named:)`` and ``nameUTF8(of:)`` compare and hand out bytes
    /// with no `String` and no reference counting, once per enum value a text reader or writer meets.
    private nonisolated(unsafe) let numbers: UnsafeMutablePointer<Int32>
    private nonisolated(unsafe) let names: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>

    @usableFromInline package init(fullName: String, values: [(number: Int32, name: String)]) {
        // [unsafe: enum-names] both tables have one entry per value (at least 1 allocated); each name's copy
        // has its count.
        self.fullName = fullName
        self.values = values
        numbers = .allocate(capacity: max(1, values.count))
        names = .allocate(capacity: max(1, values.count))
        for (index, value) in values.enumerated() {
            (numbers + index).initialize(to: value.number)
            let bytes = Array(value.name.utf8)
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
            copy.initialize(from: bytes, count: bytes.count)
            (names + index).initialize(to: UnsafeBufferPointer(start: copy, count: bytes.count))
        }
    }

    @usableFromInline package func name(of number: Int32) -> String? {
        values.first { $0.number == number }?.name
    }

    /// The UTF-8 of the name of `number`, or `nil` when no value has it.
    @usableFromInline package func nameUTF8(of number: Int32) -> UnsafeBufferPointer<UInt8>? {
        // [unsafe: enum-names] `index < values.count`, the tables' length.
        for index in 0..<values.count where numbers[index] == number { return names[index] }
        return nil
    }

    /// The number of the value named exactly `name`.
    @usableFromInline package func number(named name: UnsafeBufferPointer<UInt8>) -> Int32? {
        // [unsafe: enum-names] `index < values.count`; `memcmp` only for two names of the same non-zero count
        // (both have base addresses).
        for index in 0..<values.count {
            let candidate = names[index]
            if candidate.count == name.count, candidate.count == 0
                || memcmp(candidate.baseAddress!, name.baseAddress!, name.count) == 0 {
                return numbers[index]
            }
        }
        return nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
