import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// The limits a message is validated against: a vendor's rules as plain values.
///
/// Presets: ``tencent`` (what Tencent Cloud IM's server accepts, also from REST and webhooks),
/// ``tencentSDK`` (what the V2TIM client SDK builds: the server's rules plus the SDK's own),
/// ``tuikit`` (a TUIKit app: the SDK's rules plus TUIKit's custom-message payloads), ``zim``
/// (ZEGOCLOUD ZIM) and ``none``.
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
/// A limit set to `nil` (or a rule switched off) is not checked. The always-on rules (location
/// ranges, one Image per ImageType) are not part of the profile: they run for every profile,
/// ``none`` included.
///
/// Units: string lengths are UTF-8 bytes, except ``maxMergerAbstractLength`` (UTF-16 code units);
/// file sizes are the byte counts the message carries; KB = 1024 bytes, MB = 1024 × 1024 bytes.
/// Every rule applies to the messages nested in merger elems too, each against its own target,
/// except ``maxContentBytes`` and ``maxMergerLayers``, which measure the root message as a whole.
public struct ValidationProfile: Hashable, Sendable, CustomStringConvertible {
    /// A short name for messages and the CLI: `tencent`, `tencent-sdk`, `tuikit`, `zim`, `none`, or
    /// your own.
    public var name: String

    // MARK: Elem chain

    /// A message without a signal must have at least one elem (``Violation/Code/elemChainEmpty``).
    /// `tencent` and `zim`: on.
    public var requiresElems: Bool = false
    /// Largest message content in bytes: the UTF-8 bytes of every string and bytes field of every
    /// elem, nested merger messages included (Tencent's "sum of the lengths of all elements";
    /// ``Violation/Code/contentTooLarge``). `tencent`: 12 KB (server error 80002).
    public var maxContentBytes: Int? = nil
    /// The kinds an elem after the first may have (``Violation/Code/elemNotAppendable``); `nil`
    /// allows any. `tencent-sdk`: text, custom, face, location — the kinds V2TIM's `appendElem`
    /// adds. `tencent` (the server) sets none: Tencent delivers, in webhook bodies too, chains
    /// that other clients and the REST API build, such as a text followed by an image.
    public var appendableElemKinds: Set<ElemKind>? {
        get { _appendableElemKinds?.kinds }
        set { _appendableElemKinds = newValue.map(ElemKindSet.init) }
    }
    private(set) var _appendableElemKinds: ElemKindSet? = nil
    /// Kinds that must be the only elem of their message (``Violation/Code/elemNotStandalone``).
    /// `tencent`: group tips, group system, merger.
    public var standaloneElemKinds: Set<ElemKind> {
        get { _standaloneElemKinds.kinds }
        set { _standaloneElemKinds = ElemKindSet(newValue) }
    }
    private(set) var _standaloneElemKinds = ElemKindSet()
    /// Most elems in one chain (``Violation/Code/tooManyElems``). `zim`: 20 (a "multiple" message).
    public var maxElems: Int? = nil
    /// The elem kinds the vendor has a message type for (``Violation/Code/elemKindNotSupported``);
    /// `nil` allows any. `zim`: text, custom, image, sound, video, file (ZIM's Text / Barrage,
    /// Command, Image, Audio, Video and File).
    public var supportedElemKinds: Set<ElemKind>? {
        get { _supportedElemKinds?.kinds }
        set { _supportedElemKinds = newValue.map(ElemKindSet.init) }
    }
    private(set) var _supportedElemKinds: ElemKindSet? = nil
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

    /// Largest `text` of a text elem, in UTF-8 bytes, in every message that is not a barrage
    /// (``Violation/Code/textTooLarge``), rooms included. `zim`: 32 KB (ZIM's maximum for
    /// ZIMTextMessage; ZIM apps default to 2 KB).
    public var maxTextBytes: Int? = nil
    /// Largest `text` of a text elem in a barrage (a message with ``Message/barrage`` set), in
    /// UTF-8 bytes (``Violation/Code/barrageTooLarge``). Replaces ``maxTextBytes`` there. `zim`:
    /// 5 KB (ZIMBarrageMessage).
    public var maxBarrageBytes: Int? = nil
    /// A barrage must go to a room (``Violation/Code/barrageRequiresRoom``) and be one text elem
    /// (``Violation/Code/barrageRequiresText``). `zim`: on.
    public var barrageRequiresRoomText: Bool = false
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
    /// Every custom elem's `data` must be a TUIKit payload: a JSON object with a non-empty string
    /// `businessID` (``Violation/Code/customDataNotTUIKit``; ``TUIKitCustomPayload`` reads and
    /// builds them). `tuikit`: on.
    public var requiresTUIKitCustomData: Bool = false

    // MARK: Merger

    /// Most messages in one merger elem (``Violation/Code/tooManyMergerMessages``): its inline
    /// `messages`, and for a merger sent by download key (`json_msg_key`) the `msg_num` the key
    /// stands for. `tencent`: 300.
    public var maxMergerMessages: Int? = nil
    /// A merger sent by download key (`json_msg_key`) carries no inline `messages`
    /// (``Violation/Code/mergerKeyWithMessages``): Tencent REST's `TIMRelayElem` has `MsgList` or
    /// `JsonMsgKey`, never both, so tim-rest cannot write such a merger. `tencent`: on.
    public var forbidsMergerKeyWithMessages: Bool = false
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
    public var elemKindsNotAllowedInMerger: Set<ElemKind> {
        get { _elemKindsNotAllowedInMerger.kinds }
        set { _elemKindsNotAllowedInMerger = ElemKindSet(newValue) }
    }
    private(set) var _elemKindsNotAllowedInMerger = ElemKindSet()
    /// Messages inside a merger may not carry a signal (``Violation/Code/signalNotAllowedInMerger``).
    /// `tencent`: on.
    public var forbidsSignalsInMerger: Bool = false

    // MARK: Mentions and targeted receivers

    /// `at_user_list` and `targeted_receivers` need a `group_id` target
    /// (``Violation/Code/atUsersRequireGroup``, ``Violation/Code/targetedReceiversRequireGroup``).
    /// A `room_id` target is not a group. `tencent`: on.
    public var mentionsRequireGroup: Bool = false
    /// An @ list needs a text first elem (``Violation/Code/atUsersRequireText``): the V2TIM guide
    /// says "only text @ messages are supported" (`createTextAtMessage`). `tencent-sdk`: on; turn it
    /// off for SDK 7.0 and later, whose `createAtSignedGroupMessage` marks any message.
    public var atUsersRequireText: Bool = false
    /// Most `at_user_list` entries, @all counted like any other entry
    /// (``Violation/Code/tooManyAtUsers``). `tencent`: 30.
    public var maxAtUsers: Int? = nil
    /// Most `targeted_receivers` (``Violation/Code/tooManyTargetedReceivers``). `tencent`: 50.
    public var maxTargetedReceivers: Int? = nil
    /// A targeted group message may not carry an @ list
    /// (``Violation/Code/atUsersWithTargetedReceivers``). `tencent`: on.
    public var forbidsAtUsersWithTargetedReceivers: Bool = false

    // MARK: Envelope

    /// A one-to-one message may not go to its own sender: `receiver` equal to a non-empty `sender`
    /// (``Violation/Code/messageToSelf``). `zim`: on (ZIM's `sendMessage` fails with error
    /// 6000001). An empty sender — a message still being built — is not compared.
    public var forbidsMessageToSelf: Bool = false
    /// A `room_id` target is refused (``Violation/Code/targetNotSupported``). `tencent`: on —
    /// Tencent's live rooms (AVChatRoom) are groups, addressed by `group_id`.
    public var forbidsRoomTarget: Bool = false
    /// The priorities allowed (``Violation/Code/priorityNotSupported``); `nil` allows any. `zim`:
    /// DEFAULT, HIGH, NORMAL, LOW (``ZIMMessagePriority`` maps the last three).
    public var allowedPriorities: Set<Priority>? = nil

    // MARK: Signals

    /// A message with a signal has no elems (``Violation/Code/signalNotStandalone``). `tencent`,
    /// `zim`: on.
    public var signalsStandAlone: Bool = false
    /// A recall notice and a group read receipt name their message: a non-empty `msg_id`
    /// (``Violation/Code/signalMsgIDMissing``). `tencent`, `zim`: on.
    public var signalsRequireMsgID: Bool = false
    /// A group read receipt needs a `group_id` target and a one-to-one read receipt a `receiver`
    /// (``Violation/Code/signalTargetMismatch``). `tencent`, `zim`: on.
    public var receiptsRequireMatchingTarget: Bool = false

    // MARK: IDs and group profile values

    /// Longest user ID, in UTF-8 bytes (``Violation/Code/userIDTooLong``): `sender`, `receiver`,
    /// the `at_user_list` and `targeted_receivers` entries, every GroupMemberInfo,
    /// MemberChangeInfo and UserProfile `user_id`, a group system `op_user`, an OWNER change's
    /// `value`, a recall notice's `recalled_by`, a one-to-one read receipt's `user_id`.
    /// `tencent`: 32 (SDK error 7003); `zim`: 32.
    public var maxUserIDBytes: Int? = nil
    /// Longest group name in group tips (a NAME change's `value` and `group_name`), in UTF-8 bytes
    /// (``Violation/Code/groupNameTooLong``). `tencent`: 30 (legacy TIM group guide, `createGroup`).
    public var maxGroupNameBytes: Int? = nil
    /// Longest INTRODUCTION change `value`, in UTF-8 bytes
    /// (``Violation/Code/groupIntroductionTooLong``). `tencent`: 120 (`modifyGroupIntroduction`).
    public var maxGroupIntroductionBytes: Int? = nil
    /// Longest NOTIFICATION change `value`, in UTF-8 bytes
    /// (``Violation/Code/groupNotificationTooLong``). `tencent`: 150 (`modifyGroupNotification`).
    public var maxGroupNotificationBytes: Int? = nil
    /// Longest FACE_URL change `value`, in UTF-8 bytes (``Violation/Code/groupFaceURLTooLong``).
    /// `tencent`: 100 (`modifyGroupFaceUrl`).
    public var maxGroupFaceURLBytes: Int? = nil
    /// The values a group tips or group system `platform` may have when set
    /// (``Violation/Code/platformNotRecognized``), compared exactly; `nil` allows any. `tencent`:
    /// legacy TIM's `iOS`, `Android`, `Windows`, `Mac`, `Web`, `RESTful API`, `Unknown`
    /// (``TIMPlatform``).
    public var allowedPlatforms: Set<String>? = nil

    /// A profile named `name` that checks nothing beyond the always-on rules; set the limits you
    /// need.
    public init(name: String) {
        self.name = name
    }

    /// The profile's ``name``.
    public var description: String { name }

    private static let kilobyte = 1024
    private static let megabyte = 1024 * 1024

    /// No vendor limits: only the rules every message must meet (location ranges, one Image per
    /// ImageType).
    public static let none = ValidationProfile(name: "none")

    /// What Tencent Cloud IM's server accepts, from any client and from the REST API, and delivers
    /// in webhook bodies: 12 KB content, standalone group tips / group system / merger elems, one
    /// custom elem, merger limits (300 messages, inline or behind a download key, never both), @ and
    /// targeted-receiver rules, 28 MB / 100 MB files, 32-byte user
    /// IDs, group profile values and platforms, no room target, the signal rules. It does not hold
    /// the V2TIM SDK's own rules (``tencentSDK``): a `Group.CallbackAfterSendMsg` body with a text
    /// and an image passes.
    public static let tencent: ValidationProfile = {
        var profile = ValidationProfile(name: "tencent")
        profile.requiresElems = true
        profile.maxContentBytes = 12 * kilobyte
        profile.standaloneElemKinds = [.groupTips, .groupSystem, .merger]
        profile.maxCustomElems = 1
        profile.maxImageBytes = 28 * megabyte
        profile.maxSoundBytes = 28 * megabyte
        profile.maxVideoBytes = 100 * megabyte
        profile.maxFileBytes = 100 * megabyte
        profile.maxMergerMessages = 300
        profile.forbidsMergerKeyWithMessages = true
        profile.maxMergerAbstracts = 5
        profile.maxMergerAbstractLength = 100
        profile.maxMergerLayers = 100
        profile.elemKindsNotAllowedInMerger = [.groupTips, .groupSystem]
        profile.forbidsSignalsInMerger = true
        profile.mentionsRequireGroup = true
        profile.maxAtUsers = 30
        profile.maxTargetedReceivers = 50
        profile.forbidsAtUsersWithTargetedReceivers = true
        profile.forbidsRoomTarget = true
        profile.signalsStandAlone = true
        profile.signalsRequireMsgID = true
        profile.receiptsRequireMatchingTarget = true
        profile.maxUserIDBytes = 32
        profile.maxGroupNameBytes = 30
        profile.maxGroupIntroductionBytes = 120
        profile.maxGroupNotificationBytes = 150
        profile.maxGroupFaceURLBytes = 100
        profile.allowedPlatforms = Set(TIMPlatform.allCases.map(\.rawValue))
        return profile
    }()

    /// What the V2TIM client SDK builds and sends: ``tencent`` plus the SDK's own rules — elems
    /// after the first only text, custom, face or location (`appendElem`), and @ lists on text
    /// messages only (`createTextAtMessage`).
    public static let tencentSDK: ValidationProfile = {
        var profile = ValidationProfile.tencent
        profile.name = "tencent-sdk"
        profile.appendableElemKinds = [.text, .custom, .face, .location]
        profile.atUsersRequireText = true
        return profile
    }()

    /// A TUIKit app: ``tencentSDK`` plus TUIKit's custom messages — every custom elem's data is a
    /// JSON object with a `businessID` (``requiresTUIKitCustomData``).
    public static let tuikit: ValidationProfile = {
        var profile = ValidationProfile.tencentSDK
        profile.name = "tuikit"
        profile.requiresTUIKitCustomData = true
        return profile
    }()

    /// ZEGOCLOUD ZIM: only the elem kinds ZIM has message types for, 32 KB text (in rooms too), 5 KB
    /// barrages (room only, one text) and custom data, media sizes, formats and sound duration, the
    /// "multiple" message composition, ZIM's priorities, no one-to-one message to its own sender,
    /// the signal rules, 32-byte user IDs.
    public static let zim: ValidationProfile = {
        var profile = ValidationProfile(name: "zim")
        profile.requiresElems = true
        profile.supportedElemKinds = [.text, .custom, .image, .sound, .video, .file]
        profile.maxElems = 20
        profile.maxCustomElems = 1
        profile.maxImageElems = 10
        profile.maxFileElems = 1
        profile.maxSoundElems = 1
        profile.maxVideoElems = 1
        profile.maxTextBytes = 32 * kilobyte
        profile.maxBarrageBytes = 5 * kilobyte
        profile.barrageRequiresRoomText = true
        profile.maxCustomDataBytes = 5 * kilobyte
        profile.maxImageBytes = 10 * megabyte
        profile.maxSoundBytes = 6 * megabyte
        profile.maxVideoBytes = 100 * megabyte
        profile.maxFileBytes = 100 * megabyte
        profile.maxSoundSeconds = 300
        profile.allowedImageFormats = [.jpg, .png, .bmp, .tiff, .gif, .webp]
        profile.allowedSoundFormats = ["mp3", "m4a"]
        profile.allowedVideoFormats = ["mp4", "mov"]
        profile.allowedPriorities = [.default, .high, .normal, .low]
        profile.forbidsMessageToSelf = true
        profile.signalsStandAlone = true
        profile.signalsRequireMsgID = true
        profile.receiptsRequireMatchingTarget = true
        profile.maxUserIDBytes = 32
        return profile
    }()

    /// The presets by name: `none`, `tencent`, `tencent-sdk`, `tuikit`, `zim`.
    public static let presets: [ValidationProfile] = [.none, .tencent, .tencentSDK, .tuikit, .zim]

    /// The preset named `name` (`none`, `tencent`, `tencent-sdk`, `tuikit`, `zim`), or `nil`.
    public init?(preset name: String) {
        guard let preset = ValidationProfile.presets.first(where: { $0.name == name }) else { return nil }
        self = preset
    }
}
