/// The few protobuf wire-format pieces the tim-rest fields kept in unknown fields need.
enum TIMRESTWire {
    static func varint(_ value: UInt64) -> [UInt8] { Varint.encode(value) }

    /// A length prefix and `payload`.
    static func lengthDelimited(_ payload: [UInt8]) -> [UInt8] {
        varint(UInt64(payload.count)) + payload
    }

    static func readVarint(_ bytes: ArraySlice<UInt8>) -> (value: UInt64, rest: ArraySlice<UInt8>)? {
        var position = bytes.startIndex
        guard let value = Varint.read(bytes, at: &position, end: bytes.endIndex) else { return nil }
        return (value, bytes[position...])
    }

    /// One field at the start of `bytes`: its number, wire type, payload (a string's bytes, a
    /// varint's bytes, a fixed value's bytes, a group's body and end tag), all of its raw bytes, and
    /// what follows. `nil` when malformed.
    static func readField(_ bytes: ArraySlice<UInt8>)
        -> (number: Int, wireType: UInt8, payload: ArraySlice<UInt8>, raw: ArraySlice<UInt8>, rest: ArraySlice<UInt8>)?
    {
        guard let (tag, afterTag) = readVarint(bytes), tag >> 3 <= UInt64(Int32.max) else { return nil }
        let number = Int(tag >> 3)
        let wireType = UInt8(tag & 7)
        var end: Int
        var payloadStart = afterTag.startIndex
        switch wireType {
        case 0:
            guard let (_, rest) = readVarint(afterTag) else { return nil }
            end = rest.startIndex
        case 4: end = afterTag.startIndex
        case 1: end = afterTag.startIndex + 8
        case 5: end = afterTag.startIndex + 4
        case 2:
            guard let (length, rest) = readVarint(afterTag), length <= UInt64(rest.count) else { return nil }
            payloadStart = rest.startIndex
            end = rest.startIndex + Int(length)
        case 3:
            var rest = afterTag
            while true {
                guard let inner = readField(rest) else { return nil }
                rest = inner.rest
                if inner.wireType == 4 {
                    guard inner.number == number else { return nil }
                    break
                }
            }
            end = rest.startIndex
        default:
            return nil
        }
        guard end <= bytes.endIndex else { return nil }
        return (number, wireType, bytes[payloadStart..<end], bytes[bytes.startIndex..<end], bytes[end...])
    }
}
