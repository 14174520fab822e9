import IMWireCore

/// Decodes protobuf bytes straight into the model's values: one pass over the input that checks
/// everything a decode must check (framing, field numbers, wire types, lengths, UTF-8 of every
/// string, nesting) and stores each field where the value keeps it. A string is checked by the
/// vectorised validator and copied once, into its `String`; nothing is made twice, and nothing is
/// left to build when a field is read.
///
/// Each generated type reads its own fields (`_decodeBinary`: one `switch` over the tags it knows)
/// with the reads below; the reader keeps the cursor, the bounds of the message being read, the
/// depth, and the errors.
///
/// Protobuf's merge rules hold as in any parser: the last occurrence of a scalar wins, a repeated
/// occurrence of a singular message or of the same oneof member merges into the value already
/// there, repeated fields append, and a field the schema does not know — or a known field with
/// another wire type — is kept, bytes and order, as an unknown field.
///
/// Safety: every length is checked against the bytes left before it is used, so memory is bounded
/// by the input; nesting is bounded by `maxDepth` on every recursive path (sub-messages, map entries,
/// unknown groups) and by the thread's stack (``StackGuard``).
@usableFromInline package struct BinaryReader: WireCursor {
    // The cursor (``WireCursor``: the reads this decoder shares with ``ArenaDecoder``).
    @usableFromInline package let base: UnsafePointer<UInt8>
    @usableFromInline package let inputCount: Int
    @usableFromInline package var position = 0
    /// End of the message being decoded.
    @usableFromInline package var end: Int
    @usableFromInline package var depth = 1
    @usableFromInline package let maxDepth: Int
    @usableFromInline package var stackGuard = StackGuard()
    /// Where the tag ``nextTag()`` returned last starts (for an unknown field's bytes and errors).
    private var tagStart = 0
    /// ``SmallString/isAvailable``, read once per decode.
    private let smallStrings = SmallString.isAvailable

    private init(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        base = buffer.readableBase
        inputCount = buffer.count
        end = buffer.count
        self.maxDepth = maxDepth
    }

    /// Decodes `buffer` as a message of type `M` into `message` (a new value, or one to merge into).
    @usableFromInline package static func decode<M: BinaryFieldCoding>(
        into message: inout M, from buffer: UnsafeBufferPointer<UInt8>, options: BinaryDecodingOptions
    ) throws(IMWireError) {
        try BinaryDecoder.checkLimits(inputCount: buffer.count, options: options)
        var reader = BinaryReader(buffer, maxDepth: options.maxDepth)
        try message._decodeBinary(&reader)
    }

    /// Decodes `buffer` as a new message of type `M`.
    @usableFromInline package static func decode<M: BinaryFieldCoding>(
        _ type: M.Type, from buffer: UnsafeBufferPointer<UInt8>, options: BinaryDecodingOptions
    ) throws(IMWireError) -> M {
        var message = M()
        try decode(into: &message, from: buffer, options: options)
        return message
    }

    // MARK: - Tags

    /// The next tag of the message being read (field number << 3 | wire type), or 0 at its end (a
    /// tag of field number 0 is refused here, so 0 is never a tag).
    ///
    /// A tag the generated code knows is valid by construction; any other one goes to
    /// ``readUnknownField(_:into:)``, which checks the rest. Only what no comparison with a known tag
    /// can catch is checked here: field number 0, a tag longer than 5 bytes (an over-long encoding of
    /// a known tag is refused, as C++, upb and Google's Required `BadTag_OverlongVarint` do) and a
    /// field number beyond 2^29 - 1.
    @inline(__always)
    @usableFromInline package mutating func nextTag() throws(IMWireError) -> UInt32 {
        // [unsafe: wire-cursor] `base[position]` after `position < end`.
        guard position < end else { return 0 }
        tagStart = position
        let first = base[position]
        if first < 0x80 {
            guard first >= 8 else { throw badTag(UInt64(first), at: position) }
            position &+= 1
            return UInt32(truncatingIfNeeded: first)
        }
        return try readLongTag()
    }

    @inline(never)
    private mutating func readLongTag() throws(IMWireError) -> UInt32 {
        let tag = try readVarintSlow()
        guard position &- tagStart <= 5, tag >> 3 != 0, tag >> 3 <= UInt64(Varint.maxFieldNumber) else {
            throw badTag(tag, at: tagStart)
        }
        return UInt32(truncatingIfNeeded: tag)
    }

    // MARK: - Values

    @inline(__always)
    @usableFromInline package mutating func readVarint() throws(IMWireError) -> UInt64 {
        // [unsafe: wire-cursor] two bytes read after `end - position >= 2`, one after `position < end`.
        if end &- position >= 2 {
            let byte = base[position]
            if byte < 0x80 {
                position &+= 1
                return UInt64(byte)
            }
            let second = base[position &+ 1]
            if second < 0x80 {
                position &+= 2
                return UInt64(byte & 0x7F) | UInt64(second) &<< 7
            }
        } else if position < end, base[position] < 0x80 {
            position &+= 1
            return UInt64(base[position &- 1])
        }
        return try readVarintSlow()
    }

    /// A string: its UTF-8 checked once (``readUTF8()``) and copied once, into the `String`, which
    /// is not checked again.
    @inline(__always)
    @usableFromInline package mutating func readString() throws(IMWireError) -> String {
        // [unsafe: wire-cursor] ``readUTF8()`` returned a range inside the message.
        let (start, count, isASCII) = try readUTF8()
        if count == 0 { return "" }
        return UTF8Validation.string(
            validated: UnsafeBufferPointer(start: base + start, count: count), isASCII: isASCII, smallStrings: smallStrings)
    }

    @inline(__always)
    @usableFromInline package mutating func readBytes() throws(IMWireError) -> [UInt8] {
        // [unsafe: wire-cursor] `length <= end - start` (``readLength()``).
        let length = try readLength()
        let start = position
        position &+= length
        if length == 0 { return [] }
        return Array(UnsafeBufferPointer(start: base + start, count: length))
    }

    // MARK: - Repeated fields

    /// The first element of a repeated field makes its array once, with room for every element the
    /// rest of the message holds (``occurrences(of:)``), instead of growing it element by element.
    @inline(__always)
    @usableFromInline package mutating func appendMessage<M: BinaryFieldCoding>(to array: inout [M], tag: UInt32) throws(IMWireError) {
        if array.isEmpty { array.reserveCapacity(capacityHint(tag)) }
        array.append(try readMessage(M.self))
    }

    @inline(__always)
    @usableFromInline package mutating func appendString(to array: inout [String], tag: UInt32) throws(IMWireError) {
        if array.isEmpty { array.reserveCapacity(capacityHint(tag)) }
        array.append(try readString())
    }

    /// ``occurrences(of:)``, without the call when this length-delimited value ends the message (a
    /// one-byte length: the common single elem at the end of a message).
    @inline(__always)
    private func capacityHint(_ tag: UInt32) -> Int {
        // [unsafe: wire-cursor] `base[position]` after `position < end`.
        if position < end, base[position] < 0x80, position &+ 1 &+ Int(base[position]) == end { return 1 }
        return occurrences(of: tag)
    }

    /// How many fields with `tag` follow one another from the one whose value starts at `position`
    /// (that one included): a capacity hint, found by stepping over their values — lengths only,
    /// nothing inside them — up to the first other tag. Canonical writers put a repeated field's
    /// elements together, so that is all of them; elements that come later, out of that order, grow
    /// the array as appends do. It never throws: at anything it cannot step over it stops, and the
    /// decode reports the problem when it gets there. Each element is stepped over once more, so the
    /// cost stays linear in the input.
    @inline(never)
    private func occurrences(of tag: UInt32) -> Int {
        var at = position
        var count = 1
        let wireType = tag & 7
        while let next = valueEnd(from: at, wireType: wireType), next < end, let (field, after) = peekVarint(next),
              field == UInt64(tag) {
            count &+= 1
            at = after
        }
        return count
    }

    /// Where a value of `wireType` starting at `offset` ends, or `nil` when that cannot be told
    /// (a group, a wire type no field has, a length past the message).
    @inline(__always)
    private func valueEnd(from offset: Int, wireType: UInt32) -> Int? {
        // [unsafe: wire-cursor] `base[at]` after `at < end`; the result may pass `end`, and its callers
        // compare it with `end` before reading there.
        switch wireType {
        case UInt32(WireType.varint):
            var at = offset
            while at < end, base[at] >= 0x80 { at &+= 1 }
            return at &+ 1
        case UInt32(WireType.fixed64): return offset &+ 8
        case UInt32(WireType.fixed32): return offset &+ 4
        case UInt32(WireType.lengthDelimited):
            guard let (length, next) = peekVarint(offset), length <= UInt64(end &- next) else { return nil }
            return next &+ Int(truncatingIfNeeded: length)
        default: return nil
        }
    }

    /// The varint at `offset` and the offset after it, or `nil` when it runs past `end` or 10 bytes.
    @inline(__always)
    private func peekVarint(_ offset: Int) -> (UInt64, Int)? {
        // [unsafe: wire-cursor] `base[at]` after `at < end`.
        var at = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while at < end, shift < 64 {
            let byte = base[at]
            at &+= 1
            result |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 { return (result, at) }
            shift &+= 7
        }
        return nil
    }

    // MARK: - Messages

    /// A length-delimited sub-message, merged into `value`.
    @inline(__always)
    @usableFromInline package mutating func readMessage<M: BinaryFieldCoding>(_ value: inout M) throws(IMWireError) {
        let outerEnd = try enterSubmessage()
        try value._decodeBinary(&self)
        depth &-= 1
        end = outerEnd
    }

    /// A length-delimited sub-message, as a new value (an element of a repeated field).
    @inline(__always)
    @usableFromInline package mutating func readMessage<M: BinaryFieldCoding>(_ type: M.Type) throws(IMWireError) -> M {
        var value = M()
        try readMessage(&value)
        return value
    }

    /// A singular sub-message field: a repeated occurrence merges into the value already there.
    @inline(__always)
    @usableFromInline package mutating func mergeMessage<M: BinaryFieldCoding>(into box: inout Indirect<M>) throws(IMWireError) {
        var value = box.value ?? M()
        box = .none  // `value` is now the only reference to the fields: merging copies nothing
        try readMessage(&value)
        box = .some(value)
    }

    /// A singular sub-message field kept inline as an optional (in a type's cold box).
    @inline(__always)
    @usableFromInline package mutating func mergeMessage<M: BinaryFieldCoding>(into optional: inout M?) throws(IMWireError) {
        var value = optional ?? M()
        optional = nil  // `value` is now the only reference to the fields: merging copies nothing
        try readMessage(&value)
        optional = value
    }

    /// A `map<string, bytes>` entry: a message {key = 1; value = 2}; anything else in it is dropped.
    /// Added in wire order: the type's `_decodeBinary` orders the map once it has read the message
    /// (``StringBytesMap/finishDecoding()``), a key given twice keeping its last value.
    @usableFromInline package mutating func readMapEntry(into map: inout StringBytesMap) throws(IMWireError) {
        let outerEnd = try enterSubmessage()
        var key = ""
        var value: [UInt8] = []
        var tag = try nextTag()
        while tag != 0 {
            switch tag {
            case 1 << 3 | UInt32(WireType.lengthDelimited): key = try readString()
            case 2 << 3 | UInt32(WireType.lengthDelimited): value = try readBytes()
            default: try skipUnknownField(tag)
            }
            tag = try nextTag()
        }
        depth &-= 1
        end = outerEnd
        map.appendDecoded(key: key, value: value)
    }

    // MARK: - Unknown fields

    /// A field whose tag the type does not know (or knows with another wire type): checked, skipped,
    /// and its bytes — tag included — appended to `fields`.
    @inline(never)
    @usableFromInline package mutating func readUnknownField(_ tag: UInt32, into fields: inout UnknownFields) throws(IMWireError) {
        // [unsafe: wire-cursor] `tagStart <= position <= end`: the field's bytes, tag to the end of its
        // value, were stepped over by checked reads.
        try skipUnknownField(tag)
        fields.append(UnsafeRawBufferPointer(start: base + tagStart, count: position &- tagStart))
    }

    /// Checks the tag ``nextTag()`` just returned as a tag of an unknown field and skips its value.
    private mutating func skipUnknownField(_ tag: UInt32) throws(IMWireError) {
        let number = Int(truncatingIfNeeded: tag >> 3)
        let wireType = UInt8(truncatingIfNeeded: tag & 7)
        guard number != 0, wireType <= 5 else { throw badTag(UInt64(tag), at: tagStart) }
        if wireType == WireType.endGroup {
            // Outside a group, an end-group tag is malformed.
            throw .malformedGroup(endTagFor: number, closing: nil, offset: tagStart)
        }
        try skipField(wireType, number: number)
    }
}
