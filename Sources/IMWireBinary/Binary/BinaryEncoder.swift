import IMWireCore

/// Canonical protobuf encoding in one pass, back to front (as upb writes): fields in descending
/// field-number order into the end of a buffer the thread keeps (``Scratch``), each sub-message's
/// length written after its body, when it is known — so nothing is sized first. The caller gets the
/// finished bytes (to copy into its own container) before the buffer goes back to the thread.
///
/// Canonical form (the BinaryAndJSON article): fields in field-number order, proto3 defaults omitted,
/// map entries sorted by key bytes with key and value always written, unknown fields after known
/// ones.
@usableFromInline package enum BinaryEncoder {
    /// Encodes `message` and calls `body` with the bytes (valid only during the call).
    @inline(__always)
    @usableFromInline package static func withEncoding<M: BinaryFieldCoding, R>(
        _ message: borrowing M, options: BinaryEncodingOptions, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) throws(IMWireError) -> R {
        var writer = BinaryWriter(maxDepth: options.maxDepth)
        defer { writer.release() }
        try message._writeBinary(&writer)
        return body(writer.bytes)
    }

    /// The encoding of `message` in a new array.
    @usableFromInline package static func encode<M: BinaryFieldCoding>(_ message: M, options: BinaryEncodingOptions) throws(IMWireError) -> [UInt8] {
        try withEncoding(message, options: options) { Array($0) }
    }
}

/// The back-to-front writer behind ``BinaryEncoder``: each method prepends one whole field to what
/// is written so far. A value writes itself field by field (its generated `_writeBinary`, last field
/// first).
///
/// Why a second generated walk per type, beside the `traverse` every other writer is driven by: a
/// sub-message's length comes before it, so a writer driven front to back by `traverse` must size
/// every message first (swift-protobuf's encoder does), and that sizing pass alone
/// (`BinarySizeVisitor`, `Scripts/bench`'s `binary-size-traverse`) takes 0.47× the time of this
/// writer's whole encode on chat messages, 0.33× on the random corpus, 0.49× on the fixtures and
/// 0.86× on a merger of 300 messages (medians of 6 interleaved rounds, 2026-11-27, during 0.3.0's
/// development). Written back to front, each length is known when it is written: one pass.
@usableFromInline package struct BinaryWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The first byte written so far: bytes go from `capacity` downwards.
    private var position: Int
    private var depth = 1
    private let maxDepth: Int
    private var stackGuard = StackGuard()
    /// ``SmallString/isAvailable``, read once per encode.
    private let smallStrings = SmallString.isAvailable

    @usableFromInline package init(maxDepth: Int) {
        // [unsafe: thread-scratch] the thread's bytes buffer, taken out of its slot until ``release()``.
        (base, capacity) = Scratch.bytes.take()
        position = capacity
        self.maxDepth = maxDepth
    }

    /// Bytes written so far.
    @inline(__always)
    @usableFromInline package var count: Int { capacity &- position }

    /// The bytes written, valid until ``release()``.
    ///
    /// [unsafe: binary-writer] `position..<capacity` are the bytes written.
    @usableFromInline package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base + position, count: count) }

    /// Returns the buffer to the thread.
    ///
    /// [unsafe: thread-scratch] Given back once, by the encode's `defer`, after the caller's last
    /// read of ``bytes``.
    @usableFromInline package func release() { Scratch.bytes.giveBack(base, capacity: capacity) }

    // MARK: - Bytes

    @inline(__always)
    private mutating func reserve(_ byteCount: Int) {
        if byteCount > position { grow(byteCount) }
    }

    /// A buffer at least twice as large (grown in place where the allocator can), with what is
    /// written moved to its end.
    @inline(never)
    private mutating func grow(_ byteCount: Int) {
        // [unsafe: binary-writer] the new capacity leaves `byteCount` free bytes in front of the `used`
        // written ones, which move to its end (`update` copies forwards; the ranges may overlap only when the
        // block stayed in place, and then the destination is after the source, which `update(from:count:)`, a
        // `memmove`, allows). [unsafe: thread-scratch] The block replaces the one taken.
        let used = count
        var newCapacity = capacity &* 2
        while newCapacity &- used < byteCount { newCapacity &*= 2 }
        base = ScratchMemory.resize(base, to: newCapacity)
        (base + (newCapacity &- used)).update(from: base + position, count: used)
        capacity = newCapacity
        position = newCapacity &- used
    }

    @inline(__always)
    private mutating func writeRaw(_ bytes: UnsafeBufferPointer<UInt8>) {
        // [unsafe: binary-writer] `reserve(byteCount)` leaves `position >= byteCount` before `position` moves
        // down by it; the buffer is not empty, so it has a base address.
        let byteCount = bytes.count
        guard byteCount > 0 else { return }
        reserve(byteCount)
        position &-= byteCount
        (base + position).update(from: bytes.baseAddress!, count: byteCount)
    }

    @inline(__always)
    private mutating func writeVarint(_ value: UInt64) {
        // [unsafe: binary-writer] `reserve(size)` first, `size` being the varint's length
        // (``Varint/size(_:)-(UInt64)``).
        if value < 0x80 {
            reserve(1)
            position &-= 1
            base[position] = UInt8(truncatingIfNeeded: value)
            return
        }
        let size = Varint.size(value)
        reserve(size)
        position &-= size
        _ = Varint.write(value, to: base + position)
    }

    @inline(__always)
    private mutating func writeTag(_ field: Int, _ wireType: UInt8) {
        writeVarint(UInt64(truncatingIfNeeded: field) << 3 | UInt64(wireType))
    }

    @inline(__always)
    private mutating func writeLengthDelimited(_ bytes: UnsafeBufferPointer<UInt8>, field: Int) {
        writeRaw(bytes)
        writeVarint(UInt64(truncatingIfNeeded: bytes.count))
        writeTag(field, WireType.lengthDelimited)
    }

    @inline(__always)
    private mutating func writeFixed64(_ bits: UInt64, field: Int) {
        // [unsafe: binary-writer] `reserve(8)` first.
        reserve(8)
        position &-= 8
        UnsafeMutableRawPointer(base + position).storeBytes(of: bits.littleEndian, as: UInt64.self)
        writeTag(field, WireType.fixed64)
    }

    /// Enters a sub-message (depth-checked); returns the count to measure its length from.
    @inline(__always)
    private mutating func enter() throws(IMWireError) -> Int {
        guard depth < maxDepth else {
            throw .depthLimitExceeded(.encodedMessages, limit: maxDepth)
        }
        depth &+= 1
        try stackGuard.check(depth: depth)
        return count
    }

    /// Leaves a sub-message entered at `start`: writes its length and tag in front of it.
    @inline(__always)
    private mutating func leave(_ start: Int, field: Int) {
        depth &-= 1
        writeVarint(UInt64(truncatingIfNeeded: count &- start))
        writeTag(field, WireType.lengthDelimited)
    }

    // MARK: - Fields

    // Each is inlined into the generated `_writeBinary`, where `field` is a constant: the tag's bytes
    // are then known when the code is compiled.

    @inline(__always)
    @usableFromInline package mutating func string(_ value: String, field: Int) {
        if smallStrings {
            let (low, high) = SmallString.words(of: value)
            if SmallString.isSmall(high) {
                writeSmallString(low, high)
                writeTag(field, WireType.lengthDelimited)
                return
            }
        }
        writeLargeString(value)
        writeTag(field, WireType.lengthDelimited)
    }

    /// A string kept in the `String` value itself (``SmallString``): its bytes and length written with
    /// two stores and a shift, no copy loop. Bytes below the string's first, in the free part of the
    /// buffer, are overwritten by what is written next.
    @inline(__always)
    private mutating func writeSmallString(_ low: UInt64, _ high: UInt64) {
        // [unsafe: binary-writer] `reserve(16)` first: the 16-byte window ends at `position`, and the string
        // (at most 15 bytes) and its one-byte length fit in it.
        let count = SmallString.count(high)
        reserve(16)
        // The string's bytes as a 128-bit little-endian number, shifted so that they end at `position`.
        let bytes = high & 0x00FF_FFFF_FFFF_FFFF
        let shift = UInt64(truncatingIfNeeded: (16 &- count) &* 8)  // 8...128
        let top: UInt64, bottom: UInt64
        if shift >= 64 {
            (top, bottom) = (shift == 128 ? 0 : low &<< (shift &- 64), 0)
        } else {
            (top, bottom) = (bytes &<< shift | low &>> (64 &- shift), low &<< shift)
        }
        let window = UnsafeMutableRawPointer(base + (position &- 16))
        window.storeBytes(of: bottom.littleEndian, as: UInt64.self)
        window.storeBytes(of: top.littleEndian, toByteOffset: 8, as: UInt64.self)
        position &-= count
        base[position &- 1] = UInt8(truncatingIfNeeded: count)  // the length: one byte
        position &-= 1
    }

    @inline(never)
    private mutating func writeLargeString(_ value: String) {
        if let done: Void = value.utf8.withContiguousStorageIfAvailable({ buffer in
            writeRaw(buffer)
            writeVarint(UInt64(truncatingIfNeeded: buffer.count))
        }) {
            return done
        }
        var copy = value
        copy.withUTF8 { buffer in
            writeRaw(buffer)
            writeVarint(UInt64(truncatingIfNeeded: buffer.count))
        }
    }

    @inline(__always)
    @usableFromInline package mutating func bytes(_ value: [UInt8], field: Int) {
        value.withUnsafeBufferPointer { writeLengthDelimited($0, field: field) }
    }

    @inline(__always)
    @usableFromInline package mutating func uint64(_ value: UInt64, field: Int) {
        writeVarint(value)
        writeTag(field, WireType.varint)
    }

    @inline(__always)
    @usableFromInline package mutating func uint32(_ value: UInt32, field: Int) {
        writeVarint(UInt64(value))
        writeTag(field, WireType.varint)
    }

    /// Negative values are sign-extended to 64 bits on the wire: 10 bytes.
    @inline(__always)
    @usableFromInline package mutating func int32(_ value: Int32, field: Int) {
        writeVarint(UInt64(bitPattern: Int64(value)))
        writeTag(field, WireType.varint)
    }

    @inline(__always)
    @usableFromInline package mutating func bool(_ value: Bool, field: Int) {
        writeVarint(value ? 1 : 0)
        writeTag(field, WireType.varint)
    }

    @inline(__always)
    @usableFromInline package mutating func double(_ value: Double, field: Int) {
        writeFixed64(value.bitPattern, field: field)
    }

    @inline(__always)
    @usableFromInline package mutating func enumeration<E: ProtoEnum>(_ value: E, field: Int) {
        int32(value.rawValue, field: field)
    }

    /// (`borrowing`: a message is written where it is, never copied first — a copy retains every
    /// reference it holds.)
    @inline(__always)
    @usableFromInline package mutating func message<M: BinaryFieldCoding>(_ value: borrowing M, field: Int) throws(IMWireError) {
        let start = try enter()
        try value._writeBinary(&self)
        leave(start, field: field)
    }

    @usableFromInline package mutating func repeatedString(_ value: [String], field: Int) {
        // [unsafe: binary-writer] `index` runs from `strings.count - 1` down to 0.
        value.withUnsafeBufferPointer { strings in
            var index = strings.count
            while index > 0 {
                index &-= 1
                string(strings[index], field: field)
            }
        }
    }

    @usableFromInline package mutating func repeatedMessage<M: BinaryFieldCoding>(_ value: borrowing [M], field: Int) throws(IMWireError) {
        let messages = value.span
        var index = messages.count
        while index > 0 {
            index &-= 1
            try message(messages[index], field: field)
        }
    }

    /// Entries in canonical order, by key bytes; key and value always written (as upb and the C++
    /// runtime do).
    @usableFromInline package mutating func stringToBytesMap(_ value: StringBytesMap, field: Int) {
        for entry in value.entries.reversed() {
            let start = count
            bytes(entry.value, field: 2)
            string(entry.key, field: 1)
            writeVarint(UInt64(truncatingIfNeeded: count &- start))
            writeTag(field, WireType.lengthDelimited)
        }
    }

    @usableFromInline package mutating func unknownFields(_ value: UnknownFields) {
        value.bytes.withUnsafeBufferPointer { writeRaw($0) }
    }
}
