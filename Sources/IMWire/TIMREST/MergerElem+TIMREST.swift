extension MergerElem {
    /// The field number under which ``timRESTJSONMsgKey`` is kept in ``unknownFields`` (a string,
    /// wire type 2) until the schema has a field for it. Not part of `message.proto`; reserved for
    /// this use.
    public static let timRESTJSONMsgKeyFieldNumber = 1000
    /// The field number under which ``timRESTMsgNum`` is kept in ``unknownFields`` (a varint).
    public static let timRESTMsgNumFieldNumber = 1001

    /// Tencent REST `JsonMsgKey`: the download key Tencent sends instead of an inline `MsgList` when
    /// the merged messages total more than 12 KB; `nil` when there is none.
    ///
    /// The schema has no field for it, so it is kept in ``unknownFields`` under field number
    /// ``timRESTJSONMsgKeyFieldNumber``: the binary encoding carries it (any conforming protobuf
    /// peer keeps it as an unknown field), tim-rest writes it back as `JsonMsgKey`, and proto3
    /// JSON, which has no form for unknown fields, leaves it out. A merger with a key has no inline
    /// ``messages``; fetch them with the key through Tencent's APIs. Setting it keeps any other
    /// unknown fields.
    public var timRESTJSONMsgKey: String? {
        get { timRESTFields().key.map { String(decoding: $0, as: UTF8.self) } }
        set { setTIMRESTFields(key: newValue.map { Array($0.utf8) }, count: timRESTMsgNum) }
    }

    /// Tencent REST `MsgNum` of a merger whose list is behind ``timRESTJSONMsgKey`` (for an inline
    /// list, `MsgNum` is `messages.count` and is not stored). 0 when absent. Kept in
    /// ``unknownFields`` under ``timRESTMsgNumFieldNumber`` next to the key; without a key there is
    /// nothing to count, and setting it has no effect.
    public var timRESTMsgNum: UInt32 {
        get { UInt32(truncatingIfNeeded: timRESTFields().count ?? 0) }
        set { setTIMRESTFields(key: timRESTFields().key, count: newValue) }
    }

    /// The `JsonMsgKey` and `MsgNum` to write, when ``unknownFields`` hold exactly what the tim-rest
    /// decoder stores (the key, then a non-zero count) and nothing else — so writing them as
    /// tim-rest and reading that back gives the same bytes. `nil` otherwise.
    var timRESTExactJSONMsgKey: (key: String, count: UInt32)? {
        guard !unknownFields.isEmpty, let key = timRESTJSONMsgKey else { return nil }
        let count = timRESTMsgNum
        guard Self.timRESTBytes(key: Array(key.utf8), count: count) == unknownFields.bytes else { return nil }
        return (key, count)
    }

    /// The last key (wire type 2) and count (wire type 0) fields, and every other field's raw bytes.
    private func timRESTFields() -> (key: [UInt8]?, count: UInt64?, others: [UInt8]) {
        var key: [UInt8]?
        var count: UInt64?
        var others: [UInt8] = []
        var rest = unknownFields.bytes[...]
        while !rest.isEmpty {
            guard let field = TIMRESTWire.readField(rest) else {
                // Not well-formed (the decoder never stores such bytes): keep it all as foreign.
                others.append(contentsOf: rest)
                break
            }
            if field.number == Self.timRESTJSONMsgKeyFieldNumber, field.wireType == 2 {
                key = Array(field.payload)
            } else if field.number == Self.timRESTMsgNumFieldNumber, field.wireType == 0 {
                count = TIMRESTWire.readVarint(field.payload)?.value
            } else {
                others.append(contentsOf: field.raw)
            }
            rest = field.rest
        }
        return (key, count, others)
    }

    private mutating func setTIMRESTFields(key: [UInt8]?, count: UInt32) {
        var bytes = timRESTFields().others
        if let key { bytes += Self.timRESTBytes(key: key, count: count) }
        var fields = UnknownFields()
        bytes.withUnsafeBytes { fields.append($0) }
        unknownFields = fields
    }

    /// The key field, then the count field when it is not 0.
    private static func timRESTBytes(key: [UInt8], count: UInt32) -> [UInt8] {
        var bytes = TIMRESTWire.varint(UInt64(timRESTJSONMsgKeyFieldNumber) << 3 | 2) + TIMRESTWire.lengthDelimited(key)
        if count != 0 { bytes += TIMRESTWire.varint(UInt64(timRESTMsgNumFieldNumber) << 3) + TIMRESTWire.varint(UInt64(count)) }
        return bytes
    }
}
