import IMWireCore
import IMWireJSONText

/// A TUIKit custom message payload: the JSON object TUIKit puts in a custom elem's `data`
/// (Tencent Cloud IM, TUIKit guide "Custom Message", "How to Send a Custom Message"). Its
/// `businessID` names the kind of message — TUIKit finds the cell that draws it by that ID — and the
/// other members are the message's business fields, such as `text` and `link` for the guide's
/// `custom_message_link`.
///
/// Reading keeps every member, known or not, in order, and every number as it was written
/// (`101`, `2.5e3`); writing gives the same members back, `businessID` first:
///
/// ```swift
/// let payload = try TUIKitCustomPayload(jsonUTF8Bytes: customElem.data)
/// if payload.businessID == TUIKitLinkMessage.businessID { … }
/// payload.version                        // TUIKit's built-in messages carry an integer version
/// payload[field: "text"]?.stringValue    // a business field
///
/// var card = TUIKitCustomPayload(businessID: "order_card", version: 1)
/// card[field: "orderId"] = .string("A1024")
/// let elem = try CustomElem(tuikitPayload: card, desc: "[Order]")
/// ```
///
/// The reader accepts exactly one JSON object (RFC 8259, UTF-8) holding a non-empty string
/// `businessID`, with no key twice in any object, nested at most `maxDepth` arrays and objects
/// deep; it takes time and memory linear in the input. Errors are ``IMWireError``s: JSON errors
/// with the byte offset (`json_syntax`, `duplicate_key`, `invalid_utf8`, `invalid_escape`,
/// `depth_limit_exceeded`), `invalid_value` for a top level that is not an object, and
/// `missing_field` / `invalid_value` at path `businessID`.
public struct TUIKitCustomPayload: Hashable, Sendable {
    /// The kind of custom message (`custom_message_link`); TUIKit requires it, unique per kind.
    public var businessID: String
    /// Every other member of the object, in order: `version` and the business fields.
    public var fields: [Member]

    /// One member of a JSON object: its name and value.
    public struct Member: Hashable, Sendable {
        public var name: String
        public var value: Value

        public init(_ name: String, _ value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// The deepest nesting of arrays and objects read by default, the payload's own object
    /// included.
    public static let defaultMaxDepth = 100

    /// A payload of kind `businessID` with `fields`; `version`, when given, becomes the first field.
    public init(businessID: String, version: Int? = nil, fields: [Member] = []) {
        self.businessID = businessID
        self.fields = fields
        if let version { self.version = version }
    }

    /// The integer `version` TUIKit's built-in custom messages carry beside `businessID` (the
    /// guide's own example has none); `nil` when there is no `version` member or it is not an
    /// integer (the member is kept either way). Setting it replaces the member's value, or adds it
    /// as the first field; `nil` removes it.
    public var version: Int? {
        get {
            guard case .number(let number)? = self[field: "version"] else { return nil }
            return number.int64Value.flatMap(Int.init(exactly:))
        }
        set { self[field: "version"] = newValue.map { .number(Number($0)) } }
    }

    /// The value of the first field named `name`, or `nil`. Setting a value replaces that field's
    /// value (in place) or appends a field; setting `nil` removes every field of that name.
    /// `businessID` is not a field: use ``businessID``.
    public subscript(field name: String) -> Value? {
        get { fields.first { $0.name == name }?.value }
        set {
            guard let newValue else {
                fields.removeAll { $0.name == name }
                return
            }
            if let index = fields.firstIndex(where: { $0.name == name }) {
                fields[index].value = newValue
            } else if name == "version" {
                fields.insert(Member(name, newValue), at: 0)
            } else {
                fields.append(Member(name, newValue))
            }
        }
    }

    // MARK: - Reading

    /// Reads a payload from the JSON in `bytes` (a custom elem's `data`), in place when the
    /// collection has contiguous storage.
    public init<Bytes: Collection>(jsonUTF8Bytes bytes: Bytes, maxDepth: Int = TUIKitCustomPayload.defaultMaxDepth)
        throws(IMWireError) where Bytes.Element == UInt8
    {
        self = try withContiguousBytes(bytes) { (buffer) throws(IMWireError) in
            try TUIKitPayloadReader.read(buffer, maxDepth: maxDepth)
        }
    }

    // MARK: - Writing

    /// The payload as compact JSON: `{"businessID":…}` and then the fields in order, strings
    /// escaped as in proto3 JSON (only `"`, `\` and U+0000–U+001F), numbers as written.
    ///
    /// Throws `invalid_value` (at `businessID`) for an empty `businessID`, `duplicate_key` for a
    /// name twice in one object (the reader would refuse the output), and `depth_limit_exceeded`
    /// for values nested past what the thread's stack holds.
    public func jsonUTF8Bytes() throws(IMWireError) -> [UInt8] {
        guard !businessID.isEmpty else { throw .emptyTUIKitBusinessID() }
        var writer = TUIKitPayloadWriter()
        try writer.writeObject([Member("businessID", .string(businessID))] + fields, depth: 1, path: "")
        return writer.bytes
    }

    // MARK: - Validation

    /// Why `data` is not a TUIKit payload — `not_json`, `not_an_object` or `no_business_id`, with a
    /// sentence — or `nil` when it is one. Checks the JSON without building the payload, at any depth.
    @usableFromInline package static func problem(inCustomData data: [UInt8]) -> (code: String, reason: String)? {
        data.withUnsafeBufferPointer { buffer in
            let tape: JSONTape
            do throws(IMWireError) {
                tape = try JSONTape(buffer, maxDepth: .max)
            } catch {
                return ("not_json", "the data is not JSON: \(error.reason)")
            }
            guard tape[0].kind == .object else {
                return ("not_an_object", "the data is JSON but \(TUIKitPayloadReader.describe(tape[0].kind)), not an object")
            }
            for (key, value) in tape.members(of: 0) where tape.string(key) == "businessID" {
                guard tape[value].kind == .string else {
                    return ("no_business_id", "businessID is \(TUIKitPayloadReader.describe(tape[value].kind)), not a string")
                }
                return tape[value].start == tape[value].end ? ("no_business_id", IMWireError.emptyTUIKitBusinessIDReason) : nil
            }
            return ("no_business_id", "the object has no businessID")
        }
    }
}

extension CustomElem {
    /// A custom elem whose `data` is `payload`'s JSON (``TUIKitCustomPayload/jsonUTF8Bytes()``), as
    /// TUIKit's `createCustomMessage` sends it; `desc` and `ext` are V2TIM's offline-push text and
    /// extension.
    public init(tuikitPayload payload: TUIKitCustomPayload, desc: String = "", ext: String = "", sound: String = "")
        throws(IMWireError)
    {
        self.init(data: try payload.jsonUTF8Bytes(), desc: desc, ext: ext, sound: sound)
    }

    /// `data` read as a TUIKit payload (``TUIKitCustomPayload/init(jsonUTF8Bytes:maxDepth:)``).
    public func tuikitPayload(maxDepth: Int = TUIKitCustomPayload.defaultMaxDepth) throws(IMWireError) -> TUIKitCustomPayload {
        try TUIKitCustomPayload(jsonUTF8Bytes: data, maxDepth: maxDepth)
    }
}
