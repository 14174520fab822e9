import IMWireCore

/// Protobuf wire types (the low three bits of a tag).
@usableFromInline package enum WireType {
    @usableFromInline package static let varint: UInt8 = 0
    @usableFromInline package static let fixed64: UInt8 = 1
    @usableFromInline package static let lengthDelimited: UInt8 = 2
    @usableFromInline package static let startGroup: UInt8 = 3
    @usableFromInline package static let endGroup: UInt8 = 4
    @usableFromInline package static let fixed32: UInt8 = 5

    @usableFromInline package static func name(_ wireType: UInt8) -> String {
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

/// Varint sizes and the one varint writer. There is no varint reader here: protobuf bytes are read
/// only through ``WireCursor`` (the decoders and ``BinaryDecoder``, the routing view's and `imwire
/// inspect`'s field walker); ``DelimitedPrefix`` reads stream length prefixes itself and says why.
@usableFromInline package enum Varint {
    /// The highest field number protobuf allows, 2^29 - 1.
    @usableFromInline package static let maxFieldNumber = (1 << 29) - 1

    /// Bytes needed to write `value` as a varint (1...10).
    @inline(__always)
    static func size(_ value: UInt64) -> Int {
        // 1 + floor(bits / 7), with 0 taking one byte.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }

    @inline(__always)
    @usableFromInline package static func size(_ value: Int) -> Int { size(UInt64(truncatingIfNeeded: value)) }

    @inline(__always)
    static func tagSize(_ field: Int) -> Int { size(UInt64(field) << 3) }

    /// Writes `value` as a varint at `destination` (room for ``size(_:)-(UInt64)`` bytes) and returns
    /// how many bytes it wrote. The one varint writer: the binary writer, delimited framing and
    /// ``encode(_:)`` all use it.
    @inline(__always)
    @usableFromInline package static func write(_ value: UInt64, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        // [unsafe: binary-writer] every caller gives room for ``size(_:)-(UInt64)`` bytes, which is the count
        // this loop writes.
        var value = value
        var count = 0
        while value >= 0x80 {
            destination[count] = UInt8(truncatingIfNeeded: value) | 0x80
            count &+= 1
            value >>= 7
        }
        destination[count] = UInt8(truncatingIfNeeded: value)
        return count &+ 1
    }

    /// `value` as varint bytes.
    @usableFromInline package static func encode(_ value: UInt64) -> [UInt8] {
        // [unsafe: binary-writer] the array's capacity is the varint's size (at least 1, so the base address
        // is there).
        [UInt8](unsafeUninitializedCapacity: size(value)) { buffer, initializedCount in
            initializedCount = write(value, to: buffer.baseAddress!)
        }
    }
}
