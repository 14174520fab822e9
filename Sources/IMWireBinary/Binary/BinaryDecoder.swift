import IMWireCore

/// A protobuf field walker over borrowed bytes: a cursor (`position`) inside the bounds of the
/// message being read (`end`), bounds-checked once per read, for readers that walk fields without
/// building a model (``MessageRoutingView``, `imwire inspect`), with the checks of a full decode:
/// its reads are ``WireCursor``'s, the decoders' own, so the same tag, length, UTF-8 and depth rules
/// and error messages.
///
/// Safety: every length is checked against the bytes that remain; nesting is bounded by `maxDepth`
/// on every recursive path (sub-messages, unknown groups), and by what the thread's stack holds
/// (``StackGuard``), so a raised limit never overflows the stack.
@usableFromInline package struct BinaryDecoder: WireCursor {
    // WireCursor's state: its reads (varints, lengths, fixed values, sub-messages, skipping, the
    // errors) are the decoders', so this walker refuses what they refuse, the same way.
    @usableFromInline package let base: UnsafePointer<UInt8>
    @usableFromInline package let inputCount: Int
    @usableFromInline package var position: Int
    /// End of the message currently being decoded.
    @usableFromInline package var end: Int
    @usableFromInline package var depth: Int
    @usableFromInline package let maxDepth: Int
    @usableFromInline package var stackGuard = StackGuard()
    /// Field number and wire type of the tag just read.
    private var fieldNumber = 0
    private var wireType: UInt8 = 0

    @usableFromInline package init(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        base = buffer.readableBase
        inputCount = buffer.count
        position = 0
        end = buffer.count
        depth = 1
        self.maxDepth = maxDepth
    }

    /// The checks before the first byte is read: the input size and a depth limit that admits the
    /// root message.
    @usableFromInline package static func checkLimits(inputCount: Int, options: BinaryDecodingOptions) throws(IMWireError) {
        guard inputCount <= options.maxInputSize else {
            throw .inputTooLarge(size: inputCount, limit: options.maxInputSize)
        }
        guard options.maxDepth >= 1 else {
            throw .depthLimitAdmitsNoMessage(options.maxDepth)
        }
    }

    @inline(__always)
    private mutating func leaveSubmessage(restoring outerEnd: Int) {
        depth -= 1
        end = outerEnd
    }

    // MARK: - Primitive reads

    @inline(__always)
    private mutating func readTag() throws(IMWireError) {
        let start = position
        let tag = try readShortVarint()
        let number = tag >> 3
        let type = UInt8(truncatingIfNeeded: tag & 7)
        // A tag is a 32-bit varint: at most 5 bytes, even when the extra bytes are only padding
        // (C++, upb and Google's Required BadTag_OverlongVarint reject longer ones).
        guard number != 0, number <= UInt64(Varint.maxFieldNumber), position - start <= 5, type <= 5 else {
            throw badTag(tag, at: start)
        }
        fieldNumber = Int(number)
        wireType = type
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

    /// An end-group tag outside any group: malformed, whether or not the schema knows the number.
    private func strayEndGroup(at offset: Int) -> IMWireError {
        .malformedGroup(endTagFor: fieldNumber, closing: nil, offset: offset)
    }

    // MARK: - Unknown groups

    /// An unknown group being read: its field number and where its fields start (after the
    /// start-group tag).
    @usableFromInline package struct OpenGroup {
        @usableFromInline package let number: Int
        @usableFromInline package let start: Int
    }

    /// Enters the group whose start-group tag was just read, as a nesting level (depth-checked);
    /// read its fields with ``nextField(in:)``, then call ``leaveGroup(_:)``.
    @usableFromInline package mutating func enterGroup() throws(IMWireError) -> OpenGroup {
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
    @usableFromInline package mutating func nextField(in group: OpenGroup) throws(IMWireError) -> (number: Int, wireType: UInt8)? {
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
    @usableFromInline package mutating func leaveGroup(_ group: OpenGroup) { depth -= 1 }

    // MARK: - Walking fields without a model

    /// Where the reader is: the offset of the next byte it reads.
    @usableFromInline package var offset: Int { position }

    /// The end of the message being read (of the input, at the top level).
    @usableFromInline package var messageEnd: Int { end }

    /// Reads the next tag of the current message, or returns `nil` at its end. For readers that
    /// walk the fields themselves (``MessageRoutingView``, `imwire inspect`) with the same checks as
    /// a full decode.
    @inline(__always)
    @usableFromInline package mutating func nextField() throws(IMWireError) -> (number: Int, wireType: UInt8)? {
        guard position < end else { return nil }
        let tagStart = position
        try readTag()
        if wireType == WireType.endGroup { throw strayEndGroup(at: tagStart) }
        return (fieldNumber, wireType)
    }

    /// Skips the field whose tag ``nextField()`` just read (groups included, depth-checked).
    @inline(__always)
    @usableFromInline package mutating func skipCurrentField() throws(IMWireError) { try skipField(wireType, number: fieldNumber) }

    /// Reads the varint value of the current field.
    @inline(__always)
    @usableFromInline package mutating func readVarintValue() throws(IMWireError) -> UInt64 { try readShortVarint() }

    /// Reads the fixed64 value of the current field.
    @usableFromInline package mutating func readFixed64Value() throws(IMWireError) -> UInt64 { try readFixed64() }

    /// Reads the fixed32 value of the current field.
    @usableFromInline package mutating func readFixed32Value() throws(IMWireError) -> UInt32 { try readFixed32() }

    /// Reads the current length-delimited field as bytes: checks the length and returns where the
    /// bytes are, allocating nothing.
    @usableFromInline package mutating func readBytesRange() throws(IMWireError) -> Range<Int> {
        let start = try readLengthDelimited().start
        return start..<position
    }

    /// Reads the current length-delimited field as a string: checks the length and the UTF-8 and
    /// returns where the bytes are, allocating nothing.
    @inline(__always)
    @usableFromInline package mutating func readStringRange() throws(IMWireError) -> Range<Int> {
        // [unsafe: wire-cursor] ``readLengthDelimited()`` checked `length <= end - start`.
        let (start, length) = try readLengthDelimited()
        let bytes = UnsafeBufferPointer(start: base + start, count: length)
        guard UTF8Validation.isValid(bytes) else { throw invalidUTF8(bytes, at: start) }
        return start..<position
    }

    /// Enters the current length-delimited field as a sub-message (length and depth checked);
    /// pass the result to ``leaveMessage(restoring:)``.
    @inline(__always)
    @usableFromInline package mutating func enterMessage() throws(IMWireError) -> Int { try enterSubmessage() }

    @usableFromInline package mutating func leaveMessage(restoring outerEnd: Int) { leaveSubmessage(restoring: outerEnd) }

}
