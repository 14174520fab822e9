/// A message type of `Schemas/imwire/v1/message.proto`, described once in a format-neutral way:
/// its field table (``schema``), its index among the types of its schema file (which the formats'
/// per-type tables are indexed by), how to hand every present field to any visitor
/// (``traverse(_:)``) in field-number order, and how the binary reader and writer reach its fields. This layer knows fields, numbers, names and limits; each format
/// builds its own tables from it in its own folder.
///
/// The per-type code is generated from the schema by `Scripts/gen_swift_model.py`, so the formats
/// cannot drift apart.
package protocol ProtoMessage: IMWireMessage {
    /// The message's field table.
    static var schema: MessageSchema { get }
    /// The layouts of the message's schema file, and the index of this type among them: the index
    /// of every per-type table of the file (a format keeps its own, indexed the same way).
    static var _arenaTable: ArenaLayoutTable { get }
    static var _arenaLayoutIndex: Int { get }
    /// Writes the value's canonical binary encoding in front of what `writer` holds (the binary
    /// encoder writes back to front: fields from the last to the first).
    borrowing func _writeBinary(_ writer: inout BinaryWriter) throws(IMWireError)
    /// Visits every field that is present (proto3: non-default, or a set oneof member or message),
    /// in field-number order, then the unknown fields. Throws only what the visitor throws.
    func traverse<V: FieldVisitor>(_ visitor: inout V) throws(V.Failure)
    /// Reads the fields of a binary message body into this value (``BinaryReader``).
    mutating func _decodeBinary(_ reader: inout BinaryReader) throws(IMWireError)
}
