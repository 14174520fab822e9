/// The one place that lists where protobuf-c 1.4.1 knowingly differs from IMWire's canonical form
/// on the golden fixtures. Each reason names the behaviour's row in
/// `Sources/IMWireProtobufC/KNOWN_DIFFERENCES.md`. Tests require every listed fixture to really
/// differ, so an entry cannot outlive the difference it describes.
enum ProtobufCKnownDifferences {
    private static let emptyMapEntryField = "(g2) omits an empty key or value inside a map entry"
    private static let noGroups = "(c) refuses groups, also on unknown fields"
    private static let noUTF8Check = "(a) does not check UTF-8"

    /// Valid fixtures whose canonical bytes protobuf-c does not re-pack identically.
    static let validFixtures: [String: String] = [
        "group_member_custom_info_map": emptyMapEntryField,
        "map_entry_empty": emptyMapEntryField,
        "map_entry_missing_key": emptyMapEntryField,
        "map_entry_missing_value": emptyMapEntryField,
        "map_keys_prefix_order": emptyMapEntryField,
        "map_single_empty_key_and_value": emptyMapEntryField,
        "location_negative_zero": "(e) omits -0.0 as if it were the default",
        "unicode_nul": "(h) cuts strings at U+0000 (char *)",
        "unknown_all_wire_types_nested": noGroups,
        "unknown_group_empty": noGroups,
        "unknown_group_nested_90": noGroups,
        "unknown_group_top": noGroups,
        "unknown_group_on_known_field_elem_text": noGroups,
        "unknown_group_on_known_field_message_elems": noGroups,
        "unknown_group_on_known_field_message_msg_id": noGroups,
        "wrong_wire_type_text_as_varint": "(d) refuses a known field with another wire type",
        "wrong_wire_type_top": "(d) refuses a known field with another wire type",
    ]

    /// Invalid fixtures that protobuf-c accepts although IMWire (and the spec) reject them.
    static let invalidFixtures: [String: String] = [
        "field_number_2_pow_29": "(l) accepts field numbers from 2^29 to 2^32 - 1 as unknown",
        "field_number_tag_above_32_bits": "(l) accepts a 5-byte tag above 2^32 - 1 as an unknown field",
        "utf8_above_max_code_point": noUTF8Check,
        "utf8_byte_ff": noUTF8Check,
        "utf8_five_byte_sequence": noUTF8Check,
        "utf8_in_map_key": noUTF8Check,
        "utf8_in_merger_inner_message": noUTF8Check,
        "utf8_in_repeated_string": noUTF8Check,
        "utf8_in_text_elem": noUTF8Check,
        "utf8_lone_continuation": noUTF8Check,
        "utf8_overlong_c0_80": noUTF8Check,
        "utf8_overlong_three_byte": noUTF8Check,
        "utf8_split_across_fields": noUTF8Check,
        "utf8_surrogate": noUTF8Check,
        "utf8_truncated_sequence": noUTF8Check,
    ]
}
