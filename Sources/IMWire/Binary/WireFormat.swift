/// Protobuf wire types (the low three bits of a tag).
enum WireType {
    static let varint: UInt8 = 0
    static let fixed64: UInt8 = 1
    static let lengthDelimited: UInt8 = 2
    static let startGroup: UInt8 = 3
    static let endGroup: UInt8 = 4
    static let fixed32: UInt8 = 5

    static func name(_ wireType: UInt8) -> String {
        switch wireType {
        case varint: "varint"
        case fixed64: "fixed64"
        case lengthDelimited: "length-delimited"
        case startGroup: "start-group"
        case endGroup: "end-group"
        case fixed32: "fixed32"
        default: "invalid(\(wireType))"
        }
    }
}

enum Varint {
    /// The highest field number protobuf allows, 2^29 - 1.
    static let maxFieldNumber = (1 << 29) - 1

    /// Bytes needed to write `value` as a varint (1...10).
    @inline(__always)
    static func size(_ value: UInt64) -> Int {
        // 1 + floor(bits / 7), with 0 taking one byte.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }

    @inline(__always)
    static func size(_ value: Int) -> Int { size(UInt64(truncatingIfNeeded: value)) }

    @inline(__always)
    static func tagSize(_ field: Int) -> Int { size(UInt64(field) << 3) }
}
