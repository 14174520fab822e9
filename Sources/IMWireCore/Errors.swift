// `IMWireError.Code`: the stable codes. The error type itself and the factories that build it are in
// IMWireError+Factories.swift, the one file that can call its initialiser.

extension IMWireError {
    /// The stable, machine-readable kind of error. Its ``name`` (for example `truncated`) is part of
    /// the conformance contract and of the CLI's `error: CODE: …` line.
    public struct Code: StableCode {
        // A private enum behind a struct, so adding codes never breaks API (swift-asn1's pattern).
        private enum Backing: String, Hashable, Sendable, CaseIterable {
            case truncated = "truncated"
            case varintTooLong = "varint_too_long"
            case invalidFieldNumber = "invalid_field_number"
            case invalidWireType = "invalid_wire_type"
            case malformedGroup = "malformed_group"
            case lengthOutOfBounds = "length_out_of_bounds"
            case invalidUTF8 = "invalid_utf8"
            case depthLimitExceeded = "depth_limit_exceeded"
            case inputTooLarge = "input_too_large"
            case jsonSyntax = "json_syntax"
            case duplicateKey = "duplicate_key"
            case oneofConflict = "oneof_conflict"
            case unknownField = "unknown_field"
            case invalidEscape = "invalid_escape"
            case invalidNumber = "invalid_number"
            case numberOutOfRange = "number_out_of_range"
            case invalidBase64 = "invalid_base64"
            case invalidValue = "invalid_value"
            case missingField = "missing_field"
            case unknownMsgType = "unknown_msg_type"
            case notRepresentable = "not_representable"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The input ends inside a tag, a varint, a fixed-width value or a length-delimited value.
        public static let truncated = Code(.truncated)
        /// A varint runs past 10 bytes.
        public static let varintTooLong = Code(.varintTooLong)
        /// A tag carries field number 0 or a number above 2^29 - 1.
        public static let invalidFieldNumber = Code(.invalidFieldNumber)
        /// A tag carries wire type 6 or 7, which protobuf does not define.
        public static let invalidWireType = Code(.invalidWireType)
        /// An end-group tag without a matching start, with another field number, or a group that is
        /// never closed before its enclosing message ends.
        public static let malformedGroup = Code(.malformedGroup)
        /// A length prefix claims more bytes than the input (or the enclosing message) still holds.
        public static let lengthOutOfBounds = Code(.lengthOutOfBounds)
        /// A string field (or map key) holds bytes that are not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// Messages are nested deeper than ``BinaryDecodingOptions/maxDepth`` (or the encoder's limit).
        public static let depthLimitExceeded = Code(.depthLimitExceeded)
        /// The input is larger than ``BinaryDecodingOptions/maxInputSize``.
        public static let inputTooLarge = Code(.inputTooLarge)

        /// JSON that is not well-formed: an unexpected character, a missing `:` or `,`, a trailing
        /// comma, an unterminated string, a control character inside a string, data after the value.
        public static let jsonSyntax = Code(.jsonSyntax)
        /// A JSON object names the same field twice (also as `msgId` and `msg_id`).
        public static let duplicateKey = Code(.duplicateKey)
        /// Two members of one oneof (`receiver` and `groupId`, two elem kinds) are both set.
        public static let oneofConflict = Code(.oneofConflict)
        /// A JSON key that is not a field of the message (unless unknown fields are ignored).
        public static let unknownField = Code(.unknownField)
        /// A malformed `\` escape, or a `\u` escape that is a lone UTF-16 surrogate.
        public static let invalidEscape = Code(.invalidEscape)
        /// A number that is malformed for its field: a fraction for an integer field, a numeric
        /// string that is not a number.
        public static let invalidNumber = Code(.invalidNumber)
        /// A number outside its field's range (uint32, int32, uint64, finite double).
        public static let numberOutOfRange = Code(.numberOutOfRange)
        /// A bytes field whose string is not base64 (standard or URL-safe, padded or not).
        public static let invalidBase64 = Code(.invalidBase64)
        /// A JSON value of the wrong type for its field (a string for a bool, an object for a
        /// string), an enum name the schema does not know, a `null` inside an array.
        public static let invalidValue = Code(.invalidValue)

        /// Tencent REST (tim-rest) input lacks a key it must have: `MsgBody` in an envelope,
        /// `MsgType` or `MsgContent` in an element, an element's defining key (`Text`, `UUID`, …).
        public static let missingField = Code(.missingField)
        /// A tim-rest element whose `MsgType` is not one Tencent documents (`TIMTextElem`, …).
        public static let unknownMsgType = Code(.unknownMsgType)
        /// A value the target format cannot carry: an elem kind or field Tencent REST has no key for
        /// (group tips, a sound format, a sub-second timestamp), bytes that are not UTF-8 where REST
        /// needs a string, a number beyond REST's range (a random above 2^32 - 1).
        public static let notRepresentable = Code(.notRepresentable)

        /// The stable snake_case name, for example `length_out_of_bounds`.
        public var name: String { backing.rawValue }

        /// Every code this version of the library can produce, in a stable order.
        public static let all: [Code] = Backing.allCases.map(Code.init)
    }
}
