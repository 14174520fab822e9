/// One field of a ``MessageSchema``.
@usableFromInline package struct FieldSchema: Sendable {
    @usableFromInline package enum Kind: Sendable {
        case string, bytes, uint64, uint32, int32, bool, double
        case enumeration(EnumSchema)
        case message(@Sendable () -> MessageSchema)
        /// `map<string, bytes>`.
        case stringToBytesMap
    }

    @usableFromInline package let number: Int
    /// The proto name (`msg_id`).
    @usableFromInline package let name: String
    @usableFromInline package let kind: Kind
    @usableFromInline package let isRepeated: Bool
    /// The oneof this field belongs to (`target`, `content`), if any.
    @usableFromInline package let oneof: String?
    /// The Swift property (or oneof case) name (`msgID`), for debug descriptions.
    @usableFromInline package let swiftName: String

    @usableFromInline package init(_ number: Int, _ name: String, _ kind: Kind, repeated: Bool = false, oneof: String? = nil, swift: String? = nil) {
        self.number = number
        self.name = name
        self.kind = kind
        self.isRepeated = repeated
        self.oneof = oneof
        self.swiftName = swift ?? name
    }
}
