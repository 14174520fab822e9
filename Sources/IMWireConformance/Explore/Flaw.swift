import IMWire

/// A deliberate corruption placed at one spot of a generated case: its class and a number that fixes
/// its details (where a cut falls, which invalid UTF-8 sequence is used, …).
struct Flaw {
    var kind: FlawKind
    var variant: UInt64
}

/// The classes of corruption the generative mode makes, each tied to the golden case it generalises
/// (``exemplar``): the level of that case in the fixture manifest decides the level of the generated
/// tests, so a level changed in `Fixtures/sources/` changes the verdicts here too. The classes where
/// a correct runtime may answer more than one way follow the guide's written principles instead
/// (``JudgingRule``).
enum FlawKind: String, CaseIterable, Sendable {
    // Binary, on the last occurrence of a field.
    case truncated
    case varintTooLongTag = "varint_too_long_tag"
    case varintTooLongValue = "varint_too_long_value"
    case varintTooLongLength = "varint_too_long_length"
    case wireType6 = "wire_type_6"
    case wireType7 = "wire_type_7"
    case length2Pow31 = "length_2_pow_31"
    case length4GB = "length_4gb"
    case lengthAbove32Bits = "length_above_32_bits"
    case length2Pow63 = "length_2_pow_63"
    case length2Pow64Minus1 = "length_2_pow_64_minus_1"
    case tagOverlong = "tag_overlong"
    case lengthOverlong = "length_overlong"
    case invalidUTF8 = "invalid_utf8"
    // Binary, in a message.
    case fieldNumberZero = "field_number_zero"
    case fieldNumber2Pow29 = "field_number_2_pow_29"
    case fieldNumberTagAbove32Bits = "field_number_tag_above_32_bits"
    case endGroupWithoutStart = "end_group_without_start"
    case groupUnclosed = "group_unclosed"
    case endGroupMismatched = "end_group_mismatched"
    /// Binary: a known field number sent with another wire type. Not stored as a ``Flaw``: it is an
    /// unknown field of the message whose number the schema knows.
    case wrongWireType = "wrong_wire_type"

    // JSON, on a field's value.
    case jsonNumberLeadingZero = "json_number_leading_zero"
    case jsonNumberLeadingPlus = "json_number_leading_plus"
    case jsonNumberLeadingDot = "json_number_leading_dot"
    case jsonNumberTrailingDot = "json_number_trailing_dot"
    case jsonNumberDoubleMinus = "json_number_double_minus"
    case jsonNumberExponentWithoutDigits = "json_number_exponent_without_digits"
    case jsonNumberHex = "json_number_hex"
    case jsonArrayForString = "json_array_for_string"
    case jsonNumberForString = "json_number_for_string"
    case jsonBoolForString = "json_bool_for_string"
    case jsonObjectForString = "json_object_for_string"
    case jsonStringForMessage = "json_string_for_message"
    case jsonArrayForMessage = "json_array_for_message"
    case jsonObjectForRepeated = "json_object_for_repeated"
    case jsonStringForRepeated = "json_string_for_repeated"
    case jsonStringForMessageElement = "json_string_for_message_element"
    case jsonNestedArrayForRepeatedString = "json_nested_array_for_repeated_string"
    case jsonNumberForBool = "json_number_for_bool"
    case jsonBoolForInteger = "json_bool_for_integer"
    case jsonArrayForInteger = "json_array_for_integer"
    case jsonObjectForDouble = "json_object_for_double"
    case jsonObjectForEnum = "json_object_for_enum"
    case jsonArrayForMap = "json_array_for_map"
    case jsonNumberForBytes = "json_number_for_bytes"
    case jsonInt32AboveMax = "json_int32_above_max"
    case jsonUInt32OutOfRange = "json_uint32_out_of_range"
    case jsonUInt32Negative = "json_uint32_negative"
    case jsonUInt64Negative = "json_uint64_negative"
    case jsonUInt64OutOfRangeString = "json_uint64_out_of_range_string"
    case jsonIntegerFraction = "json_integer_fraction"
    case jsonIntegerFractionString = "json_integer_fraction_string"
    case jsonEnumUnknownName = "json_enum_unknown_name"
    case jsonEnumNameLowercase = "json_enum_name_lowercase"
    case jsonBase64InvalidCharacter = "json_base64_invalid_character"
    case jsonBase64OneChar = "json_base64_one_char"
    case jsonBase64PaddingInMiddle = "json_base64_padding_in_middle"
    case jsonEscapeUShort = "json_escape_u_short"
    case jsonEscapeUNonHex = "json_escape_u_non_hex"
    case jsonEscapeUnknownLetter = "json_escape_unknown_letter"
    case jsonLoneHighSurrogate = "json_lone_high_surrogate"
    case jsonLoneLowSurrogate = "json_lone_low_surrogate"
    case jsonRawTabInString = "json_raw_tab_in_string"
    case jsonRawControlInKey = "json_raw_control_in_key"
    case jsonStringForBool = "json_string_for_bool"
    case jsonNullInRepeated = "json_null_in_repeated"
    case jsonTrailingCommaArray = "json_trailing_comma_array"
    case jsonNaNLiteral = "json_nan_literal"
    case jsonOneofTwoMembers = "json_oneof_two_members"
    case jsonDuplicateKey = "json_duplicate_key"
    case jsonInvalidUTF8 = "json_invalid_utf8"
    case jsonBeyondDoublePrecision = "json_beyond_double_precision"
    // JSON, in a message.
    case jsonMissingColon = "json_missing_colon"
    case jsonMissingComma = "json_missing_comma"
    case jsonTrailingCommaObject = "json_trailing_comma_object"
    case jsonUnknownField = "json_unknown_field"
    case jsonCommentInObject = "json_comment_in_object"
    // JSON, the whole document.
    case jsonUnterminated = "json_unterminated"
    case jsonEmpty = "json_empty"
    case jsonTopLevelArray = "json_top_level_array"
    case jsonTopLevelNumber = "json_top_level_number"
    case jsonLeadingJunk = "json_leading_junk"
    case jsonTrailingGarbage = "json_trailing_garbage"
    case jsonTrailingSecondObject = "json_trailing_second_object"
    case jsonLeadingBOM = "json_leading_bom"

    /// The input format it corrupts.
    var input: TestName.Input {
        rawValue.hasPrefix("json_") ? .json : .binary
    }

    /// The golden case of the same class in `Fixtures/manifest.json`.
    var exemplar: String {
        switch self {
        case .truncated: "truncated_varint_top"
        case .varintTooLongTag: "varint_too_long_tag"
        case .varintTooLongValue: "varint_too_long_value"
        case .varintTooLongLength: "varint_too_long_length"
        case .wireType6: "wire_type_6"
        case .wireType7: "wire_type_7"
        case .length2Pow31: "length_2_pow_31"
        case .length4GB: "length_4gb"
        case .lengthAbove32Bits: "length_above_32_bits"
        case .length2Pow63: "length_2_pow_63"
        case .length2Pow64Minus1: "length_2_pow_64_minus_1"
        case .tagOverlong: "tag_overlong_6_bytes"
        case .lengthOverlong: "length_overlong_10_bytes"
        case .invalidUTF8: "utf8_byte_ff"
        case .fieldNumberZero: "field_number_zero"
        case .fieldNumber2Pow29: "field_number_2_pow_29"
        case .fieldNumberTagAbove32Bits: "field_number_tag_above_32_bits"
        case .endGroupWithoutStart: "end_group_without_start"
        case .groupUnclosed: "group_unclosed_at_end_of_input"
        case .endGroupMismatched: "end_group_mismatched"
        case .wrongWireType: "wrong_wire_type_top"
        case .jsonNumberLeadingZero: "n_number_leading_zero"
        case .jsonNumberLeadingPlus: "n_number_leading_plus"
        case .jsonNumberLeadingDot: "n_number_leading_dot"
        case .jsonNumberTrailingDot: "n_number_trailing_dot"
        case .jsonNumberDoubleMinus: "n_number_double_minus"
        case .jsonNumberExponentWithoutDigits: "n_number_exponent_without_digits"
        case .jsonNumberHex: "n_number_hex"
        case .jsonArrayForString: "n_array_for_string"
        case .jsonNumberForString: "n_number_for_string"
        case .jsonBoolForString: "n_bool_for_string"
        case .jsonObjectForString: "n_object_for_string"
        case .jsonStringForMessage: "n_string_for_message"
        case .jsonArrayForMessage: "n_empty_array_for_message"
        case .jsonObjectForRepeated: "n_object_for_repeated"
        case .jsonStringForRepeated: "n_string_for_repeated"
        case .jsonStringForMessageElement: "n_string_for_message_element"
        case .jsonNestedArrayForRepeatedString: "n_nested_array_for_repeated_string"
        case .jsonNumberForBool: "n_number_for_bool"
        case .jsonBoolForInteger: "n_bool_for_integer"
        case .jsonArrayForInteger: "n_array_for_integer"
        case .jsonObjectForDouble: "n_object_for_double"
        case .jsonObjectForEnum: "n_object_for_enum"
        case .jsonArrayForMap: "n_array_for_map"
        case .jsonNumberForBytes: "n_number_for_bytes"
        case .jsonInt32AboveMax: "n_int32_above_max"
        case .jsonUInt32OutOfRange: "n_uint32_out_of_range"
        case .jsonUInt32Negative: "n_uint32_negative"
        case .jsonUInt64Negative: "n_uint64_negative"
        case .jsonUInt64OutOfRangeString: "n_uint64_out_of_range_string"
        case .jsonIntegerFraction: "n_integer_fraction"
        case .jsonIntegerFractionString: "n_integer_fraction_string"
        case .jsonEnumUnknownName: "n_enum_unknown_name"
        case .jsonEnumNameLowercase: "n_enum_name_lowercase"
        case .jsonBase64InvalidCharacter: "n_base64_invalid_character"
        case .jsonBase64OneChar: "n_base64_one_char"
        case .jsonBase64PaddingInMiddle: "n_base64_padding_in_middle"
        case .jsonEscapeUShort: "n_escape_u_short"
        case .jsonEscapeUNonHex: "n_escape_u_non_hex"
        case .jsonEscapeUnknownLetter: "n_escape_unknown_letter"
        case .jsonLoneHighSurrogate: "n_lone_high_surrogate"
        case .jsonLoneLowSurrogate: "n_lone_low_surrogate"
        case .jsonRawTabInString: "n_raw_tab_in_string"
        case .jsonRawControlInKey: "n_raw_control_in_key"
        case .jsonStringForBool: "n_string_for_bool"
        case .jsonNullInRepeated: "n_null_in_repeated_string"
        case .jsonTrailingCommaArray: "n_trailing_comma_array"
        case .jsonNaNLiteral: "n_number_nan_literal"
        case .jsonOneofTwoMembers: "n_oneof_two_members"
        case .jsonDuplicateKey: "n_duplicate_key"
        case .jsonInvalidUTF8: "n_utf8_byte_ff"
        case .jsonBeyondDoublePrecision: "y_uint64_max_as_number"
        case .jsonMissingColon: "n_missing_colon"
        case .jsonMissingComma: "n_missing_comma"
        case .jsonTrailingCommaObject: "n_trailing_comma_object"
        case .jsonUnknownField: "n_unknown_field"
        case .jsonCommentInObject: "n_comment_in_object"
        case .jsonUnterminated: "n_unterminated_object"
        case .jsonEmpty: "n_empty_input"
        case .jsonTopLevelArray: "n_top_level_array"
        case .jsonTopLevelNumber: "n_top_level_number"
        case .jsonLeadingJunk: "n_leading_junk"
        case .jsonTrailingGarbage: "n_trailing_garbage"
        case .jsonTrailingSecondObject: "n_trailing_second_object"
        case .jsonLeadingBOM: "n_leading_bom"
        }
    }

    /// The golden case a flaw of this class on a field described by `info` generalises: the one
    /// made for that kind of field where the fixtures have one apart from ``exemplar`` (a reader may
    /// parse integers apart from doubles), else ``exemplar``. A generated case's failure is expected
    /// when the testee's list names this case at the same check (Docs/conformance.md).
    func exemplar(on info: FieldSchema) -> String {
        switch info.kind {
        case .uint64, .uint32, .int32: integerExemplar ?? exemplar
        default: exemplar
        }
    }

    /// The golden case of this class in an integer field, where it is not ``exemplar``.
    var integerExemplar: String? {
        switch self {
        case .jsonNumberExponentWithoutDigits: "n_number_exponent_without_digits_integer"
        default: nil
        }
    }

    /// How the answers to a case of this class are judged.
    var rule: JudgingRule {
        switch self {
        case .wrongWireType: .keptAsUnknownOrRejected
        case .invalidUTF8, .jsonInvalidUTF8: .invalidUTF8
        case .jsonBeyondDoublePrecision: .beyondDoublePrecision
        case .jsonEmpty: .emptyInput
        case .tagOverlong: .acceptedOrRejected(recommended: .rejected)
        case .lengthOverlong: .acceptedOrRejected(recommended: .accepted)
        default: .rejected
        }
    }

    /// Where a flaw of this kind sits.
    var placement: Placement {
        switch self {
        case .fieldNumberZero, .fieldNumber2Pow29, .fieldNumberTagAbove32Bits, .endGroupWithoutStart, .groupUnclosed,
            .endGroupMismatched, .jsonMissingColon, .jsonMissingComma, .jsonTrailingCommaObject, .jsonUnknownField,
            .jsonCommentInObject:
            .message
        case .jsonUnterminated, .jsonEmpty, .jsonTopLevelArray, .jsonTopLevelNumber, .jsonLeadingJunk,
            .jsonTrailingGarbage, .jsonTrailingSecondObject, .jsonLeadingBOM:
            .document
        case .wrongWireType:
            .unknownField
        default:
            .field
        }
    }

    enum Placement { case field, message, document, unknownField }

    /// Whether a flaw of this kind can sit on a field of `info` holding `value` (for field flaws).
    func fits(_ info: FieldSchema, _ value: FieldValue) -> Bool {
        let kind = info.kind
        let isString: Bool = if case .string = kind { true } else { false }
        let isBytes: Bool = if case .bytes = kind { true } else { false }
        let isMessage: Bool = if case .message = kind { true } else { false }
        let isMap: Bool = if case .stringToBytesMap = kind { true } else { false }
        let isEnum: Bool = if case .enumeration = kind { true } else { false }
        let isInteger: Bool = switch kind {
        case .uint64, .uint32, .int32: true
        default: false
        }
        let isDouble: Bool = if case .double = kind { true } else { false }
        let singular = !info.isRepeated && !isMap
        switch self {
        case .truncated, .varintTooLongTag, .wireType6, .wireType7, .tagOverlong:
            return true
        case .varintTooLongValue:
            return kind.isVarint
        case .varintTooLongLength, .length2Pow31, .length4GB, .lengthAbove32Bits, .length2Pow63, .length2Pow64Minus1,
            .lengthOverlong:
            return kind.wireType == 2
        case .invalidUTF8:
            return isString || isMap
        case .jsonNumberLeadingZero, .jsonNumberLeadingPlus, .jsonNumberTrailingDot, .jsonNumberDoubleMinus,
            .jsonNumberExponentWithoutDigits, .jsonNumberHex:
            return isInteger || isDouble
        case .jsonNumberLeadingDot, .jsonObjectForDouble, .jsonNaNLiteral:
            return isDouble
        case .jsonArrayForString, .jsonNumberForString, .jsonBoolForString, .jsonObjectForString, .jsonEscapeUShort,
            .jsonEscapeUNonHex, .jsonEscapeUnknownLetter, .jsonLoneHighSurrogate, .jsonLoneLowSurrogate, .jsonRawTabInString:
            return isString && singular
        case .jsonInvalidUTF8:
            return isString || isMap
        case .jsonStringForMessage, .jsonArrayForMessage:
            return isMessage && singular
        case .jsonObjectForRepeated, .jsonStringForRepeated, .jsonNullInRepeated, .jsonTrailingCommaArray:
            return info.isRepeated
        case .jsonStringForMessageElement:
            return isMessage && info.isRepeated
        case .jsonNestedArrayForRepeatedString:
            return isString && info.isRepeated
        case .jsonNumberForBool, .jsonStringForBool:
            if case .bool = kind { return true }
            return false
        case .jsonBoolForInteger, .jsonArrayForInteger, .jsonIntegerFraction, .jsonIntegerFractionString:
            return isInteger
        case .jsonObjectForEnum, .jsonEnumUnknownName, .jsonEnumNameLowercase:
            return isEnum
        case .jsonArrayForMap:
            return isMap
        case .jsonNumberForBytes, .jsonBase64InvalidCharacter, .jsonBase64OneChar, .jsonBase64PaddingInMiddle:
            return isBytes && singular
        case .jsonInt32AboveMax:
            if case .int32 = kind { return true }
            return false
        case .jsonUInt32OutOfRange, .jsonUInt32Negative:
            if case .uint32 = kind { return true }
            return false
        case .jsonUInt64Negative, .jsonUInt64OutOfRangeString, .jsonBeyondDoublePrecision:
            if case .uint64 = kind { return true }
            return false
        case .jsonOneofTwoMembers:
            return info.oneof != nil
        case .jsonDuplicateKey, .jsonRawControlInKey:
            return true
        default:
            return false
        }
    }
}

/// How the answer to a generated case is judged: the guide's level rules, as the golden cases apply
/// them.
enum JudgingRule: Equatable {
    /// No corruption: the meaning, Required; IMWire's canonical bytes, Recommended.
    case valid
    /// Rejected (`parse_error`), at the level of the class's golden case. A Recommended rejection
    /// leaves any answer Required (a lenient runtime reads the input its own way).
    case rejected
    /// Either answer is correct (Required: the meaning or `parse_error`); the `recommended` one is
    /// IMWire's choice, as the class's golden case records it.
    case acceptedOrRejected(recommended: Choice)
    /// A known field sent with another wire type: kept as an unknown field or rejected, both
    /// Required-correct; keeping it is Recommended (the guide's principle for wrong wire types).
    case keptAsUnknownOrRejected
    /// Invalid UTF-8 in a binary string, a JSON document or a skipped value: every answer a correct
    /// runtime gives is Required-correct (runtimes differ, the protobuf language guide leaves it to
    /// them); rejecting it is Recommended.
    case invalidUTF8
    /// A JSON number beyond double precision (a bare 64-bit integer above 2^53 that a double cannot
    /// hold): Required accepts the exact value, the value a double reads, or `parse_error` when
    /// that double is out of range; the exact value is Recommended.
    case beyondDoublePrecision
    /// Empty JSON input: the empty message or `parse_error` are both Required-correct; rejecting it
    /// is Recommended.
    case emptyInput

    enum Choice: Equatable { case accepted, rejected }
}
