/// How a message of one type is laid out in an ``ArenaStorage``: a node of ``slotCount`` 64-bit words
/// (word 0 heads the list of unknown fields, word 1 has a bit for every field the decoder wrote —
/// bit i for the schema's field i, so a type has at most 64 fields — and every field of the schema
/// has its words after them), and for every field number what the arena decoder does with it. The generator writes one layout per
/// message type (`Generated/Schema/ArenaLayouts.swift`), with the same slot numbers as the type's
/// generated accessors, so the decoder and the accessors cannot disagree.
///
/// A field's words:
/// - a scalar: one word, the raw varint (the accessor narrows it as protobuf prescribes: int32, uint32
///   and enums keep the low 32 bits, a bool is any non-zero value) or the fixed64 bits;
/// - a string or bytes: one word, ``ArenaString`` (offset and length in the input copy);
/// - a singular message: one word, the child node (0: absent); a repeated occurrence merges into it;
/// - a oneof: two words shared by its members, [field number of the member set][its value word];
/// - a repeated field or map: two words, [first entry | last entry << 32][count], and a list of
///   entries [next][previous][value words…] (a map entry has two value words: key and value).
package struct ArenaField: Sendable {
    package var kind: Kind
    package var container: Container
    /// The field's first word in the node.
    package var slot: UInt16
    /// For message fields: the index of the sub-message's layout in the same ``ArenaLayoutTable``.
    package var sub: UInt16
    /// The field's index in its schema (``MessageSchema/fields``): its bit in the node's word 1.
    package var index: UInt8

    package enum Kind: UInt8, Sendable {
        /// No field with this number: kept as an unknown field.
        case unknown
        /// Varints, stored raw; they differ in how they are read and written back: a `uint64`; a
        /// `uint32` (low 32 bits); an `int32` or an enum (low 32 bits, sign-extended on the wire);
        /// a `bool` (non-zero is true, written as 1).
        case uint64, uint32, int32, enumeration, bool
        /// A `double`'s bits.
        case fixed64
        case string, bytes, message
        /// `map<string, bytes>`: entries of two words, key and value.
        case stringToBytesMap
    }

    package enum Container: UInt8, Sendable {
        case single, oneof, repeated
    }

    /// The wire type the field must arrive with; another one keeps it as an unknown field.
    package var wireType: UInt8 {
        switch kind {
        case .uint64, .uint32, .int32, .enumeration, .bool: WireType.varint
        case .fixed64: WireType.fixed64
        case .unknown: 0xFF
        default: WireType.lengthDelimited
        }
    }

    package init(_ kind: Kind, _ container: Container = .single, slot: Int, index: Int, sub: Int = 0) {
        self.kind = kind
        self.container = container
        self.slot = UInt16(slot)
        self.sub = UInt16(sub)
        self.index = UInt8(index)
    }

    static let none = ArenaField(.unknown, slot: 0, index: 0)
}

/// One message type's layout as the decoder reads it: plain values behind a pointer, so the decoder's
/// loop does no reference counting.
package struct ArenaLayout {
    /// Words per node.
    package let slotCount: Int
    /// The highest field number the type has; `fields[n]` for n in 0...maxNumber.
    package let maxNumber: Int
    package let fields: UnsafeMutablePointer<ArenaField>
    /// `wireTypes[n]`: the wire type field n must arrive with (0xFF: no such field).
    package let wireTypes: UnsafeMutablePointer<UInt8>
    /// `byIndex[i]`: the number and layout of the schema's field i.
    package let byIndex: UnsafeMutablePointer<(number: Int, field: ArenaField)>
    /// The type's schema (names, for the JSON reader). Schemas live as long as the program.
    package unowned(unsafe) let schema: MessageSchema
}

/// The layouts of every message type of one schema file, indexed by the generator's type numbers.
/// Built once (a global `let`) and never freed.
package final class ArenaLayoutTable: @unchecked Sendable {
    package let layouts: UnsafeMutablePointer<ArenaLayout>
    package let count: Int

    /// `types[i]` is type i's slot count, schema and fields as (number, field), in field-number order.
    package init(_ types: [(slotCount: Int, schema: MessageSchema, fields: [(Int, ArenaField)])]) {
        count = types.count
        layouts = .allocate(capacity: types.count)
        for (index, type) in types.enumerated() {
            precondition(type.fields.count <= 64, "arena layout \(index): more than 64 fields")
            let maxNumber = type.fields.map(\.0).max() ?? 0
            let fields = UnsafeMutablePointer<ArenaField>.allocate(capacity: maxNumber + 1)
            fields.initialize(repeating: .none, count: maxNumber + 1)
            let wireTypes = UnsafeMutablePointer<UInt8>.allocate(capacity: maxNumber + 1)
            wireTypes.initialize(repeating: 0xFF, count: maxNumber + 1)
            let byIndex = UnsafeMutablePointer<(number: Int, field: ArenaField)>.allocate(capacity: max(1, type.fields.count))
            for (position, (number, field)) in type.fields.enumerated() {
                precondition(Int(field.slot) < type.slotCount && (field.kind != .message || Int(field.sub) < types.count)
                             && Int(field.index) == position && type.schema.numbers[position] == number,
                             "arena layout \(index): field \(number) does not match its schema or table")
                fields[number] = field
                wireTypes[number] = field.wireType
                (byIndex + position).initialize(to: (number, field))
            }
            (layouts + index).initialize(to: ArenaLayout(
                slotCount: type.slotCount, maxNumber: maxNumber, fields: fields, wireTypes: wireTypes,
                byIndex: byIndex, schema: type.schema))
        }
    }
}
