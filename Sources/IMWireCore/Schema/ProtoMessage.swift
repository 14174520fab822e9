/// A message type of `Schemas/imwire/v1/message.proto`, described once in a format-neutral way:
/// its field table (``schema``), its index among the types of its schema file (which the formats'
/// per-type tables are indexed by), and how to hand every present field to any visitor
/// (``traverse(_:)``) in field-number order. This layer knows fields, numbers, names and limits;
/// each format builds its own tables from it in its own folder, and declares there what it needs
/// of a type (`BinaryFieldCoding`, `JSONFieldReading`, and the view's `ArenaLaidOut`), which the
/// generated types conform to beside this protocol and `IMWireMessage`.
///
/// The per-type code is generated from the schema by `Scripts/gen_swift_model.py`, so the formats
/// cannot drift apart.
@usableFromInline package protocol ProtoMessage {
    /// An empty value: every field at its proto3 default.
    init()
    /// The message's field table.
    static var schema: MessageSchema { get }
    /// The registry of the type's schema file: every message type of the file, at its index.
    static var _schemaFile: SchemaFile { get }
    /// The index of this type among the types of its schema file (``_schemaFile``): the index of
    /// every per-type table of the file (the view's layouts, the JSON names; a format keeps its own,
    /// built from the registry and indexed the same way).
    static var _typeIndex: Int { get }
    /// Visits every field that is present (proto3: non-default, or a set oneof member or message),
    /// in field-number order, then the unknown fields. Throws only what the visitor throws.
    func traverse<V: FieldVisitor>(_ visitor: inout V) throws(V.Failure)
}
