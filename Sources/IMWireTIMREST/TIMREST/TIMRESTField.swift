import IMWireCore
import IMWireJSONText

/// One key of a Tencent REST `MsgContent` object and the model field it maps to.
///
/// A content type lists its keys once, in Tencent's documented order (``TIMRESTContent``), and both
/// directions follow from that list: the reader looks each key up, the writer writes every key in
/// list order — so the REST key table in the TimRest article (IMWire.docc) and the code cannot drift apart.
struct TIMRESTField<Content>: Sendable {
    /// How the JSON value is read into and written from the model.
    enum Kind: Sendable {
        /// A JSON string ↔ a `String` field.
        case string(WritableKeyPath<Content, String> & Sendable)
        /// A JSON string ↔ a `bytes` field holding its UTF-8 (REST carries custom and face data as
        /// strings; bytes that are not UTF-8 cannot be written).
        case utf8Bytes(WritableKeyPath<Content, [UInt8]> & Sendable)
        /// A JSON integer ↔ a `uint64` field.
        case uint64(WritableKeyPath<Content, UInt64> & Sendable)
        /// A JSON integer ↔ a `uint32` field.
        case uint32(WritableKeyPath<Content, UInt32> & Sendable)
        /// A JSON integer ↔ an `int32` field.
        case int32(WritableKeyPath<Content, Int32> & Sendable)
        /// A JSON number ↔ a `double` field (finite only).
        case double(WritableKeyPath<Content, Double> & Sendable)
        /// `Download_Flag` and its kin: always written as `2` ("download from the URL", the only
        /// value Tencent documents); read, type-checked as an integer, and otherwise ignored.
        case downloadFlag
    }

    /// The REST key, exactly as Tencent spells it.
    let key: String
    /// The model field's proto name (`data_size`), for error paths and the mapping table.
    let model: String
    let kind: Kind
    /// Whether input must have the key (`missing_field` otherwise). Output always has every key.
    let required: Bool

    static func string(_ key: String, _ model: String, _ path: WritableKeyPath<Content, String> & Sendable, required: Bool = false) -> Self {
        Self(key: key, model: model, kind: .string(path), required: required)
    }

    static func utf8Bytes(_ key: String, _ model: String, _ path: WritableKeyPath<Content, [UInt8]> & Sendable, required: Bool = false) -> Self {
        Self(key: key, model: model, kind: .utf8Bytes(path), required: required)
    }

    static func uint64(_ key: String, _ model: String, _ path: WritableKeyPath<Content, UInt64> & Sendable, required: Bool = false) -> Self {
        Self(key: key, model: model, kind: .uint64(path), required: required)
    }

    static func uint32(_ key: String, _ model: String, _ path: WritableKeyPath<Content, UInt32> & Sendable, required: Bool = false) -> Self {
        Self(key: key, model: model, kind: .uint32(path), required: required)
    }

    static func int32(_ key: String, _ model: String, _ path: WritableKeyPath<Content, Int32> & Sendable, required: Bool = false) -> Self {
        Self(key: key, model: model, kind: .int32(path), required: required)
    }

    static func double(_ key: String, _ model: String, _ path: WritableKeyPath<Content, Double> & Sendable, required: Bool = false) -> Self {
        Self(key: key, model: model, kind: .double(path), required: required)
    }

    static func downloadFlag(_ key: String) -> Self {
        Self(key: key, model: "", kind: .downloadFlag, required: false)
    }
}

/// The value every download flag is written with: "the content can be downloaded from the URL".
let timRESTDownloadFlag = 2

/// The key list of one flat content type and the table that finds a key's slot (its index in
/// ``fields``).
struct TIMRESTContentTable<Content>: Sendable {
    let fields: [TIMRESTField<Content>]
    let keys: TIMRESTKeyTable

    /// `object` names it in messages: `a TIMTextElem's MsgContent`.
    /// The slots of the required keys, as bits.
    let required: UInt32

    init(_ fields: [TIMRESTField<Content>], object: String) {
        self.fields = fields
        self.keys = TIMRESTKeyTable(fields.map(\.key), object: object)
        self.required = fields.enumerated().reduce(0) { $0 | ($1.element.required ? 1 << UInt32($1.offset) : 0) }
    }
}
