import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// One way a message breaks a rule of a ``ValidationProfile``, as returned by
/// ``Message/validate(profile:)``.
///
/// A violation names the rule (``code``, stable across versions and part of the conformance
/// contract), where it was found (``path``, e.g. `elems[0].merger.messages[12].elems[0].text.text`),
/// the ``limit`` and the ``actual`` value, and a sentence for people (``reason``).
///
/// Paths use the proto field names of `Schemas/imwire/v1/message.proto`; an elem is followed by the
/// name of its `content` oneof member (`elems[2].image.images[0].size`), and a repeated field by the
/// index (`at_user_list[3]`). A rule about a whole list (counts, the chain) names the list itself
/// (`elems`, `at_user_list`).
public struct Violation: Hashable, Sendable, CustomStringConvertible {
    /// The stable, machine-readable name of a validation rule. Its ``name`` (for example
    /// `content_too_large`) is part of the conformance contract (the `validation_error` string of a
    /// conformance response starts with it) and of the `imwire validate` output.
    ///
    /// Units: sizes of strings are counted in UTF-8 bytes, except merger abstracts (UTF-16 code
    /// units, as the SDK counts); sizes of files are the byte counts carried in the message; counts
    /// are list entries; durations are seconds. 1 KB = 1024 bytes, 1 MB = 1024 × 1024 bytes.
    public struct Code: StableCode {
        // A private enum behind a struct, so adding codes never breaks API (swift-asn1's pattern,
        // as in IMWireError.Code).
        private enum Backing: String, Hashable, Sendable, CaseIterable {
            case elemChainEmpty = "elem_chain_empty"
            case contentTooLarge = "content_too_large"
            case elemNotAppendable = "elem_not_appendable"
            case elemNotStandalone = "elem_not_standalone"
            case tooManyElems = "too_many_elems"
            case tooManyCustomElems = "too_many_custom_elems"
            case tooManyImageElems = "too_many_image_elems"
            case tooManyFileElems = "too_many_file_elems"
            case tooManySoundElems = "too_many_sound_elems"
            case tooManyVideoElems = "too_many_video_elems"
            case textTooLarge = "text_too_large"
            case barrageTooLarge = "barrage_too_large"
            case customDataTooLarge = "custom_data_too_large"
            case imageTooLarge = "image_too_large"
            case soundTooLarge = "sound_too_large"
            case videoTooLarge = "video_too_large"
            case fileTooLarge = "file_too_large"
            case soundTooLong = "sound_too_long"
            case imageFormatNotAllowed = "image_format_not_allowed"
            case soundFormatNotAllowed = "sound_format_not_allowed"
            case videoFormatNotAllowed = "video_format_not_allowed"
            case tooManyMergerMessages = "too_many_merger_messages"
            case tooManyMergerAbstracts = "too_many_merger_abstracts"
            case mergerAbstractTooLong = "merger_abstract_too_long"
            case mergerNestingTooDeep = "merger_nesting_too_deep"
            case elemNotAllowedInMerger = "elem_not_allowed_in_merger"
            case atUsersRequireGroup = "at_users_require_group"
            case tooManyAtUsers = "too_many_at_users"
            case targetedReceiversRequireGroup = "targeted_receivers_require_group"
            case tooManyTargetedReceivers = "too_many_targeted_receivers"
            case atUsersWithTargetedReceivers = "at_users_with_targeted_receivers"
            case userIDTooLong = "user_id_too_long"
            case groupNameTooLong = "group_name_too_long"
            case groupIntroductionTooLong = "group_introduction_too_long"
            case groupNotificationTooLong = "group_notification_too_long"
            case groupFaceURLTooLong = "group_face_url_too_long"
            case latitudeOutOfRange = "latitude_out_of_range"
            case longitudeOutOfRange = "longitude_out_of_range"
            case duplicateImageType = "duplicate_image_type"
            case targetNotSupported = "target_not_supported"
            case priorityNotSupported = "priority_not_supported"
            case elemKindNotSupported = "elem_kind_not_supported"
            case atUsersRequireText = "at_users_require_text"
            case barrageRequiresRoom = "barrage_requires_room"
            case barrageRequiresText = "barrage_requires_text"
            case customDataNotTUIKit = "custom_data_not_tuikit"
            case platformNotRecognized = "platform_not_recognized"
            case signalNotStandalone = "signal_not_standalone"
            case signalTargetMismatch = "signal_target_mismatch"
            case signalMsgIDMissing = "signal_msg_id_missing"
            case signalNotAllowedInMerger = "signal_not_allowed_in_merger"
            case mergerKeyWithMessages = "merger_key_with_messages"
            case messageToSelf = "message_to_self"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        // MARK: Elem chain

        /// The message has no elem and carries no signal (`elems`, limit 1 = the fewest allowed).
        /// Profiles `tencent` and `zim`: neither vendor sends a message without content.
        public static let elemChainEmpty = Code(.elemChainEmpty)
        /// Message content is larger than ``ValidationProfile/maxContentBytes`` (`tencent`: 12 KB,
        /// Tencent server error 80002). Content = the UTF-8 bytes of every string and bytes field of
        /// every elem, nested merger messages included; reported once, at `elems` of the root.
        public static let contentTooLarge = Code(.contentTooLarge)
        /// An elem after the first is not one of ``ValidationProfile/appendableElemKinds``
        /// (`tencent-sdk`: text, custom, face, location — what V2TIM's `appendElem` adds; the server
        /// profile `tencent` accepts any kind there). Reported at the elem.
        public static let elemNotAppendable = Code(.elemNotAppendable)
        /// A group tips, group system or merger elem shares its chain with other elems (`tencent`:
        /// they stand alone). Reported at each such elem; limit 1 and actual = the chain length.
        public static let elemNotStandalone = Code(.elemNotStandalone)
        /// The chain has more elems than ``ValidationProfile/maxElems`` (`zim`: a "multiple" message
        /// holds ≤ 20 items).
        public static let tooManyElems = Code(.tooManyElems)
        /// An elem's kind is not in ``ValidationProfile/supportedElemKinds`` (`zim`: text, custom,
        /// image, sound, video, file — ZIM has no message type for location, face, merger, group tips
        /// or group system). Reported at the elem (`elems[2].location`; `elems[2]` with actual `none`
        /// for an elem without content).
        public static let elemKindNotSupported = Code(.elemKindNotSupported)
        /// More custom elems than ``ValidationProfile/maxCustomElems`` (`tencent` and `zim`: 1).
        public static let tooManyCustomElems = Code(.tooManyCustomElems)
        /// More image elems than ``ValidationProfile/maxImageElems`` (`zim` multiple: 10).
        public static let tooManyImageElems = Code(.tooManyImageElems)
        /// More file elems than ``ValidationProfile/maxFileElems`` (`zim` multiple: 1).
        public static let tooManyFileElems = Code(.tooManyFileElems)
        /// More sound elems than ``ValidationProfile/maxSoundElems`` (`zim` multiple: 1).
        public static let tooManySoundElems = Code(.tooManySoundElems)
        /// More video elems than ``ValidationProfile/maxVideoElems`` (`zim` multiple: 1).
        public static let tooManyVideoElems = Code(.tooManyVideoElems)

        // MARK: Elem content

        /// A text elem's `text` is larger than ``ValidationProfile/maxTextBytes`` in UTF-8 bytes
        /// (`zim`: 32 KB, ZIMTextMessage, in a room too). Not checked in a barrage (see
        /// ``barrageTooLarge``).
        public static let textTooLarge = Code(.textTooLarge)
        /// A text elem of a message with ``Message/barrage`` set is larger than
        /// ``ValidationProfile/maxBarrageBytes`` in UTF-8 bytes (`zim`: 5 KB, ZIMBarrageMessage).
        public static let barrageTooLarge = Code(.barrageTooLarge)
        /// A barrage (``Message/barrage``) whose target is not a room (`barrage`, limit `room_id`,
        /// actual the target). `zim`: ZIM's barrage is an in-room message type.
        public static let barrageRequiresRoom = Code(.barrageRequiresRoom)
        /// A barrage whose chain is not exactly one text elem (`barrage`, limit `text`, actual the
        /// chain's kinds, `text|image`; `none` for an empty chain). `zim`.
        public static let barrageRequiresText = Code(.barrageRequiresText)
        /// A custom elem's `data` is larger than ``ValidationProfile/maxCustomDataBytes`` (`zim`:
        /// 5 KB, ZIMCommandMessage).
        public static let customDataTooLarge = Code(.customDataTooLarge)
        /// An image's `size` is larger than ``ValidationProfile/maxImageBytes`` (`tencent`: 28 MB,
        /// SDK error 7005; `zim`: 10 MB). Checked for every Image of the elem.
        public static let imageTooLarge = Code(.imageTooLarge)
        /// A sound elem's `data_size` is larger than ``ValidationProfile/maxSoundBytes`` (`tencent`:
        /// 28 MB, SDK error 7005; `zim`: 6 MB).
        public static let soundTooLarge = Code(.soundTooLarge)
        /// A video elem's `video_size` is larger than ``ValidationProfile/maxVideoBytes`` (`tencent`:
        /// 100 MB, SDK error 7005; `zim`: 100 MB).
        public static let videoTooLarge = Code(.videoTooLarge)
        /// A file elem's `file_size` is larger than ``ValidationProfile/maxFileBytes`` (`tencent`:
        /// 100 MB, SDK error 7005; `zim`: 100 MB).
        public static let fileTooLarge = Code(.fileTooLarge)
        /// A sound elem's `duration` is longer than ``ValidationProfile/maxSoundSeconds`` (`zim`:
        /// 300 s).
        public static let soundTooLong = Code(.soundTooLong)
        /// An image elem's `format` is not in ``ValidationProfile/allowedImageFormats`` (`zim`: JPG,
        /// PNG, BMP, TIFF, GIF, WEBP; UNSPECIFIED and OTHER are not allowed).
        public static let imageFormatNotAllowed = Code(.imageFormatNotAllowed)
        /// A sound elem's `format` is not in ``ValidationProfile/allowedSoundFormats`` (`zim`: mp3,
        /// m4a; compared ignoring ASCII case; empty is not allowed).
        public static let soundFormatNotAllowed = Code(.soundFormatNotAllowed)
        /// A video elem's `video_format` is not in ``ValidationProfile/allowedVideoFormats`` (`zim`:
        /// mp4, mov; compared ignoring ASCII case; empty is not allowed).
        public static let videoFormatNotAllowed = Code(.videoFormatNotAllowed)
        /// A custom elem's `data` is not what ``ValidationProfile/requiresTUIKitCustomData`` asks
        /// for: a JSON object with a non-empty string `businessID` (`tuikit`; limit `businessID`,
        /// actual `not_json`, `not_an_object` or `no_business_id`).
        public static let customDataNotTUIKit = Code(.customDataNotTUIKit)

        // MARK: Merger

        /// A merger elem carries more messages than ``ValidationProfile/maxMergerMessages``
        /// (`tencent`: 300): more inline `messages` (reported at `messages`), or, sent by download
        /// key, a `msg_num` above it (reported at `msg_num`).
        public static let tooManyMergerMessages = Code(.tooManyMergerMessages)
        /// A merger elem has a `json_msg_key` and inline `messages` too
        /// (``ValidationProfile/forbidsMergerKeyWithMessages``, `tencent`): Tencent REST sends one
        /// or the other. Reported at `messages`, limit 0, actual the count.
        public static let mergerKeyWithMessages = Code(.mergerKeyWithMessages)
        /// A merger elem carries more `abstract_list` entries than
        /// ``ValidationProfile/maxMergerAbstracts`` (`tencent`: 5).
        public static let tooManyMergerAbstracts = Code(.tooManyMergerAbstracts)
        /// A merger abstract is longer than ``ValidationProfile/maxMergerAbstractLength`` UTF-16
        /// code units (`tencent`: 100; an emoji outside the BMP counts 2).
        public static let mergerAbstractTooLong = Code(.mergerAbstractTooLong)
        /// Merger elems are nested deeper than ``ValidationProfile/maxMergerLayers`` (`tencent`:
        /// 100). A message with a merger elem whose messages hold no merger is 1 layer. Reported
        /// once per top-level merger elem of the root message, at that elem.
        public static let mergerNestingTooDeep = Code(.mergerNestingTooDeep)
        /// A message inside a merger (at any depth) holds a group tips or group system elem
        /// (`tencent`). Reported at that elem.
        public static let elemNotAllowedInMerger = Code(.elemNotAllowedInMerger)
        /// A message inside a merger carries a signal (a recall notice or a read receipt; `tencent`:
        /// only sent messages are merged). Reported at the signal, e.g.
        /// `elems[0].merger.messages[3].recall_notice`.
        public static let signalNotAllowedInMerger = Code(.signalNotAllowedInMerger)

        // MARK: Mentions and targeted receivers

        /// `at_user_list` is not empty but the message's target is not `group_id` (`tencent`).
        public static let atUsersRequireGroup = Code(.atUsersRequireGroup)
        /// `at_user_list` has more entries than ``ValidationProfile/maxAtUsers`` (`tencent`: 30,
        /// @all included).
        public static let tooManyAtUsers = Code(.tooManyAtUsers)
        /// `targeted_receivers` is not empty but the message's target is not `group_id` (`tencent`).
        public static let targetedReceiversRequireGroup = Code(.targetedReceiversRequireGroup)
        /// `targeted_receivers` has more entries than ``ValidationProfile/maxTargetedReceivers``
        /// (`tencent`: 50).
        public static let tooManyTargetedReceivers = Code(.tooManyTargetedReceivers)
        /// A targeted group message also carries an @ list (`tencent`). Reported at `at_user_list`
        /// with limit 0.
        public static let atUsersWithTargetedReceivers = Code(.atUsersWithTargetedReceivers)
        /// `at_user_list` is not empty but the first elem is not text (`tencent-sdk`: the V2TIM
        /// guide says "only text @ messages are supported"; limit `text`, actual the first elem's
        /// kind or `none`).
        public static let atUsersRequireText = Code(.atUsersRequireText)

        // MARK: Envelope

        /// The message's target is one the vendor has no form for (`tencent`: a `room_id`; Tencent's
        /// live rooms, AVChatRoom, are groups and take `group_id`). Reported at the target's field
        /// with limit `receiver|group_id`.
        public static let targetNotSupported = Code(.targetNotSupported)
        /// A one-to-one message whose `receiver` is its non-empty `sender`
        /// (``ValidationProfile/forbidsMessageToSelf``, `zim`: ZIM error 6000001). Reported at
        /// `receiver`, limit `other_than_sender`, actual the receiver.
        public static let messageToSelf = Code(.messageToSelf)
        /// `priority` is not in ``ValidationProfile/allowedPriorities`` (`zim`: ZIM's Low, Medium and
        /// High are LOW, NORMAL and HIGH here, and DEFAULT leaves the choice to the sender; LOWEST
        /// and unrecognized numbers have no ZIM value).
        public static let priorityNotSupported = Code(.priorityNotSupported)

        // MARK: Signals

        /// A message carries a signal (recall notice or read receipt) and elems too (`tencent`,
        /// `zim`: a signal stands alone). Reported at the signal with limit 0 and the elem count.
        public static let signalNotStandalone = Code(.signalNotStandalone)
        /// A read receipt's target does not match its kind (`tencent`, `zim`): a group read receipt
        /// needs `group_id`, a one-to-one read receipt `receiver`. Reported at the receipt; limit the
        /// target it needs, actual the one it has (`none` without a target).
        public static let signalTargetMismatch = Code(.signalTargetMismatch)
        /// A recall notice or group read receipt names no message: its `msg_id` is empty (`tencent`,
        /// `zim`; limit 1 = the fewest bytes allowed, actual 0).
        public static let signalMsgIDMissing = Code(.signalMsgIDMissing)

        // MARK: IDs and group profile values

        /// A user ID is longer than ``ValidationProfile/maxUserIDBytes`` UTF-8 bytes (`tencent`:
        /// 32, SDK error 7003; `zim`: 32). User IDs: `sender`, `receiver`, each `at_user_list` and
        /// `targeted_receivers` entry, every `user_id` of GroupMemberInfo, MemberChangeInfo and
        /// UserProfile, a group system elem's `op_user`, the `value` of an OWNER group change, a
        /// recall notice's `recalled_by` and a one-to-one read receipt's `user_id`.
        public static let userIDTooLong = Code(.userIDTooLong)
        /// A group name in group tips (a NAME change's `value`, or `group_name`) is longer than
        /// ``ValidationProfile/maxGroupNameBytes`` UTF-8 bytes (`tencent`: 30, legacy TIM
        /// `createGroup`).
        public static let groupNameTooLong = Code(.groupNameTooLong)
        /// An INTRODUCTION change's `value` is longer than
        /// ``ValidationProfile/maxGroupIntroductionBytes`` (`tencent`: 120 bytes, legacy TIM
        /// `modifyGroupIntroduction`).
        public static let groupIntroductionTooLong = Code(.groupIntroductionTooLong)
        /// A NOTIFICATION change's `value` is longer than
        /// ``ValidationProfile/maxGroupNotificationBytes`` (`tencent`: 150 bytes, legacy TIM
        /// `modifyGroupNotification`).
        public static let groupNotificationTooLong = Code(.groupNotificationTooLong)
        /// A FACE_URL change's `value` is longer than ``ValidationProfile/maxGroupFaceURLBytes``
        /// (`tencent`: 100 bytes, legacy TIM `modifyGroupFaceUrl`).
        public static let groupFaceURLTooLong = Code(.groupFaceURLTooLong)
        /// A group tips or group system elem's `platform` is not empty and not in
        /// ``ValidationProfile/allowedPlatforms`` (`tencent`: legacy TIM's values `iOS`, `Android`,
        /// `Windows`, `Mac`, `Web`, `RESTful API`, `Unknown`, compared exactly; see ``TIMPlatform``).
        public static let platformNotRecognized = Code(.platformNotRecognized)

        // MARK: Always (every profile, `none` included)

        /// A location's `latitude` is not a finite number in [-90, 90] degrees.
        public static let latitudeOutOfRange = Code(.latitudeOutOfRange)
        /// A location's `longitude` is not a finite number in [-180, 180] degrees.
        public static let longitudeOutOfRange = Code(.longitudeOutOfRange)
        /// An image elem has more than one Image of the same `type` (any value, UNSPECIFIED and
        /// unrecognized numbers included). Reported once per repeated type, at its second Image.
        public static let duplicateImageType = Code(.duplicateImageType)

        /// The stable snake_case name, for example `content_too_large`.
        public var name: String { backing.rawValue }

        /// Every code this version of the library can produce, in a stable order.
        public static let all: [Code] = Backing.allCases.map(Code.init)
    }

    /// A limit or an actual value: a whole number (bytes, entries, seconds, layers), a real number
    /// (degrees) or a short word (an elem kind, a format, a target). Prints without spaces, so the
    /// CLI's `limit=… actual=…` columns stay one word each.
    public enum Value: Hashable, Sendable, CustomStringConvertible {
        /// A count, a size in bytes or UTF-16 code units, a duration in seconds, a layer count.
        case integer(UInt64)
        /// Degrees of a location. Compared by bit pattern, so a NaN value equals itself.
        case real(Double)
        /// A word or a `|`-separated set, e.g. `group_id`, `text|custom|face|location`.
        case text(String)

        /// The value as the CLI prints it: `12289`, `90.00000000000001`, `nan`, `group_id`.
        public var description: String {
            switch self {
            case .integer(let value): String(value)
            case .real(let value): String(value)
            case .text(let value): value
            }
        }

        /// Equal kinds with equal values; reals compare by bit pattern (NaN equals NaN, 0.0 differs
        /// from -0.0), so equal violations compare equal.
        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.integer(let a), .integer(let b)): a == b
            case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
            case (.text(let a), .text(let b)): a == b
            default: false
            }
        }

        /// Hashes consistently with ``==(_:_:)``.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .integer(let value):
                hasher.combine(0)
                hasher.combine(value)
            case .real(let value):
                hasher.combine(1)
                hasher.combine(value.bitPattern)
            case .text(let value):
                hasher.combine(2)
                hasher.combine(value)
            }
        }
    }

    /// Which rule is broken.
    public let code: Code
    /// Where: a field path such as `elems[0].merger.messages[12].elems[0].text.text`.
    public let path: String
    /// The largest (or, for ``Code/elemChainEmpty``, the smallest) value the rule allows, or what
    /// it allows in words (`group_id`, `JPG|PNG|…`).
    public let limit: Value
    /// What the message has.
    public let actual: Value
    /// A sentence for people: what was expected and what was found, with the unit.
    public let reason: String

    /// A violation as ``Message/validate(profile:)`` reports it; public for code that builds its own
    /// rules on top and wants to report them the same way.
    public init(code: Code, path: String, limit: Value, actual: Value, reason: String) {
        self.code = code
        self.path = path
        self.limit = limit
        self.actual = actual
        self.reason = reason
    }

    /// `CODE at PATH: reason (limit L, actual A)`.
    public var description: String {
        "\(code.name) at \(path): \(reason) (limit \(limit), actual \(actual))"
    }
}
