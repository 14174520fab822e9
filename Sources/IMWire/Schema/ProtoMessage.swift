/// A message type of `Schemas/imwire/v1/message.proto`, described once in a format-neutral way:
/// its field table (``schema``), its arena layout (how a decoded value sits in an ``ArenaStorage``,
/// which every decoder builds), and how to hand every present field to any visitor
/// (``traverse(_:)``), in field-number order. This layer knows fields, numbers, names and limits;
/// each format builds its own tables from it in its own folder.
///
/// The per-type code is generated from the schema by `Scripts/gen_swift_model.py`, so the formats
/// cannot drift apart.
package protocol ProtoMessage: IMWireMessage {
    /// The message's field table.
    static var schema: MessageSchema { get }
    /// The arena layouts of the message's schema file, and the index of this type's layout in it
    /// (what ``ArenaDecoder`` decodes with).
    static var _arenaTable: ArenaLayoutTable { get }
    static var _arenaLayoutIndex: Int { get }
    /// A value that reads its fields from a node of a decoded ``ArenaStorage``.
    init(_arena: ArenaRef)
    /// The node the value reads its fields from, if it is a decoded value not changed since.
    var _arena: ArenaRef? { get }
    /// Writes the value's canonical binary encoding in front of what `writer` holds (the binary
    /// encoder writes back to front: fields from the last to the first).
    func _writeBinary(_ writer: inout BinaryWriter) throws(IMWireError)
    /// Visits every field that is present (proto3: non-default, or a set oneof member or message),
    /// in field-number order, then the unknown fields. Throws only what the visitor throws.
    func traverse<V: FieldVisitor>(_ visitor: inout V) throws(V.Failure)
}

/// A proto3 enum: open, so numbers the schema does not name are kept as `.unrecognized(n)`.
package protocol ProtoEnum: RawRepresentable, Hashable, Sendable where RawValue == Int32 {
    init(rawValue: Int32)
    static var schema: EnumSchema { get }
}

/// Receives the present fields of a message from ``ProtoMessage/traverse(_:)``.
package protocol FieldVisitor {
    /// What the visitor can throw: `IMWireError` for the encoders (depth limit), `Never` for
    /// visitors that cannot fail (the binary writer, counters), so they need no `try!`.
    associatedtype Failure: Error
    mutating func visitString(_ value: String, field: Int) throws(Failure)
    mutating func visitBytes(_ value: [UInt8], field: Int) throws(Failure)
    mutating func visitUInt64(_ value: UInt64, field: Int) throws(Failure)
    mutating func visitUInt32(_ value: UInt32, field: Int) throws(Failure)
    mutating func visitInt32(_ value: Int32, field: Int) throws(Failure)
    mutating func visitBool(_ value: Bool, field: Int) throws(Failure)
    mutating func visitDouble(_ value: Double, field: Int) throws(Failure)
    mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) throws(Failure)
    mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) throws(Failure)
    mutating func visitRepeatedString(_ value: [String], field: Int) throws(Failure)
    mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) throws(Failure)
    /// A field that closes the model's cycle of message types (in this schema, a merger's messages;
    /// see ``NestedMessages``): the one place where a message built in code can nest without bound.
    /// The default is ``visitRepeatedMessage(_:field:)``, for visitors that bound their recursion
    /// themselves (the encoders' depth limits and ``StackGuard``); a visitor that must answer at any
    /// depth keeps these messages on a worklist of its own instead of recursing.
    mutating func visitNestedMessages<M: ProtoMessage>(_ value: [M], field: Int) throws(Failure)
    mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) throws(Failure)
    mutating func visitUnknownFields(_ value: UnknownFields) throws(Failure)

    // A decoded value's fields, as its arena node holds them (defaults below build the values).
    /// A string field's UTF-8 bytes, already validated.
    mutating func visitUTF8String(_ value: UnsafeBufferPointer<UInt8>, field: Int) throws(Failure)
    mutating func visitRawBytes(_ value: UnsafeBufferPointer<UInt8>, field: Int) throws(Failure)
    mutating func visitRepeatedString(_ value: ArenaList, field: Int) throws(Failure)
    mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: ArenaMessageList<M>, field: Int) throws(Failure)
    mutating func visitNestedMessages<M: ProtoMessage>(_ value: ArenaMessageList<M>, field: Int) throws(Failure)
    mutating func visitUnknownFields(_ value: ArenaUnknownFields) throws(Failure)
}

extension FieldVisitor {
    @inline(__always)
    package mutating func visitNestedMessages<M: ProtoMessage>(_ value: [M], field: Int) throws(Failure) {
        try visitRepeatedMessage(value, field: field)
    }
}

/// What a value read from an arena node hands a visitor (``ProtoMessage/traverse(_:)`` of a decoded
/// value): strings and bytes as the validated bytes in the storage, repeated fields and unknown
/// fields as the storage's lists. The defaults build the `String`s and arrays and call the methods
/// above, so a visitor need implement these only to avoid that (the encoders do).
extension FieldVisitor {
    package mutating func visitUTF8String(_ value: UnsafeBufferPointer<UInt8>, field: Int) throws(Failure) {
        try visitString(UTF8Validation.string(validated: value, isASCII: false), field: field)
    }

    package mutating func visitRawBytes(_ value: UnsafeBufferPointer<UInt8>, field: Int) throws(Failure) {
        try visitBytes(Array(value), field: field)
    }

    package mutating func visitRepeatedString(_ value: ArenaList, field: Int) throws(Failure) {
        try visitRepeatedString(value.strings, field: field)
    }

    package mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: ArenaMessageList<M>, field: Int) throws(Failure) {
        try visitRepeatedMessage(value.array, field: field)
    }

    package mutating func visitNestedMessages<M: ProtoMessage>(_ value: ArenaMessageList<M>, field: Int) throws(Failure) {
        try visitNestedMessages(value.array, field: field)
    }

    package mutating func visitUnknownFields(_ value: ArenaUnknownFields) throws(Failure) {
        try visitUnknownFields(value.unknownFields)
    }
}

/// A visitor that counts or searches strings, bytes and structure only (the content-size counter,
/// the unknown-field search): numbers, bools and enums carry nothing for it, so they are ignored
/// here once instead of by an empty method in each such visitor.
package protocol NumberIgnoringVisitor: FieldVisitor where Failure == Never {}

extension NumberIgnoringVisitor {
    package mutating func visitUInt64(_ value: UInt64, field: Int) {}
    package mutating func visitUInt32(_ value: UInt32, field: Int) {}
    package mutating func visitInt32(_ value: Int32, field: Int) {}
    package mutating func visitBool(_ value: Bool, field: Int) {}
    package mutating func visitDouble(_ value: Double, field: Int) {}
    package mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) {}
}

/// The field table of one message type.
/// Immutable after `init`; its pointers are written only there, so sharing it is safe.
package final class MessageSchema: @unchecked Sendable {
    /// Fully qualified proto name, e.g. `imwire.v1.TextElem`.
    package let fullName: String
    /// Fields in field-number order.
    package let fields: [FieldSchema]

    /// `indexByNumber[n]` is the index in ``fields`` of field number `n`, or -1.
    package let indexByNumber: [Int]
    /// Per field index: its number, and its oneof as a small integer (-1 for none), for readers
    /// that look these up per member without copying a ``FieldSchema`` (and retaining its strings).
    package let numbers: [Int]
    package let oneofIDs: [Int]

    package init(fullName: String, fields: [FieldSchema]) {
        self.fullName = fullName
        self.fields = fields
        var table = [Int](repeating: -1, count: (fields.map(\.number).max() ?? 0) + 1)
        for (index, field) in fields.enumerated() { table[field.number] = index }
        indexByNumber = table
        numbers = fields.map(\.number)
        var oneofNames: [String] = []
        oneofIDs = fields.map { field in
            guard let oneof = field.oneof else { return -1 }
            if let id = oneofNames.firstIndex(of: oneof) { return id }
            oneofNames.append(oneof)
            return oneofNames.count - 1
        }
    }

    /// The field with `number`, or `nil` when the schema does not know it.
    @inline(__always)
    package func field(number: Int) -> FieldSchema? {
        guard number >= 0, number < indexByNumber.count else { return nil }
        let index = indexByNumber[number]
        return index < 0 ? nil : fields[index]
    }

}

/// One field of a ``MessageSchema``.
package struct FieldSchema: Sendable {
    package enum Kind: Sendable {
        case string, bytes, uint64, uint32, int32, bool, double
        case enumeration(EnumSchema)
        case message(@Sendable () -> MessageSchema)
        /// `map<string, bytes>`.
        case stringToBytesMap
    }

    package let number: Int
    /// The proto name (`msg_id`).
    package let name: String
    package let kind: Kind
    package let isRepeated: Bool
    /// The oneof this field belongs to (`target`, `content`), if any.
    package let oneof: String?
    /// The Swift property (or oneof case) name (`msgID`), for debug descriptions.
    package let swiftName: String

    package init(_ number: Int, _ name: String, _ kind: Kind, repeated: Bool = false, oneof: String? = nil, swift: String? = nil) {
        self.number = number
        self.name = name
        self.kind = kind
        self.isRepeated = repeated
        self.oneof = oneof
        self.swiftName = swift ?? name
    }
}

/// The names of one enum's values.
package final class EnumSchema: Sendable {
    /// Fully qualified proto name, e.g. `imwire.v1.ImageType`.
    package let fullName: String
    /// (number, proto name) in declaration order.
    package let values: [(number: Int32, name: String)]
    /// The names as UTF-8, for ``number(named:)`` without String comparisons.
    private let nameUTF8: [[UInt8]]

    package init(fullName: String, values: [(number: Int32, name: String)]) {
        self.fullName = fullName
        self.values = values
        self.nameUTF8 = values.map { Array($0.name.utf8) }
    }

    package func name(of number: Int32) -> String? {
        values.first { $0.number == number }?.name
    }

    /// The number of the value named exactly `name`.
    package func number(named name: UnsafeBufferPointer<UInt8>) -> Int32? {
        for (index, candidate) in nameUTF8.enumerated() where candidate.count == name.count {
            if candidate.withUnsafeBufferPointer({ memcmp($0.baseAddress!, name.baseAddress!, name.count) == 0 }) {
                return values[index].number
            }
        }
        return nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
