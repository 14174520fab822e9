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
