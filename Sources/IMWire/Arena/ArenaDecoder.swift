/// Decodes protobuf bytes into an ``ArenaStorage``, as upb decodes into its arena: one pass over the
/// input that checks everything a decode must check (framing, field numbers, wire types, lengths,
/// UTF-8 of every string, nesting) and records every field in a node of 64-bit words laid out by the
/// type's ``ArenaLayout`` — no `String`, array or object per field. The words are built in the
/// thread's buffer (``ArenaWords``); the storage returned holds them and a copy of the input.
///
/// Protobuf's merge rules hold as in any parser: the last occurrence of a scalar wins (its word is
/// overwritten), a repeated occurrence of a singular message or of the same oneof member merges into
/// the node already there, repeated fields append, and a field the schema does not know — or a known
/// field with another wire type — is kept, bytes and order, as an unknown field.
///
/// Safety: every length is checked against the bytes left before it is used, so memory is bounded
/// by the input (a node per length-delimited field at most); nesting is bounded by `maxDepth` on every
/// recursive path (sub-messages, map entries, unknown groups) and by the thread's stack
/// (``StackGuard``).
package struct ArenaDecoder {
    private let base: UnsafePointer<UInt8>
    private let inputCount: Int
    private var position = 0
    /// End of the message being decoded.
    private var end: Int
    private var depth = 1
    private let maxDepth: Int
    private var stackGuard = StackGuard()
    private let layouts: UnsafeMutablePointer<ArenaLayout>
    private var arena = ArenaWords()
    /// The words (`arena.words`, again after it grows).
    private var words: UnsafeMutablePointer<UInt64> { arena.words }

    private init(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int, layouts: UnsafeMutablePointer<ArenaLayout>) {
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 0x10)!
        inputCount = buffer.count
        end = buffer.count
        self.maxDepth = maxDepth
        self.layouts = layouts
    }

    /// Decodes `buffer` as a message of type `M`: its node in a new storage.
    package static func decode<M: ProtoMessage>(
        _ type: M.Type, from buffer: UnsafeBufferPointer<UInt8>, options: BinaryDecodingOptions
    ) throws(IMWireError) -> ArenaRef {
        try BinaryDecoder.checkLimits(inputCount: buffer.count, options: options)
        guard buffer.count <= Int(UInt32.max) else {
            throw .inputBeyondFourGiB(size: buffer.count)
        }
        var decoder = ArenaDecoder(buffer, maxDepth: options.maxDepth, layouts: M._arenaTable.layouts)
        let layout = M._arenaLayoutIndex
        let root = decoder.arena.allocate(decoder.layouts[layout].slotCount)
        do {
            try decoder.decodeNode(layout, root)
        } catch {
            decoder.arena.discard()
            throw error
        }
        return ArenaRef(decoder.arena.finish(bytes: buffer), root)
    }

    /// Appends to a repeated field's list an entry with `valueWords` value words; returns the first.
    @inline(__always)
    private mutating func appendEntry(links: Int, valueWords: Int) -> Int {
        arena.appendEntry(links: links, valueWords: valueWords)
    }

    // MARK: - Nodes

    /// Reads fields until `end` into `node`, a node of layout `layoutIndex`.
    private mutating func decodeNode(_ layoutIndex: Int, _ node: Int) throws(IMWireError) {
        let layout = layouts[layoutIndex]
        while position < end {
            let tagStart = position
            let number: Int
            let wireType: UInt8
            let first = base[position]
            if first < 0x80 {
                // A one-byte tag (fields 1–15): a field of the layout needs no further check (its
                // table entry has a valid wire type, and number 0 has none).
                position &+= 1
                number = Int(first >> 3)
                wireType = first & 7
                if number > layout.maxNumber || layout.wireTypes[number] != wireType {
                    try checkTag(UInt64(first), at: tagStart)
                }
            } else {
                (number, wireType) = try readTag()
            }
            var field = ArenaField.none
            if number <= layout.maxNumber, layout.wireTypes[number] == wireType {
                field = layout.fields[number]
            } else {
                try skipField(wireType, number: number)
                let value = appendEntry(links: node, valueWords: 1)
                words[value] = ArenaString.word(offset: tagStart, count: position &- tagStart, isASCII: false)
                continue
            }
            let slot = node &+ Int(field.slot)
            words[node &+ 1] |= 1 &<< UInt64(field.index)
            let value: UInt64
            switch field.kind {
            case .uint64, .uint32, .int32, .enumeration, .bool: value = try readVarint()
            case .fixed64: value = try readFixed64()
            case .string: value = try readString()
            case .bytes: value = try readBytes()
            case .message:
                try decodeMessageField(field, number: number, slot: slot)
                continue
            case .stringToBytesMap:
                try decodeMapEntry(slot: slot)
                continue
            case .unknown:
                preconditionFailure("a field with a wire type has a kind")
            }
            switch field.container {
            case .single, .bits:
                field.store(value, in: words, at: slot)
            case .oneof:
                words[slot] = UInt64(truncatingIfNeeded: number)
                words[slot &+ 1] = value
            case .repeated:
                let entry = appendEntry(links: slot, valueWords: 1)
                words[entry] = value
            }
        }
    }

    /// A length-delimited sub-message: merged into the node of a present singular field or of the
    /// same oneof member, a new node otherwise.
    private mutating func decodeMessageField(_ field: ArenaField, number: Int, slot: Int) throws(IMWireError) {
        let sub = Int(field.sub)
        var child: Int
        switch field.container {
        case .single, .bits:
            child = Int(truncatingIfNeeded: words[slot])
            if child == 0 {
                child = arena.allocate(layouts[sub].slotCount)
                words[slot] = UInt64(truncatingIfNeeded: child)
            }
        case .oneof:
            if words[slot] == UInt64(truncatingIfNeeded: number) {
                child = Int(truncatingIfNeeded: words[slot &+ 1])
            } else {
                child = arena.allocate(layouts[sub].slotCount)
                words[slot] = UInt64(truncatingIfNeeded: number)
                words[slot &+ 1] = UInt64(truncatingIfNeeded: child)
            }
        case .repeated:
            // The element's node is the entry's value.
            child = appendEntry(links: slot, valueWords: layouts[sub].slotCount)
        }
        let outerEnd = try enterSubmessage()
        try decodeNode(sub, child)
        depth &-= 1
        end = outerEnd
    }

    /// A `map<string, bytes>` entry: a message {key = 1; value = 2}; anything else in it is dropped.
    private mutating func decodeMapEntry(slot: Int) throws(IMWireError) {
        let outerEnd = try enterSubmessage()
        var key: UInt64 = 0
        var value: UInt64 = 0
        while position < end {
            let (number, wireType) = try readTag()
            if number == 1 && wireType == WireType.lengthDelimited {
                key = try readString()
            } else if number == 2 && wireType == WireType.lengthDelimited {
                value = try readBytes()
            } else {
                try skipField(wireType, number: number)
            }
        }
        depth &-= 1
        end = outerEnd
        let entry = appendEntry(links: slot, valueWords: 2)
        words[entry] = key
        words[entry &+ 1] = value
    }

    /// Enters a length-delimited sub-message: checks its length and the depth limit, and narrows
    /// `end` to it. Returns the outer `end`.
    @inline(__always)
    private mutating func enterSubmessage() throws(IMWireError) -> Int {
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

    // MARK: - Values

    /// A tag: field number and wire type, checked; an end-group tag outside a group is malformed.
    @inline(__always)
    private mutating func readTag() throws(IMWireError) -> (number: Int, wireType: UInt8) {
        let start = position
        let tag = try readVarint()
        try checkTag(tag, at: start)
        return (Int(truncatingIfNeeded: tag >> 3), UInt8(truncatingIfNeeded: tag & 7))
    }

    /// Throws for a tag `readTag` must refuse (see ``badTag(_:at:)``) and for an end-group tag,
    /// which outside a group is malformed.
    @inline(__always)
    private func checkTag(_ tag: UInt64, at start: Int) throws(IMWireError) {
        let number = tag >> 3
        let wireType = UInt8(truncatingIfNeeded: tag & 7)
        guard number != 0, number <= UInt64(Varint.maxFieldNumber), position &- start <= 5, wireType <= 5 else {
            throw badTag(tag, at: start)
        }
        if wireType == WireType.endGroup {
            throw .malformedGroup(endTagFor: Int(truncatingIfNeeded: number), closing: nil, offset: start)
        }
    }

    /// A bytes value as an ``ArenaString`` word.
    @inline(__always)
    private mutating func readBytes() throws(IMWireError) -> UInt64 {
        let length = try readLength()
        let start = position
        position &+= length
        return length == 0 ? 0 : ArenaString.word(offset: start, count: length, isASCII: false)
    }

    /// A string value, its UTF-8 checked, as an ``ArenaString`` word.
    @inline(__always)
    private mutating func readString() throws(IMWireError) -> UInt64 {
        let length = try readLength()
        let start = position
        position &+= length
        if length == 0 { return 0 }
        let bytes = UnsafeBufferPointer(start: base + start, count: length)
        switch UTF8Validation.check(bytes) {
        case .ascii: return ArenaString.word(offset: start, count: length, isASCII: true)
        case .valid: return ArenaString.word(offset: start, count: length, isASCII: false)
        case .invalid: throw invalidUTF8(bytes, at: start)
        }
    }

    @inline(__always)
    private mutating func readVarint() throws(IMWireError) -> UInt64 {
        if position < end {
            let byte = base[position]
            if byte < 0x80 {
                position &+= 1
                return UInt64(byte)
            }
        }
        return try readVarintSlow()
    }

    private mutating func readVarintSlow() throws(IMWireError) -> UInt64 {
        if end &- position >= 10 {
            // Ten bytes are there: no bounds check per byte.
            let p = base + position
            var result: UInt64 = 0
            for index in 0..<9 {
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

    /// A length prefix, checked against the bytes left in the enclosing message.
    @inline(__always)
    private mutating func readLength() throws(IMWireError) -> Int {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(end &- position) else {
            throw .lengthOutOfBounds(length, remaining: end &- position, inInput: end == inputCount, offset: start)
        }
        return Int(truncatingIfNeeded: length)
    }

    @inline(__always)
    private mutating func readFixed64() throws(IMWireError) -> UInt64 {
        guard end &- position >= 8 else { throw truncated(position, "a fixed64 value") }
        let value = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
        position &+= 8
        return UInt64(littleEndian: value)
    }

    // MARK: - Skipping unknown fields

    private mutating func skipField(_ wireType: UInt8, number: Int) throws(IMWireError) {
        switch wireType {
        case WireType.varint:
            _ = try readVarint()
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
    private mutating func skipGroup(_ number: Int) throws(IMWireError) {
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
            let tag = try readVarint()
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

    private func truncated(_ offset: Int, _ what: String) -> IMWireError {
        .truncated(inInput: end == inputCount, inside: what, start: offset, end: end)
    }

    @inline(never)
    private func invalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> IMWireError {
        let bad = start + UTF8Validation.firstInvalidIndex(bytes)
        return .invalidUTF8(stringLength: bytes.count, start: start, bad: bad, badByte: base[bad])
    }

    /// The error for a tag `readTag` refuses: field number 0 or too large, more than 5 bytes, or
    /// wire type 6 or 7 — checked in that order.
    @inline(never)
    private func badTag(_ tag: UInt64, at offset: Int) -> IMWireError {
        let number = tag >> 3
        if number == 0 || number > UInt64(Varint.maxFieldNumber) {
            return .invalidFieldNumber(number, offset: offset)
        }
        if position - offset > 5 {
            return .tagTooLong(size: position - offset, offset: offset)
        }
        return .invalidWireType(UInt8(truncatingIfNeeded: tag & 7), field: number, offset: offset)
    }
}

extension ArenaDecoder {
    /// Decodes `buffer` as a message of layout `layout` of `table` into the thread's scratch words,
    /// with string and bytes words pointing into `buffer` itself (no copy), and calls `body` with the
    /// root node; the words go back to the thread when `body` returns. What a message view reads.
    package static func withView<Result>(
        table: ArenaLayoutTable, layout: Int, from buffer: UnsafeBufferPointer<UInt8>, options: BinaryDecodingOptions,
        _ body: (_ViewNode) throws -> Result
    ) throws -> Result {
        try BinaryDecoder.checkLimits(inputCount: buffer.count, options: options)
        guard buffer.count <= Int(UInt32.max) else {
            throw IMWireError.inputBeyondFourGiB(size: buffer.count)
        }
        var decoder = ArenaDecoder(buffer, maxDepth: options.maxDepth, layouts: table.layouts)
        defer { decoder.arena.discard() }
        let root = decoder.arena.allocate(decoder.layouts[layout].slotCount)
        try decoder.decodeNode(layout, root)
        return try body(_ViewNode(words: UnsafePointer(decoder.arena.words), bytes: decoder.base, node: root))
    }
}
