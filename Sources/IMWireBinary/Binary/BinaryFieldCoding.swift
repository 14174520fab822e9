import IMWireCore

/// What the binary format needs of a message type: how its reader and writer reach the type's
/// fields. Every generated type conforms (its `_writeBinary` and `_decodeBinary` are generated from
/// the schema), beside ``ProtoMessage``, which knows no format.
@usableFromInline package protocol BinaryFieldCoding: ProtoMessage {
    /// Writes the value's canonical binary encoding in front of what `writer` holds (the binary
    /// encoder writes back to front: fields from the last to the first).
    borrowing func _writeBinary(_ writer: inout BinaryWriter) throws(IMWireError)
    /// Reads the fields of a binary message body into this value (``BinaryReader``).
    mutating func _decodeBinary(_ reader: inout BinaryReader) throws(IMWireError)
}
