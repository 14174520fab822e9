import IMWireCore
import IMWireJSONText

/// A message type whose members ``JSONReader`` reads: after the reader has found a key and the
/// field it names, the type reads that field's value (its generated `_decodeJSON`, one `switch` over
/// the field indices of its ``ProtoMessage/schema``) with the reader's value reads. Every generated
/// type conforms. The reader and the writer find the type's JSON names at its ``ProtoMessage/_typeIndex``
/// in the table of its own schema file (``_jsonNames``), built from that file's ``SchemaFile``.
@usableFromInline package protocol JSONFieldReading: ProtoMessage {
    /// The proto3 JSON names of every type of this type's schema file (a generated global per file).
    static var _jsonNames: JSONNameTable { get }
    /// Reads the JSON value of schema field `index`, whose key the reader just read, into this value.
    mutating func _decodeJSON(field index: Int, _ reader: inout JSONReader) throws(IMWireError)
}
