import IMWireCore
import IMWireBinary

/// How a message of one type is laid out in a message view's words (``ArenaDecoder``), and what the
/// decoder does with each of its fields. The generator writes one layout per message type (`Generated/Schema/ArenaLayouts.swift`)
/// with the same slots as the type's generated accessors, so the decoders and the accessors cannot
/// disagree.
///
/// A node is ``ArenaLayout/slotCount`` 64-bit words. Word 0 heads the list of the message's unknown
/// fields. Then the fields, in field-number order:
/// - a `uint64`, a `double`'s bits, a string or bytes (an ``ArenaString``), a singular message (the
///   child node, 0 when absent: a repeated occurrence merges into it): one word each;
/// - the 32-bit scalars and the bools (`uint32`, `int32`, enums; `bool`) share words: 32 bits or
///   one bit each, at ``ArenaField/shift`` (container ``ArenaField/Container/bits``);
/// - a oneof: two words shared by its members, [field number of the member set][its value word];
/// - a repeated field or a map: one word, [first entry | last entry << 32], heading a list of
///   entries [next][value…]. The value of a string entry is one word, of a map entry two
///   (key and value), and a message entry's value is the element's node itself.
@usableFromInline package struct ArenaField: Sendable {
    @usableFromInline package var kind: Kind
    @usableFromInline package var container: Container
    /// The field's first word in the node.
    @usableFromInline package var slot: UInt16
    /// For message fields: the index of the sub-message's layout in the same ``ArenaLayoutTable``.
    @usableFromInline package var sub: UInt16
    /// The field's index in its schema (``MessageSchema/fields``).
    @usableFromInline package var index: UInt8
    /// For ``Container/bits``: the lowest bit of the value in its word.
    @usableFromInline package var shift: UInt8

    @usableFromInline package enum Kind: UInt8, Sendable {
        /// No field with this number: kept as an unknown field.
        case unknown
        /// Varints: a `uint64`; a `uint32` (its low 32 bits); an `int32` or an enum (low 32 bits,
        /// sign-extended on the wire); a `bool` (non-zero is true, written as 1).
        case uint64, uint32, int32, enumeration, bool
        /// A `double`'s bits.
        case fixed64
        case string, bytes, message
        /// `map<string, bytes>`.
        case stringToBytesMap
    }

    @usableFromInline package enum Container: UInt8, Sendable {
        /// The field has its word.
        case single
        /// A 32-bit scalar or a bool sharing its word with others, at ``ArenaField/shift``.
        case bits
        /// A member of a oneof: [field number][value].
        case oneof
        /// A repeated field or a map: a list.
        case repeated
    }

    @usableFromInline package init(_ kind: Kind, _ container: Container = .single, slot: Int, index: Int, sub: Int = 0, shift: Int = 0) {
        self.kind = kind
        self.container = container
        self.slot = UInt16(slot)
        self.sub = UInt16(sub)
        self.index = UInt8(index)
        self.shift = UInt8(shift)
    }

    static let none = ArenaField(.unknown, slot: 0, index: 0)

    /// Stores a scalar's raw value in `words[slot]` (a ``Container/single`` or ``Container/bits``
    /// field): the whole word, or its bits — a bool as one bit (any non-zero value is true).
    @inline(__always)
    @usableFromInline package func store(_ value: UInt64, in words: UnsafeMutablePointer<UInt64>, at slot: Int) {
        // [unsafe: arena-words] `slot` is a word of a node allocated with its layout's `slotCount` (the
        // caller adds the field's slot to the node).
        guard container == .bits else {
            words[slot] = value
            return
        }
        if kind == .bool {
            let bit: UInt64 = 1 &<< UInt64(shift)
            words[slot] = value != 0 ? words[slot] | bit : words[slot] & ~bit
        } else {
            let mask: UInt64 = 0xFFFF_FFFF &<< UInt64(shift)
            words[slot] = (words[slot] & ~mask) | ((value & 0xFFFF_FFFF) &<< UInt64(shift))
        }
    }
}

/// One message type's layout as the decoders read it: plain values behind a pointer, so their loops
/// do no reference counting.
///
/// [unsafe: schema-lifetime] `schema` is `unowned(unsafe)`: schemas are global constants of the
/// generated code, created once and never freed, so the reference cannot dangle.
@usableFromInline package struct ArenaLayout {
    /// Words per node.
    @usableFromInline package let slotCount: Int
    /// The highest field number the type has; `fields[n]` for n in 0...maxNumber.
    @usableFromInline package let maxNumber: Int
    @usableFromInline package let fields: UnsafeMutablePointer<ArenaField>
    /// `wireTypes[n]`: the wire type field n must arrive with in the binary format (0xFF: no such
    /// field), as the table's maker gave it (the binary view decoder's table, kept beside the fields
    /// so that a tag is checked with one load; this layer knows no format).
    @usableFromInline package let wireTypes: UnsafeMutablePointer<UInt8>
    /// `byIndex[i]`: the number and layout of the schema's field i.
    @usableFromInline package let byIndex: UnsafeMutablePointer<(number: Int, field: ArenaField)>
    /// The type's schema (names, for error messages and the text formats). Schemas live as long as the program.
    package unowned(unsafe) let schema: MessageSchema
    /// How many fields the type has (entries of ``byIndex``).
    @usableFromInline package let fieldCount: Int
}

/// The layouts of every message type of one schema file, indexed by the generator's type numbers.
/// Built once (a global `let`) and never freed.
///
/// [unsafe: schema-lifetime] `@unchecked Sendable`: the table is written only by its initialiser,
/// before any thread can see it (a global `let`), and only read after.
@usableFromInline package final class ArenaLayoutTable: @unchecked Sendable {
    @usableFromInline package let layouts: UnsafeMutablePointer<ArenaLayout>
    @usableFromInline package let count: Int

    /// `types[i]` is type i's slot count, schema and fields as (number, field), in field-number order;
    /// `wireType` gives the binary wire type a field must arrive with (``ArenaLayout/wireTypes``).
    @usableFromInline package init(
        _ types: [(slotCount: Int, schema: MessageSchema, fields: [(Int, ArenaField)])], wireType: (ArenaField) -> UInt8
    ) {
        // [unsafe: arena-layout] Each table is as long as its index range: `fields` and `wireTypes`
        // hold `maxNumber + 1` entries (the numbers are at most `maxNumber`), `byIndex` one per field,
        // `layouts` one per type; the precondition below refuses a generated table whose slots,
        // sub-layouts or indices disagree with it, so every later read of a layout stays inside the
        // node and the table.
        count = types.count
        layouts = .allocate(capacity: types.count)
        for (index, type) in types.enumerated() {
            let maxNumber = type.fields.map(\.0).max() ?? 0
            let fields = UnsafeMutablePointer<ArenaField>.allocate(capacity: maxNumber + 1)
            fields.initialize(repeating: .none, count: maxNumber + 1)
            let wireTypes = UnsafeMutablePointer<UInt8>.allocate(capacity: maxNumber + 1)
            wireTypes.initialize(repeating: 0xFF, count: maxNumber + 1)
            let byIndex = UnsafeMutablePointer<(number: Int, field: ArenaField)>.allocate(capacity: max(1, type.fields.count))
            for (position, (number, field)) in type.fields.enumerated() {
                // A oneof member's value is the word after its slot; a bit field's bits are in its word.
                let words = field.container == .oneof ? 2 : 1
                let bits = field.kind == .bool ? 1 : 32
                precondition(Int(field.slot) + words <= type.slotCount && field.slot > 0
                             && (field.container != .bits || Int(field.shift) + bits <= 64)
                             && (field.kind != .message || Int(field.sub) < types.count)
                             && number > 0 && Int(field.index) == position && type.schema.numbers[position] == number,
                             "arena layout \(index): field \(number) does not match its schema or table")
                fields[number] = field
                wireTypes[number] = wireType(field)
                (byIndex + position).initialize(to: (number, field))
            }
            (layouts + index).initialize(to: ArenaLayout(
                slotCount: type.slotCount, maxNumber: maxNumber, fields: fields, wireTypes: wireTypes,
                byIndex: byIndex, schema: type.schema, fieldCount: type.fields.count))
        }
    }
}
