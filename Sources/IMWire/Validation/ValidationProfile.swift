/// The limits a message is validated against (SPEC §3): a vendor's rules as plain values.
///
/// Start from a preset and change what your deployment does differently:
///
/// ```swift
/// var profile = ValidationProfile.zim
/// profile.maxTextBytes = 2 * 1024        // a ZIM app on the 2 KB default text limit
///
/// var legacy = ValidationProfile.tencent
/// legacy.maxContentBytes = 8 * 1024      // a Tencent account on the old 8 KB limit
///
/// let violations = message.validate(profile: profile)
/// ```
///
/// A limit set to `nil` (or a rule switched off) is not checked. The always-on rules of SPEC §3.3
/// (location ranges, one Image per ImageType) are not part of the profile: they run for every
/// profile, ``none`` included.
///
/// Units: string lengths are UTF-8 bytes, except ``maxMergerAbstractLength`` (UTF-16 code units);
/// file sizes are the byte counts the message carries; KB = 1024 bytes, MB = 1024 × 1024 bytes.
/// Every rule applies to the messages nested in merger elems too, each against its own target,
/// except ``maxContentBytes`` and ``maxMergerLayers``, which measure the root message as a whole.
public struct ValidationProfile: Hashable, Sendable, CustomStringConvertible {
    /// A short name for messages and the CLI: `tencent`, `zim`, `none`, or your own.
    public var name: String

    // MARK: Elem chain

    /// The message must have at least one elem (``Violation/Code/elemChainEmpty``). `tencent` and
    /// `zim`: on.
    public var requiresElems: Bool = false
    /// Largest message content in bytes: the UTF-8 bytes of every string and bytes field of every
    /// elem, nested merger messages included (Tencent's "sum of the lengths of all elements";
    /// ``Violation/Code/contentTooLarge``). `tencent`: 12 KB (server error 80002).
    public var maxContentBytes: Int? = nil
    /// The kinds an elem after the first may have (V2TIM `appendElem`;
    /// ``Violation/Code/elemNotAppendable``); `nil` allows any. `tencent`: text, custom, face,
    /// location.
    public var appendableElemKinds: Set<ElemKind>? = nil
    /// Kinds that must be the only elem of their message (``Violation/Code/elemNotStandalone``).
    /// `tencent`: group tips, group system, merger.
    public var standaloneElemKinds: Set<ElemKind> = []
    /// Most elems in one chain (``Violation/Code/tooManyElems``). `zim`: 20 (a "multiple" message).
    public var maxElems: Int? = nil
    /// Most custom elems in one chain (``Violation/Code/tooManyCustomElems``). `tencent`: 1; `zim`: 1.
    public var maxCustomElems: Int? = nil
    /// Most image elems in one chain (``Violation/Code/tooManyImageElems``). `zim`: 10.
    public var maxImageElems: Int? = nil
    /// Most file elems in one chain (``Violation/Code/tooManyFileElems``). `zim`: 1.
    public var maxFileElems: Int? = nil
    /// Most sound elems in one chain (``Violation/Code/tooManySoundElems``). `zim`: 1.
    public var maxSoundElems: Int? = nil
    /// Most video elems in one chain (``Violation/Code/tooManyVideoElems``). `zim`: 1.
    public var maxVideoElems: Int? = nil

    // MARK: Elem content

    /// Largest `text` of a text elem, in UTF-8 bytes, outside rooms (``Violation/Code/textTooLarge``).
    /// `zim`: 32 KB (ZIM's maximum for ZIMTextMessage; ZIM apps default to 2 KB).
    public var maxTextBytes: Int? = nil
    /// Largest `text` of a text elem in a message to a room, in UTF-8 bytes
    /// (``Violation/Code/barrageTooLarge``). Replaces ``maxTextBytes`` there. `zim`: 5 KB
    /// (ZIMBarrageMessage).
    public var maxBarrageBytes: Int? = nil
    /// Largest `data` of a custom elem, in bytes (``Violation/Code/customDataTooLarge``). `zim`:
    /// 5 KB (ZIMCommandMessage).
    public var maxCustomDataBytes: Int? = nil
    /// Largest image, in bytes, checked for every Image of an image elem
    /// (``Violation/Code/imageTooLarge``). `tencent`: 28 MB (SDK error 7005); `zim`: 10 MB.
    public var maxImageBytes: Int? = nil
    /// Largest sound `data_size`, in bytes (``Violation/Code/soundTooLarge``). `tencent`: 28 MB
    /// (SDK error 7005); `zim`: 6 MB.
    public var maxSoundBytes: Int? = nil
    /// Largest `video_size`, in bytes (``Violation/Code/videoTooLarge``). `tencent`: 100 MB (SDK
    /// error 7005); `zim`: 100 MB. The snapshot is not checked.
    public var maxVideoBytes: Int? = nil
    /// Largest `file_size`, in bytes (``Violation/Code/fileTooLarge``). `tencent`: 100 MB (SDK
    /// error 7005); `zim`: 100 MB.
    public var maxFileBytes: Int? = nil
    /// Longest sound `duration`, in seconds (``Violation/Code/soundTooLong``). `zim`: 300.
    public var maxSoundSeconds: Int? = nil
    /// The image `format`s allowed (``Violation/Code/imageFormatNotAllowed``); `nil` allows any.
    /// `zim`: JPG, PNG, BMP, TIFF, GIF, WEBP.
    public var allowedImageFormats: Set<ImageFormat>? = nil
    /// The sound `format`s allowed, lowercase, compared ignoring ASCII case
    /// (``Violation/Code/soundFormatNotAllowed``); `nil` allows any. `zim`: mp3, m4a.
    public var allowedSoundFormats: Set<String>? = nil
    /// The `video_format`s allowed, lowercase, compared ignoring ASCII case
    /// (``Violation/Code/videoFormatNotAllowed``); `nil` allows any. `zim`: mp4, mov.
    public var allowedVideoFormats: Set<String>? = nil

    // MARK: Merger

    /// Most `messages` in one merger elem (``Violation/Code/tooManyMergerMessages``). `tencent`: 300.
    public var maxMergerMessages: Int? = nil
    /// Most `abstract_list` entries in one merger elem (``Violation/Code/tooManyMergerAbstracts``).
    /// `tencent`: 5.
    public var maxMergerAbstracts: Int? = nil
    /// Longest merger abstract, in UTF-16 code units as the SDK counts
    /// (``Violation/Code/mergerAbstractTooLong``). `tencent`: 100.
    public var maxMergerAbstractLength: Int? = nil
    /// Deepest merger nesting, in layers: a message with a merger elem is one layer, a merger
    /// inside one of its messages a second (``Violation/Code/mergerNestingTooDeep``). `tencent`: 100.
    public var maxMergerLayers: Int? = nil
    /// Elem kinds that messages inside a merger may not contain, at any depth
    /// (``Violation/Code/elemNotAllowedInMerger``). `tencent`: group tips, group system.
    public var elemKindsNotAllowedInMerger: Set<ElemKind> = []

    // MARK: Mentions and targeted receivers

    /// `at_user_list` and `targeted_receivers` need a `group_id` target
    /// (``Violation/Code/atUsersRequireGroup``, ``Violation/Code/targetedReceiversRequireGroup``).
    /// A `room_id` target is not a group here: live rooms (Tencent AVChatRoom) support neither.
    /// `tencent`: on.
    public var mentionsRequireGroup: Bool = false
    /// Most `at_user_list` entries, @all counted like any other entry
    /// (``Violation/Code/tooManyAtUsers``). `tencent`: 30.
    public var maxAtUsers: Int? = nil
    /// Most `targeted_receivers` (``Violation/Code/tooManyTargetedReceivers``). `tencent`: 50.
    public var maxTargetedReceivers: Int? = nil
    /// A targeted group message may not carry an @ list
    /// (``Violation/Code/atUsersWithTargetedReceivers``). `tencent`: on.
    public var forbidsAtUsersWithTargetedReceivers: Bool = false

    // MARK: IDs and group profile values

    /// Longest user ID, in UTF-8 bytes (``Violation/Code/userIDTooLong``): `sender`, `receiver`,
    /// the `at_user_list` and `targeted_receivers` entries, every GroupMemberInfo and
    /// MemberChangeInfo `user_id`, a group system `op_user`, an OWNER change's `value`.
    /// `tencent`: 32 (SDK error 7003); `zim`: 32.
    public var maxUserIDBytes: Int? = nil
    /// Longest group name in group tips (a NAME change's `value` and `group_name`), in UTF-8 bytes
    /// (``Violation/Code/groupNameTooLong``). `tencent`: 30 (seed 004).
    public var maxGroupNameBytes: Int? = nil
    /// Longest INTRODUCTION change `value`, in UTF-8 bytes
    /// (``Violation/Code/groupIntroductionTooLong``). `tencent`: 120 (seed 004).
    public var maxGroupIntroductionBytes: Int? = nil
    /// Longest NOTIFICATION change `value`, in UTF-8 bytes
    /// (``Violation/Code/groupNotificationTooLong``). `tencent`: 150 (seed 004).
    public var maxGroupNotificationBytes: Int? = nil
    /// Longest FACE_URL change `value`, in UTF-8 bytes (``Violation/Code/groupFaceURLTooLong``).
    /// `tencent`: 100 (seed 004).
    public var maxGroupFaceURLBytes: Int? = nil

    /// A profile named `name` that checks nothing beyond the always-on rules; set the limits you
    /// need.
    public init(name: String) {
        self.name = name
    }

    /// The profile's ``name``.
    public var description: String { name }

    private static let kilobyte = 1024
    private static let megabyte = 1024 * 1024

    /// No vendor limits: only the rules every message must meet (SPEC §3.3: location ranges, one
    /// Image per ImageType).
    public static let none = ValidationProfile(name: "none")

    /// Tencent Cloud IM (SPEC §3.1): 12 KB content, Tencent's elem-chain rules, merger limits, @
    /// and targeted-receiver rules, 28 MB / 100 MB files, 32-byte user IDs, group profile values.
    public static let tencent: ValidationProfile = {
        var profile = ValidationProfile(name: "tencent")
        profile.requiresElems = true
        profile.maxContentBytes = 12 * kilobyte
        profile.appendableElemKinds = [.text, .custom, .face, .location]
        profile.standaloneElemKinds = [.groupTips, .groupSystem, .merger]
        profile.maxCustomElems = 1
        profile.maxImageBytes = 28 * megabyte
        profile.maxSoundBytes = 28 * megabyte
        profile.maxVideoBytes = 100 * megabyte
        profile.maxFileBytes = 100 * megabyte
        profile.maxMergerMessages = 300
        profile.maxMergerAbstracts = 5
        profile.maxMergerAbstractLength = 100
        profile.maxMergerLayers = 100
        profile.elemKindsNotAllowedInMerger = [.groupTips, .groupSystem]
        profile.mentionsRequireGroup = true
        profile.maxAtUsers = 30
        profile.maxTargetedReceivers = 50
        profile.forbidsAtUsersWithTargetedReceivers = true
        profile.maxUserIDBytes = 32
        profile.maxGroupNameBytes = 30
        profile.maxGroupIntroductionBytes = 120
        profile.maxGroupNotificationBytes = 150
        profile.maxGroupFaceURLBytes = 100
        return profile
    }()

    /// ZEGOCLOUD ZIM (SPEC §3.2, seed 003): 32 KB text, 5 KB barrage in rooms and custom data,
    /// media sizes, formats and sound duration, the "multiple" message composition, 32-byte user IDs.
    public static let zim: ValidationProfile = {
        var profile = ValidationProfile(name: "zim")
        profile.requiresElems = true
        profile.maxElems = 20
        profile.maxCustomElems = 1
        profile.maxImageElems = 10
        profile.maxFileElems = 1
        profile.maxSoundElems = 1
        profile.maxVideoElems = 1
        profile.maxTextBytes = 32 * kilobyte
        profile.maxBarrageBytes = 5 * kilobyte
        profile.maxCustomDataBytes = 5 * kilobyte
        profile.maxImageBytes = 10 * megabyte
        profile.maxSoundBytes = 6 * megabyte
        profile.maxVideoBytes = 100 * megabyte
        profile.maxFileBytes = 100 * megabyte
        profile.maxSoundSeconds = 300
        profile.allowedImageFormats = [.jpg, .png, .bmp, .tiff, .gif, .webp]
        profile.allowedSoundFormats = ["mp3", "m4a"]
        profile.allowedVideoFormats = ["mp4", "mov"]
        profile.maxUserIDBytes = 32
        return profile
    }()

    /// The presets by name: `none`, `tencent`, `zim`.
    public static let presets: [ValidationProfile] = [.none, .tencent, .zim]

    /// The preset named `name` (`none`, `tencent`, `zim`), or `nil`.
    public init?(preset name: String) {
        guard let preset = ValidationProfile.presets.first(where: { $0.name == name }) else { return nil }
        self = preset
    }
}
