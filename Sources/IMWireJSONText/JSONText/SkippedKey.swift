import IMWireCore

/// One key (or one value) of a decoded document that the message does not hold.
///
/// ``reason`` says why, ``path`` where (`MsgBody[0].MsgContent.Colour` in tim-rest,
/// `elems[0].text.colour` in proto3 JSON: the keys as the input spells them), ``suggestion`` the key
/// it was probably meant to be, and ``detail`` all of it in a sentence.
public struct SkippedKey: Hashable, Sendable, CustomStringConvertible {
    /// Why a key was skipped. Its ``name`` (`unknown_key`, …) is stable and is the code of the
    /// CLI's `warning: CODE: …` line; a struct over a private enum, so new reasons never break the
    /// API (as ``IMWireError/Code``).
    public struct Reason: StableCode {
        private enum Backing: String, Hashable, Sendable, CaseIterable {
            case unknownKey = "unknown_key"
            case unknownValue = "unknown_value"
            case noField = "no_field"
            case overridden = "overridden"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// A key the format does not have there: not a field of the schema (proto3 JSON), or not a
        /// key any Tencent page documents for that object (tim-rest) — a misspelling, an invented
        /// key, a key of the other JSON dialect.
        public static let unknownKey = Reason(.unknownKey)
        /// A value the format does not define where a known key has one: an enum name the schema
        /// does not know (proto3 JSON, read as the default), a `SendMsgControl` entry, a
        /// `CallbackCommand` IMWire has no key set for (tim-rest).
        public static let unknownValue = Reason(.unknownValue)
        /// A key (or value) Tencent documents that the model has no field for: callback metadata
        /// (`EventTime`), delivery controls (`SyncOtherMachine`, `MsgLifeTime` other than 0), vendor
        /// push channels, a download flag other than 2. Listed with the reason in
        /// Docs/tim-rest-keys.md.
        public static let noField = Reason(.noField)
        /// A second spelling or a redundant count that disagrees with the key that is read: `Random`
        /// next to a different `MsgRandom`, `MsgNum` next to a `MsgList` of another length,
        /// `GroupAt_Account` next to `GroupAtAllFlag` 1.
        public static let overridden = Reason(.overridden)

        /// The stable snake_case name, for example `unknown_key`.
        public var name: String { backing.rawValue }

        /// Every reason of this version, in a stable order.
        public static let all: [Reason] = Backing.allCases.map(Reason.init)

        /// Whether strict decoding (``TIMRESTDecodingOptions/rejectsUnknownKeys``, or proto3 JSON
        /// without ``JSONDecodingOptions/ignoreUnknownFields``) refuses the document instead: every
        /// reason but ``noField`` — a documented key the model leaves out is no mistake, and every
        /// real webhook body has some.
        public var isRefusedWhenStrict: Bool { backing != .noField }
    }

    /// Why it was skipped.
    public let reason: Reason
    /// The key as the input spells it (for a value: the key that holds it).
    public let key: String
    /// Where: the keys and indices from the root to the key (or value), as the input spells them,
    /// e.g. `MsgBody[0].MsgContent.Colour`, `SendMsgControl[2]`, `elems[0].image.images[0].type`.
    public let path: String
    /// The byte offset of the key (or value) in the input, when known: always for proto3 JSON; for
    /// tim-rest when the key is written without escapes.
    public let offset: Int?
    /// A key (or value) of that object that differs from ``key`` only by ASCII case or by
    /// underscores (`From_Account` for `From_account` or `FromAccount`), if there is one.
    public let suggestion: String?
    /// A sentence for people: what was skipped and why, with the ``suggestion``.
    public let detail: String

    /// A skipped key as the decoders report it.
    public init(reason: Reason, key: String, path: String, offset: Int?, suggestion: String?, detail: String) {
        self.reason = reason
        self.key = key
        self.path = path
        self.offset = offset
        self.suggestion = suggestion
        self.detail = detail
    }

    /// `REASON: detail (at PATH)` — the CLI's warning line after `warning: `.
    public var description: String { "\(reason.name): \(detail) (at \(path))" }
}
