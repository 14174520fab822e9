import IMWireCore
import IMWireBinary
import IMWireView
import IMWireJSONText
import IMWireJSON

/// Decodes proto3 JSON into the words a message view reads — the words ``ArenaDecoder`` builds from
/// binary, so the same generated view types read both. It is the JSON reader's walk with another
/// destination: keys, duplicates, oneofs, `null`, unknown keys, nesting and every value are read
/// by ``JSONReader``'s own code, so the view refuses exactly the inputs a decode refuses, with the
/// same error; only where a value goes differs (a word of a node instead of a property). It reads
/// through the reader's methods for another destination, never its state (which the JSON module
/// keeps to itself).
///
/// A string or bytes word holds an offset into the bytes the view reads. A string without escapes
/// is read in place. A string with escapes, or a base64 value, is not its text: its value is written
/// over its own text in a second buffer (a value is never longer than its text), so that every word
/// still names its own offset and the view reads one buffer. That buffer, the thread's scratch
/// buffer, is taken at the first such value and given the input's bytes up to it (the strings read
/// so far); every string after it is copied there too. A document without such a value is never
/// copied, and one with an escape in its last long string copies that string once, as a decode does.
@usableFromInline package struct JSONViewDecoder {
    private var arena: ArenaWords
    private let layouts: UnsafeMutablePointer<ArenaLayout>
    private let input: UnsafeBufferPointer<UInt8>
    /// The buffer that unescaped strings and decoded bytes are written into, and every string after
    /// the first of them; `nil` until one is.
    private var text: UnsafeMutablePointer<UInt8>?
    private var textCapacity = 0

    private init(_ input: UnsafeBufferPointer<UInt8>, layouts: UnsafeMutablePointer<ArenaLayout>, wordLimit: Int) {
        arena = ArenaWords(limit: wordLimit)
        self.input = input
        self.layouts = layouts
    }

    /// Decodes `buffer` as proto3 JSON of layout `layout` of `table` (its JSON names in `names`)
    /// and calls `body` with the root node; the words and the copy go back to the thread when
    /// `body` returns. `wordLimit` lowers ``ArenaWords/maxWords`` for a test of that limit.
    @usableFromInline package static func withView<Result>(
        table: ArenaLayoutTable, layout: Int, names: UnsafeMutablePointer<JSONFieldNames>,
        from buffer: UnsafeBufferPointer<UInt8>, options: JSONDecodingOptions, wordLimit: Int = ArenaWords.maxWords,
        _ body: (_ViewNode) throws -> Result
    ) throws -> Result {
        // [unsafe: arena-layout] `layout` is the type's own index in its table.
        try JSONReader.checkSize(buffer, options)
        try ArenaString.checkOffsets(inputCount: buffer.count)
        var reader = JSONReader(buffer, options: options, names: names, skips: nil)
        var decoder = JSONViewDecoder(buffer, layouts: table.layouts, wordLimit: wordLimit)
        defer { decoder.discard() }
        try reader.startDocument()
        let root = try decoder.arena.allocate(table.layouts[layout].slotCount, at: reader.position)
        try decoder.readObject(&reader, layout, root)
        try reader.finishDocument()
        let bytes = decoder.text.map { UnsafePointer($0) } ?? buffer.readableBase
        return try body(_ViewNode(words: UnsafePointer(decoder.arena.words), bytes: bytes, node: root))
    }

    private func discard() {
        // [unsafe: thread-scratch] The copy is given back once, by the view's `defer`, with the
        // capacity it was taken or grown with.
        arena.discard()
        if let text { Scratch.bytes.giveBack(text, capacity: textCapacity) }
    }

    // MARK: - Objects

    /// Reads an object (the reader at its `{`) into `node`, a node of layout `layoutIndex`.
    private mutating func readObject(_ reader: inout JSONReader, _ layoutIndex: Int, _ node: Int) throws(IMWireError) {
        // [unsafe: arena-layout] `layoutIndex` is a layout of the table; the reader returns field
        // indices below its `fieldCount`, the length of `byIndex`. [unsafe: json-names] The view's
        // table and the name table are indexed alike (one entry per type of the file).
        var state = JSONReader.ObjectState()
        let names = reader.names(ofType: layoutIndex)
        let byIndex = layouts[layoutIndex].byIndex
        guard try reader.openObject() else { return }
        repeat {
            let index = try reader.readMemberKey(names, state: &state)
            if index >= 0 {
                let (number, field) = byIndex[index]
                try readField(&reader, field, number: number, node: node)
            }
        } while try reader.nextMember()
    }

    /// A member's value into its slot of `node`, where ``ArenaWords`` stores a value of its container.
    /// A key appears once (the reader refuses a repeated one), so a message field always gets a new
    /// node: nothing merges, as in a decode.
    private mutating func readField(_ reader: inout JSONReader, _ field: ArenaField, number: Int, node: Int) throws(IMWireError) {
        // [unsafe: arena-layout] `field.sub` is a layout of the table; `slot` is a word of `node`,
        // allocated with its layout's `slotCount` words (``ArenaWords`` stores there).
        let slot = node &+ Int(field.slot)
        switch field.kind {
        case .message:
            let sub = Int(field.sub)
            let slotCount = layouts[sub].slotCount
            if field.container == .repeated {
                guard try reader.openArray() else { return }
                repeat {
                    let child = try arena.messageNode(field, number: number, slot: slot, slotCount: slotCount, at: reader.position)
                    try readMessage(&reader, sub, child)
                } while try reader.nextElement()
            } else {
                let child = try arena.messageNode(field, number: number, slot: slot, slotCount: slotCount, at: reader.position)
                try readMessage(&reader, sub, child)
            }
        case .stringToBytesMap:
            try reader.readMapEntries { (reader, key, keyOffset) throws(IMWireError) in
                let keyWord = stringWord(key, at: keyOffset &+ 1, &reader)
                let valueWord = try bytesWord(&reader)
                try arena.storeMapEntry(key: keyWord, value: valueWord, slot: slot, at: reader.position)
            }
        default:
            if field.container == .repeated {
                guard try reader.openArray() else { return }
                repeat {
                    guard let value = try scalar(&reader, field) else { continue }
                    try arena.store(value, field, number: number, slot: slot, at: reader.position)
                } while try reader.nextElement()
                return
            }
            // `nil`: an enum name the schema does not know, read as absent (ignoreUnknownFields).
            guard let value = try scalar(&reader, field) else { return }
            try arena.store(value, field, number: number, slot: slot, at: reader.position)
        }
    }

    /// A message value: an object, one level deeper.
    private mutating func readMessage(_ reader: inout JSONReader, _ layoutIndex: Int, _ node: Int) throws(IMWireError) {
        try reader.enterMessage()
        try readObject(&reader, layoutIndex, node)
        reader.leaveMessage()
    }

    // MARK: - Values

    /// A scalar, string or bytes value as its word, as ``ArenaDecoder`` stores it (an `int32` or an
    /// enum sign-extended, a `double` as its bits); `nil` for an unknown enum name that is ignored.
    private mutating func scalar(_ reader: inout JSONReader, _ field: ArenaField) throws(IMWireError) -> UInt64? {
        switch field.kind {
        case .uint64: return try reader.readUInt64()
        case .uint32: return UInt64(try reader.readUInt32())
        case .int32: return UInt64(bitPattern: Int64(try reader.readInt32()))
        case .bool: return try reader.readBool() ? 1 : 0
        case .fixed64: return try reader.readDouble().bitPattern
        case .string:
            let quote = reader.position
            let scanned = try reader.scanStringValue()
            return stringWord(scanned, at: quote &+ 1, &reader)
        case .bytes: return try bytesWord(&reader)
        case .enumeration:
            return try reader.readEnumOfCurrentField().map { UInt64(bitPattern: Int64($0)) }
        case .message, .stringToBytesMap, .unknown:
            preconditionFailure("not a scalar field")
        }
    }

    /// The word of a scanned string whose text starts at `offset` of the input: the text itself
    /// when it has no escapes, else its unescaped bytes written over the text in the copy.
    private mutating func stringWord(_ scanned: JSONScanner.ScannedString, at offset: Int, _ reader: inout JSONReader) -> UInt64 {
        // [unsafe: json-view-text] The string was scanned to its closing quote: its text,
        // `offset..<offset + count`, lies inside the input, and an unescaped value is no longer
        // than its text, so it fits the same range of the copy (which holds `input.count` bytes).
        let count = scanned.end &- scanned.start
        guard count > 0 else { return 0 }
        assert(offset &+ count <= input.count, "a string value past the input")
        guard scanned.isUnescaped else {
            if let text { (text + offset).update(from: input.readableBase + offset, count: count) }
            return ArenaString.word(offset: offset, count: count, isASCII: scanned.isASCII)
        }
        let text = copy(upTo: offset)
        reader.consumeString(scanned) { value in (text + offset).update(from: value.baseAddress!, count: count) }
        return ArenaString.word(offset: offset, count: count, isASCII: false)
    }

    /// A bytes value: its base64 text decoded over the text in the copy.
    ///
    /// The copy is taken inside the decode, which ``JSONReader/consumeBase64(_:)`` calls only after the
    /// string has been scanned to its closing quote: `offset` is then the first byte of text inside
    /// the input, and the copy (the input's bytes before it) and the decoded value (at most the
    /// text's length, which ends before the closing quote) both fit the buffer's `input.count`
    /// bytes. A value cut off before its closing quote throws from the scan and copies nothing.
    private mutating func bytesWord(_ reader: inout JSONReader) throws(IMWireError) -> UInt64 {
        // [unsafe: json-view-text] See above: the decoded bytes, at most as many as the text's,
        // are written over the text inside the copy.
        var offset = 0
        let count = try reader.consumeBase64 { encoded, textOffset in
            assert(textOffset &+ encoded.count <= input.count, "base64 text past the input")
            offset = textOffset
            return Base64.decode(encoded, into: copy(upTo: textOffset) + textOffset)
        }
        return count == 0 ? 0 : ArenaString.word(offset: offset, count: count, isASCII: false)
    }

    /// The buffer every word reads from the first call on, which then copies the input before
    /// `offset` into it: the strings read so far, all of which end before the value at `offset`.
    private mutating func copy(upTo offset: Int) -> UnsafeMutablePointer<UInt8> {
        // [unsafe: json-view-text] `offset` is the start of a scanned value's text, so at most
        // `input.count`; the buffer has room for `input.count` bytes. [unsafe: thread-scratch]
        // Taken from the thread once per view, given back by ``discard()``.
        assert(offset >= 0 && offset <= input.count, "a copy up to past the input")
        if let text { return text }
        var (buffer, capacity) = Scratch.bytes.take()
        if capacity < input.count {
            buffer = ScratchMemory.resize(buffer, to: input.count)
            capacity = input.count
        }
        buffer.update(from: input.readableBase, count: offset)
        (text, textCapacity) = (buffer, capacity)
        return buffer
    }
}
