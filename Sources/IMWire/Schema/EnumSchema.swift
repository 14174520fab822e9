/// The names of one enum's values.
package final class EnumSchema: Sendable {
    /// Fully qualified proto name, e.g. `imwire.v1.ImageType`.
    package let fullName: String
    /// (number, proto name) in declaration order.
    package let values: [(number: Int32, name: String)]
    /// The names as UTF-8, for ``number(named:)`` without String comparisons.
    private let nameUTF8: [[UInt8]]

    package init(fullName: String, values: [(number: Int32, name: String)]) {
        self.fullName = fullName
        self.values = values
        self.nameUTF8 = values.map { Array($0.name.utf8) }
    }

    package func name(of number: Int32) -> String? {
        values.first { $0.number == number }?.name
    }

    /// The number of the value named exactly `name`.
    package func number(named name: UnsafeBufferPointer<UInt8>) -> Int32? {
        for (index, candidate) in nameUTF8.enumerated() where candidate.count == name.count {
            if candidate.withUnsafeBufferPointer({ memcmp($0.baseAddress!, name.baseAddress!, name.count) == 0 }) {
                return values[index].number
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
