/// Canonical protobuf encoding in two passes over the same ``ProtoMessage/traverse(_:)``:
/// ``BinarySizer`` computes every sub-message's size once (pre-order, cached in an array, so
/// nesting costs O(n), not swift-protobuf's O(depth²)), then ``BinaryWriter`` writes into one
/// buffer of exactly the total size.
///
/// Canonical form (the BinaryAndJSON article): fields in field-number order, proto3 defaults omitted, map entries
/// sorted by key bytes with key and value always written, unknown fields after known ones.
package enum BinaryEncoder {
    package static func encode<M: ProtoMessage>(_ message: M, options: BinaryEncodingOptions) throws(IMWireError) -> [UInt8] {
        let plan = try plan(message, options: options)
        if plan.count == 0 { return [] }
        return [UInt8](unsafeUninitializedCapacity: plan.count) { buffer, initializedCount in
            write(message, plan: plan, to: buffer.baseAddress!)
            initializedCount = plan.count
        }
    }

    /// Pass one: the total size and every sub-message's size.
    package static func plan<M: ProtoMessage>(_ message: M, options: BinaryEncodingOptions) throws(IMWireError) -> BinaryEncodingPlan {
        var sizer = BinarySizer(maxDepth: options.maxDepth)
        try message.traverse(&sizer)
        return BinaryEncodingPlan(count: sizer.total, sizes: sizer.sizes)
    }

    /// Pass two: writes exactly `plan.count` bytes at `base`. The writer visits exactly what the
    /// sizer visited, so it cannot fail.
    package static func write<M: ProtoMessage>(_ message: M, plan: BinaryEncodingPlan, to base: UnsafeMutablePointer<UInt8>) {
        var writer = BinaryWriter(base: base, sizes: plan.sizes)
        message.traverse(&writer)
        precondition(writer.position == plan.count, "sizer and writer disagree")
    }
}

/// What the sizer found: the encoding's size and each sub-message's body size in pre-order.
@usableFromInline package struct BinaryEncodingPlan: Sendable {
    @usableFromInline package let count: Int
    let sizes: SizeList
}

/// The sizer's list of sub-message sizes: the first eight inline (most messages have fewer, and an
/// array would cost an allocation and a type-metadata lookup per encode, a tenth of encoding a chat
/// message), the rest in an array.
struct SizeList: Sendable {
    private var inline: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var overflow: [Int] = []
    private(set) var count = 0
    private static let inlineCapacity = 8

    @inline(__always)
    mutating func append(_ value: Int) {
        if count < Self.inlineCapacity {
            withUnsafeMutableBytes(of: &inline) { $0.storeBytes(of: value, toByteOffset: count * MemoryLayout<Int>.stride, as: Int.self) }
        } else {
            overflow.append(value)
        }
        count += 1
    }

    subscript(index: Int) -> Int {
        @inline(__always) get {
            if index < Self.inlineCapacity {
                return withUnsafeBytes(of: inline) { $0.load(fromByteOffset: index * MemoryLayout<Int>.stride, as: Int.self) }
            }
            return overflow[index - Self.inlineCapacity]
        }
        @inline(__always) set {
            if index < Self.inlineCapacity {
                withUnsafeMutableBytes(of: &inline) { $0.storeBytes(of: newValue, toByteOffset: index * MemoryLayout<Int>.stride, as: Int.self) }
            } else {
                overflow[index - Self.inlineCapacity] = newValue
            }
        }
    }
}

/// Pass one: sizes. `sizes` holds each sub-message's body size in pre-order.
struct BinarySizer: FieldVisitor {
    typealias Failure = IMWireError
    var total = 0
    var sizes = SizeList()
    private var depth = 1
    private let maxDepth: Int
    private var stackGuard = StackGuard()

    init(maxDepth: Int) {
        self.maxDepth = maxDepth
    }

    @inline(__always)
    private mutating func addLengthDelimited(_ length: Int, field: Int) {
        total &+= Varint.tagSize(field) &+ Varint.size(length) &+ length
    }

    mutating func visitString(_ value: String, field: Int) { addLengthDelimited(value.utf8.count, field: field) }
    mutating func visitBytes(_ value: [UInt8], field: Int) { addLengthDelimited(value.count, field: field) }
    mutating func visitUInt64(_ value: UInt64, field: Int) { total &+= Varint.tagSize(field) &+ Varint.size(value) }
    mutating func visitUInt32(_ value: UInt32, field: Int) { total &+= Varint.tagSize(field) &+ Varint.size(UInt64(value)) }
    mutating func visitInt32(_ value: Int32, field: Int) {
        // Negative int32 is sign-extended to 64 bits on the wire: 10 bytes.
        total &+= Varint.tagSize(field) &+ Varint.size(UInt64(bitPattern: Int64(value)))
    }
    mutating func visitBool(_ value: Bool, field: Int) { total &+= Varint.tagSize(field) &+ 1 }
    mutating func visitDouble(_ value: Double, field: Int) { total &+= Varint.tagSize(field) &+ 8 }
    mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) {
        total &+= Varint.tagSize(field) &+ Varint.size(UInt64(bitPattern: Int64(value.rawValue)))
    }

    mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) throws(IMWireError) {
        guard depth < maxDepth else {
            throw IMWireError(
                code: .depthLimitExceeded,
                reason: "message nesting exceeds the encoder's limit of \(counted(maxDepth, "level"))")
        }
        depth += 1
        // The writer recurses exactly as deep, with smaller frames: checking here covers it.
        try stackGuard.check(depth: depth)
        let slot = sizes.count
        sizes.append(0)
        let outer = total
        total = 0
        try value.traverse(&self)
        let size = total
        sizes[slot] = size
        total = outer
        addLengthDelimited(size, field: field)
        depth -= 1
    }

    mutating func visitRepeatedString(_ value: [String], field: Int) {
        for string in value { visitString(string, field: field) }
    }

    mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) throws(IMWireError) {
        // Through the buffer: elements are borrowed, not copied (a copy retains every field).
        try value.withUnsafeBufferPointer { (messages) throws(IMWireError) in
            for index in messages.indices { try visitMessage(messages[index], field: field) }
        }
    }

    mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) {
        value.forEachUnordered { key, bytes in
            addLengthDelimited(MapEntry.size(keyLength: key.utf8.count, valueLength: bytes.count), field: field)
        }
    }

    mutating func visitUnknownFields(_ value: UnknownFields) { total &+= value.bytes.count }
}

/// A `map<string, bytes>` entry on the wire: a message {key = 1; value = 2}, both always written
/// (as upb and the C++ runtime do).
enum MapEntry {
    static func size(keyLength: Int, valueLength: Int) -> Int {
        1 + Varint.size(keyLength) + keyLength + 1 + Varint.size(valueLength) + valueLength
    }
}

/// Pass two: writes into a buffer of exactly the size the sizer computed.
struct BinaryWriter: FieldVisitor {
    typealias Failure = Never
    private let base: UnsafeMutablePointer<UInt8>
    private(set) var position = 0
    private let sizes: SizeList
    private var sizeIndex = 0

    init(base: UnsafeMutablePointer<UInt8>, sizes: SizeList) {
        self.base = base
        self.sizes = sizes
    }

    @inline(__always)
    private mutating func writeVarint(_ value: UInt64) {
        position &+= Varint.write(value, to: base + position)
    }

    @inline(__always)
    private mutating func writeTag(_ field: Int, _ wireType: UInt8) {
        writeVarint(UInt64(field) << 3 | UInt64(wireType))
    }

    @inline(__always)
    private mutating func writeRaw(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        (base + position).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        position &+= bytes.count
    }

    @inline(__always)
    private mutating func writeLengthDelimited(_ string: String) {
        let count = string.utf8.count
        writeVarint(UInt64(count))
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { writeRaw(UnsafeRawBufferPointer($0)) }
        if written == nil {
            var copy = string
            copy.withUTF8 { writeRaw(UnsafeRawBufferPointer($0)) }
        }
    }

    @inline(__always)
    private mutating func writeLengthDelimited(_ bytes: [UInt8]) {
        writeVarint(UInt64(bytes.count))
        bytes.withUnsafeBytes { writeRaw($0) }
    }

    mutating func visitString(_ value: String, field: Int) {
        writeTag(field, WireType.lengthDelimited)
        writeLengthDelimited(value)
    }

    mutating func visitBytes(_ value: [UInt8], field: Int) {
        writeTag(field, WireType.lengthDelimited)
        writeLengthDelimited(value)
    }

    mutating func visitUInt64(_ value: UInt64, field: Int) {
        writeTag(field, WireType.varint)
        writeVarint(value)
    }

    mutating func visitUInt32(_ value: UInt32, field: Int) {
        writeTag(field, WireType.varint)
        writeVarint(UInt64(value))
    }

    mutating func visitInt32(_ value: Int32, field: Int) {
        writeTag(field, WireType.varint)
        writeVarint(UInt64(bitPattern: Int64(value)))
    }

    mutating func visitBool(_ value: Bool, field: Int) {
        writeTag(field, WireType.varint)
        base[position] = value ? 1 : 0
        position &+= 1
    }

    mutating func visitDouble(_ value: Double, field: Int) {
        writeTag(field, WireType.fixed64)
        UnsafeMutableRawPointer(base + position).storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
        position &+= 8
    }

    mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) {
        writeTag(field, WireType.varint)
        writeVarint(UInt64(bitPattern: Int64(value.rawValue)))
    }

    mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) {
        writeTag(field, WireType.lengthDelimited)
        writeVarint(UInt64(sizes[sizeIndex]))
        sizeIndex &+= 1
        value.traverse(&self)
    }

    mutating func visitRepeatedString(_ value: [String], field: Int) {
        for string in value { visitString(string, field: field) }
    }

    mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) {
        value.withUnsafeBufferPointer { messages in
            for index in messages.indices { visitMessage(messages[index], field: field) }
        }
    }

    mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) {
        // Canonical order: by key bytes (StringBytesMap iterates that way).
        for entry in value {
            writeTag(field, WireType.lengthDelimited)
            writeVarint(UInt64(MapEntry.size(keyLength: entry.key.utf8.count, valueLength: entry.value.count)))
            writeTag(1, WireType.lengthDelimited)
            writeLengthDelimited(entry.key)
            writeTag(2, WireType.lengthDelimited)
            writeLengthDelimited(entry.value)
        }
    }

    mutating func visitUnknownFields(_ value: UnknownFields) {
        value.bytes.withUnsafeBytes { writeRaw($0) }
    }
}
