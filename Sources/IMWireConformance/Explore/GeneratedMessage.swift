import IMWire

/// A message the generative mode made up: what it means — its fields and unknown fields, walked from
/// the schema's field table — and how each part is written on the wire and in JSON (the styles), with
/// at most one deliberate corruption (a ``Flaw``) somewhere in the case.
///
/// The meaning and the writing are kept apart on purpose: every style is meaning-preserving by
/// construction (a varint padded to 10 bytes, a sub-message sent in parts that merge, an earlier
/// occurrence that the last one overrides), so the expected answer is always the plain writing of the
/// meaning, whatever styles are on. A shrinker can drop fields, simplify values and turn styles off
/// one at a time, and the expectation follows.
struct GeneratedMessage {
    /// The message type.
    var schema: MessageSchema
    /// The known fields, one entry per field number, in field-number order. A singular scalar may
    /// hold its default (proto3: absent), which the input still writes.
    var fields: [GeneratedField]
    /// The unknown fields, in the order they are read. A field whose number the schema knows is one
    /// sent with another wire type (kept as an unknown field, ``FlawKind/wrongWireType``).
    var unknownFields: [UnknownFieldValue]
    /// How the message as a whole is written.
    var style = MessageStyle()
    /// A corruption of the message as a whole.
    var flaw: Flaw?

    init(schema: MessageSchema, fields: [GeneratedField] = [], unknownFields: [UnknownFieldValue] = []) {
        self.schema = schema
        self.fields = fields
        self.unknownFields = unknownFields
    }

    /// The field table entry of `field`.
    func info(_ field: GeneratedField) -> FieldSchema {
        schema.field(number: field.number)!
    }
}

/// How a message is written, beyond its fields.
struct MessageStyle {
    /// Members in a random order (binary: occurrences, keeping the order of occurrences of one field,
    /// of one oneof and of the unknown fields; JSON: keys). `nil`: field-number order.
    var order: UInt64?
    /// JSON: `"name": null` members for some absent fields (proto3 JSON: null is absent).
    var jsonNulls: UInt64?
    /// JSON: members with keys the schema does not have, sent with `json_ignore_unknown_fields`.
    var jsonUnknownKeys: UInt64?
    /// JSON: spaces, tabs, carriage returns and line feeds between tokens.
    var whitespace: UInt64?

    var isPlain: Bool { order == nil && jsonNulls == nil && jsonUnknownKeys == nil && whitespace == nil }
}

/// One known field of a ``GeneratedMessage``.
struct GeneratedField {
    /// The field number.
    var number: Int
    /// Its value.
    var value: FieldValue
    /// How it is written in binary.
    var binary = BinaryStyle()
    /// How it is written in JSON.
    var json = JSONStyle()
    /// A corruption of this field.
    var flaw: Flaw?
}

/// The value of a field, by the shape the schema gives it.
enum FieldValue {
    /// `uint64`, `uint32`, `bool`, `int32` and enums: the varint value (`int32` and enum values
    /// sign-extended to 64 bits, as the wire writes them).
    case varint(UInt64)
    case double(Double)
    /// `string` (valid UTF-8; a flaw may break it on the wire) or `bytes`.
    case text([UInt8])
    case message(GeneratedMessage)
    /// `repeated string`.
    case texts([[UInt8]])
    /// `repeated` message.
    case messages([GeneratedMessage])
    /// `map<string, bytes>`; the keys are distinct.
    case map([MapEntryValue])
}

/// One entry of a `map<string, bytes>` field.
struct MapEntryValue {
    var key: [UInt8]
    var value: [UInt8]
}

/// How a field's occurrences are written in binary. Every choice keeps the meaning.
struct BinaryStyle {
    /// Extra bytes of every tag of the field (zero-valued continuation groups); the tag stays within
    /// 5 bytes.
    var tagPadding = 0
    /// Varint fields: the length of every value's varint, up to 10 (0: minimal). Length-delimited
    /// fields: extra bytes of every length prefix, which stays within 5 bytes.
    var valueLength = 0
    /// Occurrences before the real one that it overrides: an earlier value of a scalar (last one
    /// wins), another member of the oneof in between (a oneof switch: the last member replaces the
    /// earlier ones, it is not merged with them), earlier entries with the same map key.
    var earlier: UInt64?
    /// A singular sub-message sent as two occurrences that merge into it.
    var split: UInt64?
    /// Another varint spelling of the same value: a bool as any non-zero varint, a negative int32 or
    /// enum as a 5-byte (32-bit) varint, an int32 with bits above 32 set.
    var numberForm: UInt64?
    /// Map entries: value before key, a default key or value left out, a key written twice inside
    /// the entry.
    var entries: UInt64?

    var isPlain: Bool {
        tagPadding == 0 && valueLength == 0 && earlier == nil && split == nil && numberForm == nil && entries == nil
    }
}

/// How a field is written in proto3 JSON. Every choice keeps the meaning.
struct JSONStyle {
    /// The proto name (`msg_id`) instead of the JSON name (`msgId`).
    var protoName = false
    /// Some characters of the key written as `\u` escapes.
    var keyEscapes: UInt64?
    /// The spelling of the value: numbers as strings, in exponent or fraction form; enums by number;
    /// bytes in another base64 alphabet or without padding; strings with escapes.
    var form: UInt64?

    var isPlain: Bool { !protoName && keyEscapes == nil && form == nil }
}

/// An unknown field: a number and a wire value, written byte for byte as chosen.
struct UnknownFieldValue {
    var number: UInt64
    var content: UnknownContent
}

/// The value of an unknown field, by wire type.
indirect enum UnknownContent {
    /// Wire type 0; `length` is the varint's length in bytes (0: minimal), kept byte for byte.
    case varint(UInt64, length: Int)
    /// Wire type 1.
    case fixed64(UInt64)
    /// Wire type 2.
    case bytes([UInt8])
    /// Wire type 3, ended by the matching end-group tag.
    case group([UnknownFieldValue])
    /// Wire type 5.
    case fixed32(UInt32)

    var wireType: UInt8 {
        switch self {
        case .varint: 0
        case .fixed64: 1
        case .bytes: 2
        case .group: 3
        case .fixed32: 5
        }
    }
}

extension FieldSchema.Kind {
    /// The wire type a field of this kind is written with.
    var wireType: UInt8 {
        switch self {
        case .string, .bytes, .message, .stringToBytesMap: 2
        case .uint64, .uint32, .int32, .bool, .enumeration: 0
        case .double: 1
        }
    }

    var isVarint: Bool { wireType == 0 }
}
