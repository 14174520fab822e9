/// A message type whose members ``JSONReader`` reads: after the reader has found a key and the
/// field it names, the type reads that field's value (its generated `_decodeJSON`, one `switch` over
/// the field indices of its ``ProtoMessage/schema``) with the reader's value reads. Every generated
/// type conforms. The reader finds the type's JSON names in the table built from its schema file's
/// layouts (``JSONNameTable/of(_:)``), hence ``ArenaLaidOut``.
package protocol JSONFieldReading: ArenaLaidOut {
    /// Reads the JSON value of schema field `index`, whose key the reader just read, into this value.
    mutating func _decodeJSON(field index: Int, _ reader: inout JSONReader) throws(IMWireError)
}
