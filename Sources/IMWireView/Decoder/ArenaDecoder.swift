import IMWireCore
import IMWireBinary

/// Decodes protobuf bytes into the words a message view reads, as upb decodes into its arena: one
/// pass over the input that checks everything a decode must check (framing, field numbers, wire
/// types, lengths, UTF-8 of every string, nesting) and records every field in a node of 64-bit words
/// laid out by the type's ``ArenaLayout`` — no `String`, array or object per field. The words are
/// built in the thread's buffer (``ArenaWords``); string and bytes words point into the input.
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
@usableFromInline package struct ArenaDecoder: WireCursor {
    // The cursor (``WireCursor``: the reads this decoder shares with ``BinaryReader``).
    @usableFromInline package let base: UnsafePointer<UInt8>
    @usableFromInline package let inputCount: Int
    @usableFromInline package var position = 0
    /// End of the message being decoded.
    @usableFromInline package var end: Int
    @usableFromInline package var depth = 1
    @usableFromInline package let maxDepth: Int
    @usableFromInline package var stackGuard = StackGuard()
    private let layouts: UnsafeMutablePointer<ArenaLayout>
    private var arena: ArenaWords
    /// The words (`arena.words`, again after it grows).
    private var words: UnsafeMutablePointer<UInt64> { arena.words }

    private init(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int, layouts: UnsafeMutablePointer<ArenaLayout>, wordLimit: Int) {
        arena = ArenaWords(limit: wordLimit)
        base = buffer.readableBase
        inputCount = buffer.count
        end = buffer.count
        self.maxDepth = maxDepth
        self.layouts = layouts
    }

    /// Appends to a repeated field's list an entry with `valueWords` value words; returns the first.
    @inline(__always)
    private mutating func appendEntry(links: Int, valueWords: Int) throws(IMWireError) -> Int {
        try arena.appendEntry(links: links, valueWords: valueWords, at: position)
    }

    // MARK: - Nodes

    /// Reads fields until `end` into `node`, a node of layout `layoutIndex`.
    private mutating func decodeNode(_ layoutIndex: Int, _ node: Int) throws(IMWireError) {
        // [unsafe: arena-layout] `layoutIndex` is a layout of the table (the root's, or a field's `sub`,
        // checked when the table was built); `wireTypes[number]` and `fields[number]` are read after `number
        // <= maxNumber`. [unsafe: wire-cursor] `base[position]` after `position < end`. [unsafe: arena-words]
        // `node` was allocated with this layout's `slotCount` words and `field.slot` (+ 1 for a oneof) is
        // below it, so `slot` is a word of the node.
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
                let value = try appendEntry(links: node, valueWords: 1)
                words[value] = ArenaString.word(offset: tagStart, count: position &- tagStart, isASCII: false)
                continue
            }
            let slot = node &+ Int(field.slot)
            let value: UInt64
            switch field.kind {
            case .uint64, .uint32, .int32, .enumeration, .bool: value = try readShortVarint()
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
            try arena.store(value, field, number: number, slot: slot, at: position)
        }
    }

    /// A length-delimited sub-message: merged into the node of a present singular field or of the
    /// same oneof member, a new node otherwise (``ArenaWords/messageNode(_:number:slot:slotCount:at:)``).
    private mutating func decodeMessageField(_ field: ArenaField, number: Int, slot: Int) throws(IMWireError) {
        // [unsafe: arena-layout] `sub` is a layout of the table.
        let sub = Int(field.sub)
        let child = try arena.messageNode(field, number: number, slot: slot, slotCount: layouts[sub].slotCount, at: position)
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
        try arena.storeMapEntry(key: key, value: value, slot: slot, at: position)
    }

    // MARK: - Values

    /// A tag: field number and wire type, checked; an end-group tag outside a group is malformed.
    @inline(__always)
    private mutating func readTag() throws(IMWireError) -> (number: Int, wireType: UInt8) {
        let start = position
        let tag = try readShortVarint()
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

    /// A string value, its UTF-8 checked (``readUTF8()``), as an ``ArenaString`` word.
    @inline(__always)
    private mutating func readString() throws(IMWireError) -> UInt64 {
        let (start, count, isASCII) = try readUTF8()
        return count == 0 ? 0 : ArenaString.word(offset: start, count: count, isASCII: isASCII)
    }
}

extension ArenaDecoder {
    /// Decodes `buffer` as a message of layout `layout` of `table` into the thread's scratch words,
    /// with string and bytes words pointing into `buffer` itself (no copy), and calls `body` with the
    /// root node; the words go back to the thread when `body` returns. What a message view reads.
    /// `wordLimit` lowers ``ArenaWords/maxWords`` for a test of that limit.
    @usableFromInline package static func withView<Result>(
        table: ArenaLayoutTable, layout: Int, from buffer: UnsafeBufferPointer<UInt8>, options: BinaryDecodingOptions,
        wordLimit: Int = ArenaWords.maxWords, _ body: (_ViewNode) throws -> Result
    ) throws -> Result {
        // [unsafe: arena-layout] `layout` is the type's own index in its table (`M._typeIndex`).
        try BinaryDecoder.checkLimits(inputCount: buffer.count, options: options)
        try ArenaString.checkOffsets(inputCount: buffer.count)
        var decoder = ArenaDecoder(buffer, maxDepth: options.maxDepth, layouts: table.layouts, wordLimit: wordLimit)
        defer { decoder.arena.discard() }
        let root = try decoder.arena.allocate(decoder.layouts[layout].slotCount, at: 0)
        try decoder.decodeNode(layout, root)
        return try body(_ViewNode(words: UnsafePointer(decoder.arena.words), bytes: decoder.base, node: root))
    }
}

extension ArenaField {
    /// The wire type the field must arrive with; another one keeps it as an unknown field (the
    /// binary view decoder's table, ``ArenaLayout/wireTypes``, which the generated layout tables
    /// fill from this).
    @usableFromInline package var wireType: UInt8 {
        switch kind {
        case .uint64, .uint32, .int32, .enumeration, .bool: WireType.varint
        case .fixed64: WireType.fixed64
        case .unknown: 0xFF
        default: WireType.lengthDelimited
        }
    }
}
