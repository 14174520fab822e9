extension Message {
    /// Every way this message breaks `profile`'s limits or the always-on rules, in a
    /// stable order; empty when the message is valid.
    ///
    /// Decoding checks the wire format only; this is the separate, explicit step. It never throws
    /// and never changes the message. The always-on rules (location latitude in [-90, 90] and
    /// longitude in [-180, 180], both finite; at most one Image per ImageType) run for every
    /// profile, ``ValidationProfile/none`` included. Messages nested in merger elems are validated
    /// too, each against its own target.
    ///
    /// ```swift
    /// for violation in message.validate(profile: .tencent) {
    ///     print(violation.code.name, violation.path, violation.limit, violation.actual)
    /// }
    /// // content_too_large elems 12288 12301
    /// ```
    ///
    /// The order: within a message, `sender` and `receiver`, then the chain (`elems` as a whole,
    /// then each elem in order with its fields in field-number order and the messages of a merger,
    /// recursively), then `at_user_list`, then `targeted_receivers`.
    public func validate(profile: ValidationProfile) -> [Violation] {
        var validator = Validator(profile: profile)
        validator.validate(self)
        return validator.violations
    }

    /// The message's content size in bytes as Tencent counts it against its 12 KB limit (server
    /// error 80002; ``ValidationProfile/maxContentBytes``): the UTF-8 bytes of every string and the
    /// length of every bytes value inside the elems — sub-messages, repeated fields and maps
    /// included, and the elems of messages nested in merger elems counted the same way. Envelope
    /// fields (`msg_id`, `sender`, the target, `cloud_custom_data`, `offline_push_info`, the @ lists)
    /// and unknown fields count nothing.
    public var contentByteCount: Int {
        Int(clamping: ContentSize.of(self))
    }
}
