import IMWireCore

/// The size of a message's binary encoding, counted through the generated ``ProtoMessage/traverse(_:)``:
/// the first of the two passes an encoder driven by `traverse` front to back would make (it must
/// write each sub-message's length before the sub-message), as swift-protobuf's does.
///
/// IMWire's encoder does not use it. ``BinaryWriter`` writes back to front through the generated
/// `_writeBinary`, one pass in which each length is known when it is written; this visitor exists so
/// that `Scripts/bench` can time the pass a `traverse`-driven encoder would add (`binary-size-traverse`
/// against `binary-encode`), the measured reason for keeping a second generated walk per type.
/// `BinarySizeVisitorTests` checks that it counts what the encoder writes.
struct BinarySizeVisitor: FieldVisitor {
    typealias Failure = Never
    private(set) var size = 0

    static func size<M: ProtoMessage>(of message: M) -> Int {
        var visitor = BinarySizeVisitor()
        message.traverse(&visitor)
        return visitor.size
    }

    @inline(__always)
    private mutating func delimited(_ length: Int, field: Int) {
        size &+= Varint.tagSize(field) &+ Varint.size(length) &+ length
    }

    mutating func visitString(_ value: String, field: Int) { delimited(value.utf8.count, field: field) }
    mutating func visitBytes(_ value: [UInt8], field: Int) { delimited(value.count, field: field) }
    mutating func visitUInt64(_ value: UInt64, field: Int) { size &+= Varint.tagSize(field) &+ Varint.size(value) }
    mutating func visitUInt32(_ value: UInt32, field: Int) { size &+= Varint.tagSize(field) &+ Varint.size(UInt64(value)) }
    mutating func visitInt32(_ value: Int32, field: Int) { size &+= Varint.tagSize(field) &+ Varint.size(Int(value)) }
    mutating func visitBool(_ value: Bool, field: Int) { size &+= Varint.tagSize(field) &+ 1 }
    mutating func visitDouble(_ value: Double, field: Int) { size &+= Varint.tagSize(field) &+ 8 }
    mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) {
        size &+= Varint.tagSize(field) &+ Varint.size(Int(value.rawValue))
    }
    mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) {
        delimited(Self.size(of: value), field: field)
    }
    mutating func visitRepeatedString(_ value: [String], field: Int) {
        for string in value { visitString(string, field: field) }
    }
    mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) {
        for message in value { visitMessage(message, field: field) }
    }
    mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) {
        // Key and value always written, as the encoder does.
        for entry in value.entries {
            let key = entry.key.utf8.count, bytes = entry.value.count
            delimited(2 &+ Varint.size(key) &+ key &+ Varint.size(bytes) &+ bytes, field: field)
        }
    }
    mutating func visitUnknownFields(_ value: UnknownFields) { size &+= value.bytes.count }
}

/// For the benchmark harness only (`imwire-bench --op binary-size-traverse`): the sizing pass of a
/// `traverse`-driven encoder, timed beside IMWire's one-pass encode. Not API.
@_spi(Benchmarks)
public enum _BinarySizing {
    public static func sizeThroughTraverse(of message: Message) -> Int { BinarySizeVisitor.size(of: message) }
}
