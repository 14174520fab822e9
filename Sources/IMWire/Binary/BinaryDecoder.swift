/// A protobuf field walker over borrowed bytes: a cursor (`position`) inside the bounds of the
/// message being read (`end`), bounds-checked once per read, for readers that walk fields without
/// building a model (``MessageRoutingView``, `imwire inspect`), with the checks of a full decode
/// (``ArenaDecoder``): the same tag, length, UTF-8 and depth rules and error messages.
///
/// Safety: every length is checked against the bytes that remain; nesting is bounded by `maxDepth`
/// on every recursive path (sub-messages, unknown groups), and by what the thread's stack holds
/// (``StackGuard``), so a raised limit never overflows the stack.
package struct BinaryDecoder {
    private let base: UnsafePointer<UInt8>
    private let inputCount: Int
    private(set) var position: Int
    /// End of the message currently being decoded.
    private var end: Int
    private var depth: Int
    private let maxDepth: Int
    /// Field number and wire type of the tag just read.
    private var fieldNumber = 0
    private var wireType: UInt8 = 0
    private var stackGuard = StackGuard()

    package init(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        // An empty buffer may have no base address; it is never dereferenced (position == end).
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 0x10)!
        inputCount = buffer.count
        position = 0
        end = buffer.count
        depth = 1
        self.maxDepth = maxDepth
    }

    /// The checks before the first byte is read: the input size and a depth limit that admits the
    /// root message.
    package static func checkLimits(inputCount: Int, options: BinaryDecodingOptions) throws(IMWireError) {
        guard inputCount <= options.maxInputSize else {
            throw .inputTooLarge(size: inputCount, limit: options.maxInputSize)
        }
        guard options.maxDepth >= 1 else {
            throw .depthLimitAdmitsNoMessage(options.maxDepth)
        }
    }

    /// Enters a length-delimited sub-message: checks its length and the depth limit, and narrows
    /// `end` to it. Returns the outer `end` for ``leaveSubmessage(restoring:)``. (Enter/leave rather
    /// than a closure keeps each nesting level's stack frames few and small.)
    @inline(__always)
    private mutating func enterSubmessage() throws(IMWireError) -> Int {
        let lengthOffset = position
        let length = try readLength()
        guard depth < maxDepth else {
            throw .depthLimitExceeded(.messages, limit: maxDepth, offset: lengthOffset)
        }
        let outerEnd = end
        end = position + length
        depth += 1
        try stackGuard.check(depth: depth, offset: lengthOffset)
        return outerEnd
    }

    @inline(__always)
    private mutating func leaveSubmessage(restoring outerEnd: Int) {
        depth -= 1
        end = outerEnd
    }

    // MARK: - Primitive reads

    @inline(__always)
    private mutating func readVarint() throws(IMWireError) -> UInt64 {
        if position < end {
            let byte = base[position]
            if byte < 0x80 {
                position += 1
                return UInt64(byte)
            }
        }
        return try readVarintSlow()
    }

    private mutating func readVarintSlow() throws(IMWireError) -> UInt64 {
        if end - position >= 10 {
            // Ten bytes are there: no bounds check per byte, and the loop unrolled (the first
            // byte, which readVarint saw has its continuation bit set, included).
            let p = base + position
            var result = UInt64(p[0] & 0x7F)
            var byte = p[1]
            result |= UInt64(byte & 0x7F) &<< 7
            if byte < 0x80 { position += 2; return result }
            byte = p[2]
            result |= UInt64(byte & 0x7F) &<< 14
            if byte < 0x80 { position += 3; return result }
            byte = p[3]
            result |= UInt64(byte & 0x7F) &<< 21
            if byte < 0x80 { position += 4; return result }
            byte = p[4]
            result |= UInt64(byte & 0x7F) &<< 28
            if byte < 0x80 { position += 5; return result }
            byte = p[5]
            result |= UInt64(byte & 0x7F) &<< 35
            if byte < 0x80 { position += 6; return result }
            byte = p[6]
            result |= UInt64(byte & 0x7F) &<< 42
            if byte < 0x80 { position += 7; return result }
            byte = p[7]
            result |= UInt64(byte & 0x7F) &<< 49
            if byte < 0x80 { position += 8; return result }
            byte = p[8]
            result |= UInt64(byte & 0x7F) &<< 56
            if byte < 0x80 { position += 9; return result }
            let at = position + 9
            let last = base[at]
            guard last & 0x80 == 0 else {
                throw .varintTooLong(offset: position)
            }
            position = at + 1
            return result | (UInt64(last & 1) << 63)
        }
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw truncated(start, "a varint") }
            let byte = base[position]
            position += 1
            if shift == 63 {
                // The 10th byte holds bit 63 only; more continuation means more than 64 bits.
                guard byte & 0x80 == 0 else {
                    throw .varintTooLong(offset: start)
                }
                return result | (UInt64(byte & 1) << 63)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    @inline(__always)
    private mutating func readTag() throws(IMWireError) {
        let start = position
        let tag = try readVarint()
        let number = tag >> 3
        let type = UInt8(truncatingIfNeeded: tag & 7)
        guard number != 0, number <= UInt64(Varint.maxFieldNumber) else {
            throw .invalidFieldNumber(number, offset: start)
        }
        // A tag is a 32-bit varint: at most 5 bytes, even when the extra bytes are only padding
        // (C++, upb and Google's Required BadTag_OverlongVarint reject longer ones).
        guard position - start <= 5 else {
            throw .tagTooLong(size: position - start, offset: start)
        }
        guard type <= 5 else {
            throw .invalidWireType(type, field: number, offset: start)
        }
        fieldNumber = Int(number)
        wireType = type
    }

    /// Reads a length prefix and checks that the bytes it claims are there.
    @inline(__always)
    private mutating func readLength() throws(IMWireError) -> Int {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(end - position) else {
            throw .lengthOutOfBounds(length, remaining: end - position, inInput: end == inputCount, offset: start)
        }
        return Int(length)
    }

    /// Reads a fixed64 (`UInt64`) or fixed32 (`UInt32`) value.
    @inline(__always)
    private mutating func readFixed<Value: FixedWidthInteger>(_: Value.Type) throws(IMWireError) -> Value {
        let size = MemoryLayout<Value>.size
        guard end - position >= size else { throw truncated(position, "a fixed\(Value.bitWidth) value") }
        let value = UnsafeRawPointer(base + position).loadUnaligned(as: Value.self)
        position += size
        return Value(littleEndian: value)
    }

    /// Reads a length prefix and steps over the bytes it claims; returns where they start and how
    /// many they are.
    @inline(__always)
    private mutating func readLengthDelimited() throws(IMWireError) -> (start: Int, count: Int) {
        let length = try readLength()
        let start = position
        position += length
        return (start, length)
    }

    private func truncated(_ offset: Int, _ what: String) -> IMWireError {
        .truncated(inInput: end == inputCount, inside: what, start: offset, end: end)
    }

    /// An end-group tag outside any group: malformed, whether or not the schema knows the number.
    private func strayEndGroup(at offset: Int) -> IMWireError {
        .malformedGroup(endTagFor: fieldNumber, closing: nil, offset: offset)
    }

    // MARK: - Skipping unknown fields

    private mutating func skipField() throws(IMWireError) {
        switch wireType {
        case WireType.varint:
            _ = try readVarint()
        case WireType.fixed64:
            _ = try readFixed(UInt64.self)
        case WireType.lengthDelimited:
            position += try readLength()
        case WireType.startGroup:
            try skipGroup()
        case WireType.fixed32:
            _ = try readFixed(UInt32.self)
        default:
            preconditionFailure("readTag admits wire types 0...5 and end-group is handled by the caller")
        }
    }

    // MARK: - Unknown groups

    /// An unknown group being read: its field number and where its fields start (after the
    /// start-group tag).
    package struct OpenGroup {
        package let number: Int
        package let start: Int
    }

    /// Enters the group whose start-group tag was just read, as a nesting level (depth-checked);
    /// read its fields with ``nextField(in:)``, then call ``leaveGroup(_:)``.
    package mutating func enterGroup() throws(IMWireError) -> OpenGroup {
        let group = OpenGroup(number: fieldNumber, start: position)
        guard depth < maxDepth else {
            throw .depthLimitExceeded(.groups, limit: maxDepth, offset: group.start)
        }
        depth += 1
        try stackGuard.check(depth: depth, offset: group.start)
        return group
    }

    /// Reads the next tag inside `group`, or returns `nil` at the end-group tag that closes it
    /// (checked to carry the group's number). A group still open where its enclosing message or the
    /// input ends is malformed.
    package mutating func nextField(in group: OpenGroup) throws(IMWireError) -> (number: Int, wireType: UInt8)? {
        guard position < end else {
            // Unclosed at the end of the input too: a group needs its end tag (one rule, one code).
            throw .malformedGroup(unclosed: group.number, inInput: end == inputCount, offset: group.start)
        }
        let tagStart = position
        try readTag()
        if wireType == WireType.endGroup {
            guard fieldNumber == group.number else {
                throw .malformedGroup(endTagFor: fieldNumber, closing: group.number, offset: tagStart)
            }
            return nil
        }
        return (fieldNumber, wireType)
    }

    /// Leaves `group` after ``nextField(in:)`` returned `nil` for it.
    package mutating func leaveGroup(_ group: OpenGroup) { depth -= 1 }

    /// Skips an unknown group up to its matching end-group tag; each nested group is a level.
    /// (Out of line: groups are rare, and ``skipField()`` is on the hot path of every unknown field.)
    private mutating func skipGroup() throws(IMWireError) {
        let group = try enterGroup()
        while try nextField(in: group) != nil { try skipField() }
        leaveGroup(group)
    }

    // MARK: - Walking fields without a model

    /// Where the reader is: the offset of the next byte it reads.
    package var offset: Int { position }

    /// The end of the message being read (of the input, at the top level).
    package var messageEnd: Int { end }

    /// Reads the next tag of the current message, or returns `nil` at its end. For readers that
    /// walk the fields themselves (``MessageRoutingView``, `imwire inspect`) with the same checks as
    /// a full decode.
    @inline(__always)
    package mutating func nextField() throws(IMWireError) -> (number: Int, wireType: UInt8)? {
        guard position < end else { return nil }
        let tagStart = position
        try readTag()
        if wireType == WireType.endGroup { throw strayEndGroup(at: tagStart) }
        return (fieldNumber, wireType)
    }

    /// Skips the field whose tag ``nextField()`` just read (groups included, depth-checked).
    @inline(__always)
    package mutating func skipCurrentField() throws(IMWireError) { try skipField() }

    /// Reads the varint value of the current field.
    @inline(__always)
    package mutating func readVarintValue() throws(IMWireError) -> UInt64 { try readVarint() }

    /// Reads the fixed64 value of the current field.
    package mutating func readFixed64Value() throws(IMWireError) -> UInt64 { try readFixed(UInt64.self) }

    /// Reads the fixed32 value of the current field.
    package mutating func readFixed32Value() throws(IMWireError) -> UInt32 { try readFixed(UInt32.self) }

    /// Reads the current length-delimited field as bytes: checks the length and returns where the
    /// bytes are, allocating nothing.
    package mutating func readBytesRange() throws(IMWireError) -> Range<Int> {
        let start = try readLengthDelimited().start
        return start..<position
    }

    /// Reads the current length-delimited field as a string: checks the length and the UTF-8 and
    /// returns where the bytes are, allocating nothing.
    @inline(__always)
    package mutating func readStringRange() throws(IMWireError) -> Range<Int> {
        let (start, length) = try readLengthDelimited()
        let bytes = UnsafeBufferPointer(start: base + start, count: length)
        guard UTF8Validation.isValid(bytes) else { throw invalidUTF8(bytes, at: start) }
        return start..<position
    }

    /// Enters the current length-delimited field as a sub-message (length and depth checked);
    /// pass the result to ``leaveMessage(restoring:)``.
    @inline(__always)
    package mutating func enterMessage() throws(IMWireError) -> Int { try enterSubmessage() }

    package mutating func leaveMessage(restoring outerEnd: Int) { leaveSubmessage(restoring: outerEnd) }

    private func invalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> IMWireError {
        let bad = start + UTF8Validation.firstInvalidIndex(bytes)
        return .invalidUTF8(stringLength: bytes.count, start: start, bad: bad, badByte: base[bad])
    }

}
