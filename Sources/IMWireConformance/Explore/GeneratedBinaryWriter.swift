import IMWire

/// Writes a ``GeneratedMessage`` as protobuf binary, in one of two ways:
///
/// - ``canonical(_:)``: the expected bytes — IMWire's canonical form (fields in number order,
///   proto3 defaults left out but for oneof members, negative `int32` and enum values as 10-byte
///   varints, map entries sorted by key bytes with key and value always written, unknown fields after
///   the known ones as read), so the Recommended `CanonicalBinaryOutput` check can compare byte for
///   byte;
/// - ``styled(_:)``: the input — every style and the flaw applied.
///
/// A writer of its own, on purpose: the expectation must not come from the codec under test, and
/// the suite's comparison decodes both sides with IMWire, so a bug shared by this writer and IMWire's
/// reader would have to be the same bug twice.
struct GeneratedBinaryWriter {
    /// One field occurrence (or unknown field, or inserted flaw) of a message being written, with
    /// the group whose order it must keep.
    private struct Item {
        var group: Int
        var bytes: [UInt8]
        /// Write only this many bytes, then end the message (a truncation).
        var cut: Int?
        /// What it is, for the annotated hex of a printed case.
        var label: String
    }

    /// The group of the unknown fields, which keep their order; oneofs are 1_000_000 + their id;
    /// inserted flaws get groups of their own.
    private static let unknownGroup = -1

    /// The canonical bytes of `message`.
    static func canonical(_ message: GeneratedMessage) -> [UInt8] {
        var out: [UInt8] = []
        for field in message.fields {
            let info = message.info(field)
            let number = UInt64(field.number)
            switch field.value {
            case .varint(let value):
                guard value != 0 || info.oneof != nil else { continue }
                appendTag(number, 0, to: &out)
                appendVarint(value, to: &out)
            case .double(let value):
                guard value.bitPattern != 0 || info.oneof != nil else { continue }
                appendTag(number, 1, to: &out)
                appendFixed64(value.bitPattern, to: &out)
            case .text(let bytes):
                guard !bytes.isEmpty || info.oneof != nil else { continue }
                appendDelimited(number, bytes, to: &out)
            case .message(let child):
                appendDelimited(number, canonical(child), to: &out)
            case .texts(let list):
                for bytes in list { appendDelimited(number, bytes, to: &out) }
            case .messages(let list):
                for child in list { appendDelimited(number, canonical(child), to: &out) }
            case .map(let entries):
                for entry in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                    var body: [UInt8] = []
                    appendDelimited(1, entry.key, to: &body)
                    appendDelimited(2, entry.value, to: &body)
                    appendDelimited(number, body, to: &out)
                }
            }
        }
        for unknown in message.unknownFields { appendUnknown(unknown, to: &out) }
        return out
    }

    /// The input bytes of `message`, and for each top-level item its byte range and what it is.
    static func styled(_ message: GeneratedMessage) -> (bytes: [UInt8], parts: [(range: Range<Int>, label: String)]) {
        var parts: [(range: Range<Int>, label: String)] = []
        let bytes = styled(message, level: 1, parts: &parts)
        return (bytes, parts)
    }

    private static func styled(_ message: GeneratedMessage, level: Int, parts: inout [(range: Range<Int>, label: String)]) -> [UInt8] {
        var items: [Item] = []
        for field in message.fields {
            items += occurrences(of: field, in: message, level: level)
        }
        for unknown in message.unknownFields {
            var bytes: [UInt8] = []
            appendUnknown(unknown, to: &bytes)
            let known = message.schema.field(number: Int(clamping: unknown.number))
            let label = known.map { "field \(unknown.number) (\($0.name)) with wire type \(unknown.content.wireType): kept as unknown" }
                ?? "unknown field \(unknown.number), wire type \(unknown.content.wireType)"
            items.append(Item(group: unknownGroup, bytes: bytes, label: label))
        }
        var last: Item?
        if let flaw = message.flaw, flaw.kind.input == .binary {
            var random = ExploreRandom(seed: flaw.variant)
            let extra = flawItem(flaw, in: message, random: &random)
            if flaw.kind == .groupUnclosed {
                last = extra
            } else {
                items.insert(extra, at: random.below(items.count + 1))
            }
        }
        if let seed = message.style.order {
            items = interleave(items, seed: seed)
        }
        if let last { items.append(last) }

        var out: [UInt8] = []
        for item in items {
            let start = out.count
            if let cut = item.cut {
                out += item.bytes.prefix(cut)
                if level == 1 { parts.append((start..<out.count, item.label + ", cut after \(cut) of \(item.bytes.count) bytes")) }
                break
            }
            out += item.bytes
            if level == 1 { parts.append((start..<out.count, item.label)) }
        }
        return out
    }

    /// A random interleaving of the items that keeps the order within each group.
    private static func interleave(_ items: [Item], seed: UInt64) -> [Item] {
        var random = ExploreRandom(seed: seed)
        var groups: [(key: Int, items: ArraySlice<Item>)] = []
        for item in items {
            if let index = groups.firstIndex(where: { $0.key == item.group }) {
                groups[index].items.append(item)
            } else {
                groups.append((item.group, [item]))
            }
        }
        var out: [Item] = []
        var remaining = items.count
        while remaining > 0 {
            var roll = random.below(remaining)
            for index in groups.indices {
                if roll < groups[index].items.count {
                    out.append(groups[index].items.removeFirst())
                    break
                }
                roll -= groups[index].items.count
            }
            remaining -= 1
        }
        return out
    }

    // MARK: Occurrences of a field

    /// One piece of the wire: a tag and a value, with the lengths it is written in.
    private struct Piece {
        var number: UInt64
        var wireType: UInt8
        /// The tag's varint length (0: minimal).
        var tagLength = 0
        var value: Value
        /// A length prefix that lies (a flaw).
        var lengthOverride: UInt64?

        enum Value {
            case varint(UInt64, length: Int)
            case fixed64(UInt64)
            case delimited([UInt8], prefixLength: Int)
        }

        var bytes: [UInt8] {
            var out: [UInt8] = []
            appendVarint(number << 3 | UInt64(wireType), length: tagLength, to: &out)
            switch value {
            case .varint(let value, let length):
                appendVarint(value, length: length, to: &out)
            case .fixed64(let bits):
                appendFixed64(bits, to: &out)
            case .delimited(let body, let prefixLength):
                appendVarint(lengthOverride ?? UInt64(body.count), length: prefixLength, to: &out)
                out += body
            }
            return out
        }
    }

    private static func occurrences(of field: GeneratedField, in message: GeneratedMessage, level: Int) -> [Item] {
        let info = message.info(field)
        let style = field.binary
        let group = info.oneof == nil ? field.number : 1_000_000 + message.schema.oneofIDs[message.schema.indexByNumber[field.number]]
        let tagLength = style.tagPadding > 0 ? min(5, varintSize(UInt64(field.number) << 3) + style.tagPadding) : 0

        func piece(_ value: FieldValue, of info: FieldSchema, form: UInt64? = nil) -> Piece {
            let number = UInt64(info.number)
            switch value {
            case .varint(let raw):
                let wire = form.map { varintForm(raw, info.kind, seed: $0) } ?? raw
                return Piece(number: number, wireType: 0, tagLength: tagLength, value: .varint(wire, length: style.valueLength))
            case .double(let double):
                return Piece(number: number, wireType: 1, tagLength: tagLength, value: .fixed64(double.bitPattern))
            case .text(let bytes):
                return delimited(number, bytes)
            case .message(let child):
                var nestedParts: [(range: Range<Int>, label: String)] = []
                return delimited(number, styled(child, level: level + 1, parts: &nestedParts))
            default:
                return delimited(number, [])
            }
        }
        func delimited(_ number: UInt64, _ body: [UInt8]) -> Piece {
            let prefix = style.valueLength > 0 ? min(5, varintSize(UInt64(body.count)) + style.valueLength) : 0
            return Piece(number: number, wireType: 2, tagLength: tagLength, value: .delimited(body, prefixLength: prefix))
        }

        var junk: [Piece] = []
        var real: [Piece] = []
        var flawTarget = 0  // index into `real`
        switch field.value {
        case .varint, .double, .text, .message:
            var value = field.value
            if let flaw = field.flaw, flaw.kind == .invalidUTF8, case .text(let bytes) = value {
                value = .text(breakUTF8(bytes, variant: flaw.variant))
            }
            if let seed = style.earlier {
                junk = earlierPieces(of: info, in: message, seed: seed, level: level) { piece($0, of: $1) }
            }
            if let seed = style.split, case .message(let child) = value {
                let (first, second) = MessageSplitter.split(child, seed: seed)
                real = [piece(.message(first), of: info), piece(.message(second), of: info)]
                flawTarget = 1
            } else {
                real = [piece(value, of: info, form: style.numberForm)]
            }
        case .texts(var list):
            if let flaw = field.flaw, !list.isEmpty {
                flawTarget = Int(flaw.variant % UInt64(list.count))
                if flaw.kind == .invalidUTF8 { list[flawTarget] = breakUTF8(list[flawTarget], variant: flaw.variant >> 8) }
            }
            real = list.map { piece(.text($0), of: info) }
        case .messages(let list):
            if let flaw = field.flaw, !list.isEmpty { flawTarget = Int(flaw.variant % UInt64(list.count)) }
            real = list.map { piece(.message($0), of: info) }
        case .map(var entries):
            if let flaw = field.flaw, !entries.isEmpty {
                flawTarget = Int(flaw.variant % UInt64(entries.count))
                if flaw.kind == .invalidUTF8 { entries[flawTarget].key = breakUTF8(entries[flawTarget].key, variant: flaw.variant >> 8) }
            }
            var random = ExploreRandom(seed: style.entries ?? 0)
            var earlier = style.earlier.map { ExploreRandom(seed: $0) }
            var pieces: [Piece] = []
            var target = -1
            for (index, entry) in entries.enumerated() {
                // An earlier entry with the same key and another value: the last one counts.
                if earlier?.chance(40) == true, let value = earlier?.bytes() {
                    pieces.append(delimited(UInt64(info.number), mapEntry(MapEntryValue(key: entry.key, value: value), style: nil)))
                }
                if index == flawTarget { target = pieces.count }
                pieces.append(delimited(UInt64(info.number), mapEntry(entry, style: style.entries == nil ? nil : random.next())))
            }
            flawTarget = target
            real = pieces
        }

        if let flaw = field.flaw, flaw.kind.input == .binary, real.indices.contains(flawTarget) {
            apply(flaw, to: &real[flawTarget])
        }
        var items = (junk + real).map { Item(group: group, bytes: $0.bytes, label: "") }
        for index in items.indices {
            items[index].label = index < junk.count ? "\(info.name) (\(field.number)), overridden below" : "\(info.name) (\(field.number))"
        }
        if let flaw = field.flaw, flaw.kind == .truncated, real.indices.contains(flawTarget) {
            let index = junk.count + flawTarget
            let count = items[index].bytes.count
            items[index].cut = 1 + Int(flaw.variant % UInt64(max(1, count - 1)))
        }
        return items
    }

    /// The occurrences before the real one that it overrides: an earlier value of a scalar, or, in a
    /// oneof, another member in between (the last member read replaces the others: it is not merged
    /// with an earlier occurrence of itself across a switch).
    private static func earlierPieces(
        of info: FieldSchema, in message: GeneratedMessage, seed: UInt64, level: Int, piece: (FieldValue, FieldSchema) -> Piece
    ) -> [Piece] {
        var generator = MessageGenerator(random: ExploreRandom(seed: seed), variations: [], nodeBudget: 4, chainLayers: 0, root: message.schema)
        let isMessage: Bool = if case .message = info.kind { true } else { false }
        guard let oneof = info.oneof else {
            return isMessage ? [] : [piece(generator.junkValue(for: info, level: level), info)]
        }
        let others = message.schema.fields.filter { $0.oneof == oneof && $0.number != info.number }
        var pieces: [Piece] = []
        if let other = others.isEmpty ? nil : generator.random.pick(others) {
            if generator.random.chance(60) { pieces.append(piece(generator.junkValue(for: info, level: level), info)) }
            pieces.append(piece(generator.junkValue(for: other, level: level), other))
        } else if !isMessage {
            pieces.append(piece(generator.junkValue(for: info, level: level), info))
        }
        return pieces
    }

    /// Another varint that a reader turns into the same value: a bool as any non-zero varint, a
    /// negative int32 or enum as its 32-bit form (5 bytes), an int32 with bits above 32 set.
    private static func varintForm(_ value: UInt64, _ kind: FieldSchema.Kind, seed: UInt64) -> UInt64 {
        var random = ExploreRandom(seed: seed)
        switch kind {
        case .bool where value != 0:
            return random.pick([2, 127, 256, 1 << 32, 1 << 63, UInt64.max])
        case .int32:
            if Int64(bitPattern: value) < 0, random.chance(50) { return value & 0xFFFF_FFFF }
            return random.next() << 32 | (value & 0xFFFF_FFFF)
        case .enumeration where Int64(bitPattern: value) < 0:
            return value & 0xFFFF_FFFF
        default:
            return value
        }
    }

    /// A map entry; `style` picks a spelling: value before key, a default key or value left out, the
    /// key written twice (the last one counts).
    private static func mapEntry(_ entry: MapEntryValue, style: UInt64?) -> [UInt8] {
        var out: [UInt8] = []
        switch (style ?? 0) % 5 {
        case 1:
            appendDelimited(2, entry.value, to: &out)
            appendDelimited(1, entry.key, to: &out)
        case 2 where entry.key.isEmpty:
            appendDelimited(2, entry.value, to: &out)
        case 3 where entry.value.isEmpty:
            appendDelimited(1, entry.key, to: &out)
        case 4:
            appendDelimited(1, Array("stale".utf8), to: &out)
            appendDelimited(1, entry.key, to: &out)
            appendDelimited(2, entry.value, to: &out)
        default:
            appendDelimited(1, entry.key, to: &out)
            appendDelimited(2, entry.value, to: &out)
        }
        return out
    }

    /// Applies a field flaw to the piece it sits on.
    private static func apply(_ flaw: Flaw, to piece: inout Piece) {
        let extra = Int(flaw.variant % 3)
        switch flaw.kind {
        case .varintTooLongTag: piece.tagLength = 11 + extra
        case .varintTooLongValue:
            if case .varint(let value, _) = piece.value { piece.value = .varint(value, length: 11 + extra) }
        case .varintTooLongLength:
            if case .delimited(let body, _) = piece.value { piece.value = .delimited(body, prefixLength: 11 + extra) }
        case .wireType6: piece.wireType = 6
        case .wireType7: piece.wireType = 7
        case .length2Pow31: piece.lengthOverride = 1 << 31
        case .length4GB: piece.lengthOverride = 0xFFFF_FFFF
        case .lengthAbove32Bits:
            // Cut to 32 bits it is the true length: a reader that keeps 32 bits reads on happily.
            if case .delimited(let body, _) = piece.value { piece.lengthOverride = 1 << 32 | UInt64(body.count) }
        case .length2Pow63: piece.lengthOverride = 1 << 63
        case .length2Pow64Minus1: piece.lengthOverride = UInt64.max
        case .tagOverlong: piece.tagLength = 6 + Int(flaw.variant % 5)
        case .lengthOverlong:
            if case .delimited(let body, _) = piece.value { piece.value = .delimited(body, prefixLength: 6 + Int(flaw.variant % 5)) }
        default: break
        }
    }

    /// The field inserted by a message flaw.
    private static func flawItem(_ flaw: Flaw, in message: GeneratedMessage, random: inout ExploreRandom) -> Item {
        var out: [UInt8] = []
        let unknownNumber = UInt64((message.schema.fields.map(\.number).max() ?? 0) + 1 + random.below(50))
        let label: String
        switch flaw.kind {
        case .fieldNumberZero:
            if random.chance(50) { out = [0x00, 0x01] } else { out = [0x02, 0x00] }
            label = "field number 0"
        case .fieldNumber2Pow29:
            appendVarint(1 << 32, to: &out)
            out.append(0x01)
            label = "field number 2^29, wire type 0"
        case .fieldNumberTagAbove32Bits:
            // Cut to 32 bits the tag names a real field with its own wire type.
            let field = message.schema.fields.isEmpty ? nil : random.pick(message.schema.fields)
            let low = field.map { UInt64($0.number) << 3 | UInt64($0.kind.wireType) } ?? 0x08
            appendVarint(1 << 32 | low, to: &out)
            switch low & 7 {
            case 0: out.append(0x01)
            case 1: out += [UInt8](repeating: 0, count: 8)
            default: out.append(0x00)
            }
            label = "a 5-byte tag above 2^32 (field number above 2^29 - 1)"
        case .endGroupWithoutStart:
            appendVarint(unknownNumber << 3 | 4, to: &out)
            label = "end-group tag of field \(unknownNumber), no group open"
        case .groupUnclosed:
            appendVarint(unknownNumber << 3 | 3, to: &out)
            if random.chance(50) { appendVarint(1 << 3, to: &out); out.append(0x01) }
            label = "start of group \(unknownNumber), never closed"
        default:  // .endGroupMismatched
            appendVarint(unknownNumber << 3 | 3, to: &out)
            appendVarint((unknownNumber + 1) << 3 | 4, to: &out)
            label = "group \(unknownNumber) ended by the end-group tag of field \(unknownNumber + 1)"
        }
        return Item(group: -2, bytes: out, label: label)
    }

    /// `bytes` with an invalid UTF-8 sequence put in at a place fixed by `variant`.
    static func breakUTF8(_ bytes: [UInt8], variant: UInt64) -> [UInt8] {
        let sequences: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xC3, 0x28], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE4, 0xB8]]
        let sequence = sequences[Int(variant % UInt64(sequences.count))]
        // Only between characters, so the bytes around stay whole.
        let boundaries = [0] + bytes.indices.filter { $0 > 0 && bytes[$0] & 0xC0 != 0x80 } + [bytes.count]
        let at = boundaries[Int((variant / 8) % UInt64(boundaries.count))]
        var out = bytes
        out.insert(contentsOf: sequence, at: at)
        return out
    }

    // MARK: Wire primitives

    static func varintSize(_ value: UInt64) -> Int {
        var size = 1
        var value = value >> 7
        while value != 0 {
            size += 1
            value >>= 7
        }
        return size
    }

    /// `value` as a varint of at least `length` bytes (zero-valued continuation groups pad it; more
    /// than 10 bytes makes an over-long varint).
    static func appendVarint(_ value: UInt64, length: Int = 0, to out: inout [UInt8]) {
        let count = max(length, varintSize(value))
        for index in 0..<count {
            let shift = UInt64(7 * index)
            let group = shift < 64 ? UInt8(truncatingIfNeeded: value >> shift) & 0x7F : 0
            out.append(index == count - 1 ? group : group | 0x80)
        }
    }

    static func appendTag(_ number: UInt64, _ wireType: UInt8, to out: inout [UInt8]) {
        appendVarint(number << 3 | UInt64(wireType), to: &out)
    }

    static func appendFixed64(_ bits: UInt64, to out: inout [UInt8]) {
        for index in 0..<8 { out.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))) }
    }

    static func appendDelimited(_ number: UInt64, _ body: [UInt8], to out: inout [UInt8]) {
        appendTag(number, 2, to: &out)
        appendVarint(UInt64(body.count), to: &out)
        out += body
    }

    static func appendUnknown(_ field: UnknownFieldValue, to out: inout [UInt8]) {
        appendTag(field.number, field.content.wireType, to: &out)
        switch field.content {
        case .varint(let value, let length): appendVarint(value, length: min(length, 10), to: &out)
        case .fixed64(let bits): appendFixed64(bits, to: &out)
        case .fixed32(let bits):
            for index in 0..<4 { out.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt32(index)))) }
        case .bytes(let body):
            appendVarint(UInt64(body.count), to: &out)
            out += body
        case .group(let members):
            for member in members { appendUnknown(member, to: &out) }
            appendTag(field.number, 4, to: &out)
        }
    }
}
