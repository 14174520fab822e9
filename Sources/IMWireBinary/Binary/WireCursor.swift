import IMWireCore

/// The cursor of every binary reader — ``BinaryReader`` (into the model's values), ``ArenaDecoder``
/// (into a message view's words) and ``BinaryDecoder`` (the field walker of the routing view and
/// `imwire inspect`) — and the reads they all make the same way: the varints that do not fit their
/// fast paths, fixed-width values, length prefixes, entering a sub-message, skipping an unknown
/// field or group, and the errors, so they refuse the same input with the same error at the same
/// offset. Each keeps its own tag handling and fast paths.
///
/// The conformers' stored properties are the requirements; the methods below are specialised for
/// each decoder (the module is compiled whole), so they cost what methods of the decoder would.
///
/// Bounds: the cursor keeps `0 <= position <= end <= inputCount`, `base` pointing at `inputCount`
/// readable bytes. A byte is read at `base[i]` only for `i < end`, checked in the same expression or
/// by `end - position >= n` before an `n`-byte read; `position` moves past a length only after
/// ``readLength()`` checked it against `end - position`, and `end` only narrows, to `position +` a
/// checked length (``enterSubmessage()``), or goes back to an outer `end` it was saved from.
@usableFromInline package protocol WireCursor {
    var base: UnsafePointer<UInt8> { get }
    /// The whole input's size (an `end` equal to it is the input's end, for error messages).
    var inputCount: Int { get }
    var position: Int { get set }
    /// End of the message being decoded.
    var end: Int { get set }
    var depth: Int { get set }
    var maxDepth: Int { get }
    var stackGuard: StackGuard { get set }
}

extension WireCursor {
    /// A varint that the decoder's fast path did not finish (two bytes or more, or near `end`).
    @inlinable
    mutating func readVarintSlow() throws(IMWireError) -> UInt64 {
        if end &- position >= 10 {
            // [unsafe: wire-cursor] Ten bytes are there (`end - position >= 10`): `p[0...9]` are
            // inside the message; below, each byte is read after `position < end`.
            let p = base + position
            var result = UInt64(p[0] & 0x7F)
            if p[0] < 0x80 {
                position &+= 1
                return result
            }
            for index in 1..<9 {
                let byte = p[index]
                result |= UInt64(byte & 0x7F) &<< UInt64(7 &* index)
                if byte < 0x80 {
                    position &+= index &+ 1
                    return result
                }
            }
            let last = p[9]
            guard last & 0x80 == 0 else {
                throw .varintTooLong(offset: position)
            }
            position &+= 10
            return result | (UInt64(last & 1) << 63)
        }
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw truncated(start, "a varint") }
            let byte = base[position]
            position &+= 1
            if shift == 63 {
                // The 10th byte holds bit 63 only; more continuation means more than 64 bits.
                guard byte & 0x80 == 0 else {
                    throw .varintTooLong(offset: start)
                }
                return result | (UInt64(byte & 1) << 63)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift &+= 7
        }
    }

    /// A varint: one byte inline, anything else through ``readVarintSlow()``.
    @inline(__always)
    @inlinable
    package mutating func readShortVarint() throws(IMWireError) -> UInt64 {
        // [unsafe: wire-cursor] `base[position]` after `position < end`.
        if position < end {
            let byte = base[position]
            if byte < 0x80 {
                position &+= 1
                return UInt64(byte)
            }
        }
        return try readVarintSlow()
    }

    @inline(__always)
    @inlinable
    package mutating func readFixed64() throws(IMWireError) -> UInt64 { try readFixed(UInt64.self) }

    @inline(__always)
    @inlinable
    package mutating func readFixed32() throws(IMWireError) -> UInt32 { try readFixed(UInt32.self) }

    /// A little-endian fixed-width value.
    @inline(__always)
    @inlinable
    mutating func readFixed<Value: FixedWidthInteger>(_: Value.Type) throws(IMWireError) -> Value {
        let size = MemoryLayout<Value>.size
        // [unsafe: wire-cursor] `size` bytes are left before the unaligned load.
        guard end &- position >= size else { throw truncated(position, "a fixed\(Value.bitWidth) value") }
        let value = UnsafeRawPointer(base + position).loadUnaligned(as: Value.self)
        position &+= size
        return Value(littleEndian: value)
    }

    /// A length prefix, checked against the bytes left in the enclosing message.
    @inline(__always)
    @inlinable
    package mutating func readLength() throws(IMWireError) -> Int {
        let start = position
        let length = try readShortVarint()
        guard length <= UInt64(end &- position) else {
            throw .lengthOutOfBounds(length, remaining: end &- position, inInput: end == inputCount, offset: start)
        }
        return Int(truncatingIfNeeded: length)
    }

    /// A string value: its UTF-8 checked once (eight bytes at a time when short, vectorised when
    /// long), returned as the offset of its bytes, their count and whether all are ASCII.
    @inline(__always)
    @inlinable
    package mutating func readUTF8() throws(IMWireError) -> (start: Int, count: Int, isASCII: Bool) {
        let length = try readLength()
        let start = position
        position &+= length
        if length == 0 { return (start, 0, true) }
        // [unsafe: wire-cursor] `length <= end - start` (``readLength()``): the string is inside.
        let bytes = UnsafeBufferPointer(start: base + start, count: length)
        switch UTF8Validation.check(bytes) {
        case .ascii: return (start, length, true)
        case .valid: return (start, length, false)
        case .invalid: throw invalidUTF8(bytes, at: start)
        }
    }

    /// Enters a length-delimited sub-message: checks its length and the depth limit, and narrows
    /// `end` to it. Returns the outer `end`.
    @inline(__always)
    @inlinable
    package mutating func enterSubmessage() throws(IMWireError) -> Int {
        let lengthOffset = position
        let length = try readLength()
        guard depth < maxDepth else {
            throw .depthLimitExceeded(.messages, limit: maxDepth, offset: lengthOffset)
        }
        let outerEnd = end
        end = position &+ length
        depth &+= 1
        try stackGuard.check(depth: depth, offset: lengthOffset)
        return outerEnd
    }

    /// Skips the value of an unknown field of `wireType` (a group up to its end tag).
    @inlinable
    package mutating func skipField(_ wireType: UInt8, number: Int) throws(IMWireError) {
        switch wireType {
        case WireType.varint:
            _ = try readShortVarint()
        case WireType.fixed64:
            _ = try readFixed64()
        case WireType.lengthDelimited:
            position &+= try readLength()
        case WireType.fixed32:
            guard end &- position >= 4 else { throw truncated(position, "a fixed32 value") }
            position &+= 4
        default:
            try skipGroup(number)
        }
    }

    /// Skips an unknown group up to its matching end-group tag; each nested group is a level.
    @inline(never)
    @inlinable
    mutating func skipGroup(_ number: Int) throws(IMWireError) {
        let start = position
        guard depth < maxDepth else {
            throw .depthLimitExceeded(.groups, limit: maxDepth, offset: start)
        }
        depth &+= 1
        try stackGuard.check(depth: depth, offset: start)
        while true {
            guard position < end else {
                // Unclosed at the end of the input too: a group needs its end tag.
                throw .malformedGroup(unclosed: number, inInput: end == inputCount, offset: start)
            }
            let tagStart = position
            let tag = try readShortVarint()
            let inner = tag >> 3
            let wireType = UInt8(truncatingIfNeeded: tag & 7)
            guard inner != 0, inner <= UInt64(Varint.maxFieldNumber), position &- tagStart <= 5, wireType <= 5 else {
                throw badTag(tag, at: tagStart)
            }
            if wireType == WireType.endGroup {
                guard inner == UInt64(number) else {
                    throw .malformedGroup(endTagFor: Int(truncatingIfNeeded: inner), closing: number, offset: tagStart)
                }
                break
            }
            try skipField(wireType, number: Int(truncatingIfNeeded: inner))
        }
        depth &-= 1
    }

    // MARK: - Errors

    @usableFromInline func truncated(_ offset: Int, _ what: String) -> IMWireError {
        .truncated(inInput: end == inputCount, inside: what, start: offset, end: end)
    }

    @inline(never)
    @usableFromInline func invalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> IMWireError {
        // [unsafe: wire-cursor] `bytes` is the string at `start` (inside the input) and holds an
        // invalid byte, so `firstInvalidIndex` is below its count and `bad` inside the input.
        let bad = start + UTF8Validation.firstInvalidIndex(bytes)
        assert(bad >= start && bad < start + bytes.count, "an invalid string without an invalid byte")
        return .invalidUTF8(stringLength: bytes.count, start: start, bad: bad, badByte: base[bad])
    }

    /// The error for a tag a decoder refuses: field number 0 or too large, more than 5 bytes, or
    /// wire type 6 or 7 — checked in that order. `position` is just past the tag.
    @inline(never)
    @usableFromInline package func badTag(_ tag: UInt64, at offset: Int) -> IMWireError {
        let number = tag >> 3
        if number == 0 || number > UInt64(Varint.maxFieldNumber) {
            return .invalidFieldNumber(number, highest: Varint.maxFieldNumber, offset: offset)
        }
        if position - offset > 5 {
            return .tagTooLong(size: position - offset, offset: offset)
        }
        return .invalidWireType(UInt8(truncatingIfNeeded: tag & 7), field: number, offset: offset)
    }
}
