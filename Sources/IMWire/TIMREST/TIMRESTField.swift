/// One key of a Tencent REST `MsgContent` object and the model field it maps to.
///
/// A content type lists its keys once, in Tencent's documented order (``TIMRESTContent``), and both
/// directions follow from that list: the reader looks each key up, the writer writes every key in
/// list order — so the REST key table in README "tim-rest" and the code cannot drift apart.
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

extension TIMRESTField {
    /// Reads this key of `object` into `content`.
    func read(from object: TIMRESTObject, into content: inout Content, what: String) throws(IMWireError) {
        let need = required ? what : nil
        switch kind {
        case .string(let path):
            if let value = try object.string(key, required: need) { content[keyPath: path] = value }
        case .utf8Bytes(let path):
            if let value = try object.string(key, required: need) { content[keyPath: path] = Array(value.utf8) }
        case .uint64(let path):
            if let value = try object.unsigned(key, required: need) { content[keyPath: path] = value }
        case .uint32(let path):
            if let value = try object.unsigned(key, max: UInt64(UInt32.max), required: need) {
                content[keyPath: path] = UInt32(value)
            }
        case .int32(let path):
            if let value = try object.int32(key, required: need) { content[keyPath: path] = value }
        case .double(let path):
            if let value = try object.double(key, required: need) { content[keyPath: path] = value }
        case .downloadFlag:
            _ = try object.unsigned(key)
        }
    }

    /// The JSON value of this key for `content`; `not_representable` (at `path.model`) for bytes
    /// that are not UTF-8 and doubles that are not finite. `path` is the content's model path.
    func value(of content: Content, path: @autoclosure () -> String) throws(IMWireError) -> JSONValue {
        switch kind {
        case .string(let keyPath):
            return .string(content[keyPath: keyPath])
        case .utf8Bytes(let keyPath):
            return .string(try timRESTString(utf8: content[keyPath: keyPath], path: path() + "." + model))
        case .uint64(let keyPath):
            return .number(String(content[keyPath: keyPath]))
        case .uint32(let keyPath):
            return .number(String(content[keyPath: keyPath]))
        case .int32(let keyPath):
            return .number(String(content[keyPath: keyPath]))
        case .double(let keyPath):
            return try timRESTNumber(content[keyPath: keyPath], path: path() + "." + model)
        case .downloadFlag:
            return .number(String(timRESTDownloadFlag))
        }
    }
}

/// `bytes` as a REST string: their UTF-8, or `not_representable` when they are not UTF-8.
func timRESTString(utf8 bytes: [UInt8], path: String) throws(IMWireError) -> String {
    guard let string = String(validating: bytes, as: UTF8.self) else {
        throw IMWireError(
            code: .notRepresentable,
            reason: "Tencent REST carries these \(bytes.count) bytes as a JSON string, but they are not valid UTF-8",
            path: path)
    }
    return string
}

/// A finite double as a JSON number in shortest round-trip form; `not_representable` for NaN and ±∞.
func timRESTNumber(_ value: Double, path: String) throws(IMWireError) -> JSONValue {
    guard value.isFinite else {
        throw IMWireError(code: .notRepresentable, reason: "JSON numbers cannot be \(value)", path: path)
    }
    return .number(value.description)
}
