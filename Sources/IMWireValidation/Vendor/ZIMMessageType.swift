import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// ZEGOCLOUD ZIM's `ZIMMessageType` values for the message kinds IMWire can carry (ZIM guide "Send &
/// Receive messages", "Message types"), mapped to and from our elems.
///
/// | ZIM | value | IMWire |
/// |---|---|---|
/// | Text | 1 | a text elem, to any conversation (rooms included) |
/// | Command | 2 | a custom elem (`data` is the command payload) |
/// | Multiple | 10 | a chain of several elems |
/// | Image | 11 | an image elem |
/// | File | 12 | a file elem |
/// | Audio | 13 | a sound elem |
/// | Video | 14 | a video elem |
/// | Barrage | 20 | the text elem of a message with ``Message/barrage`` set, to a room (`room_id`) |
///
/// Location, face, group tips, merger and group system elems have no ZIM message type (the `zim`
/// profile reports them: ``Violation/Code/elemKindNotSupported``).
public enum ZIMMessageType: Int, Hashable, Sendable, CaseIterable {
    /// `ZIMMessageTypeText` (1): text, ≤ 32 KB.
    case text = 1
    /// `ZIMMessageTypeCommand` (2): custom signalling data, ≤ 5 KB.
    case command = 2
    /// `ZIMMessageTypeMultiple` (10): several items in one message (≤ 20; ≤ 10 images, ≤ 1 file,
    /// sound, video and custom).
    case multiple = 10
    /// `ZIMMessageTypeImage` (11): ≤ 10 MB, JPG/PNG/BMP/TIFF/GIF/WEBP.
    case image = 11
    /// `ZIMMessageTypeFile` (12): ≤ 100 MB.
    case file = 12
    /// `ZIMMessageTypeAudio` (13): ≤ 6 MB and ≤ 300 s, mp3/m4a.
    case audio = 13
    /// `ZIMMessageTypeVideo` (14): ≤ 100 MB, mp4/mov.
    case video = 14
    /// `ZIMMessageTypeBarrage` (20): on-screen comments in a room, ≤ 5 KB.
    case barrage = 20

    /// The ZIM type of one elem: text → Text (Barrage when `barrage`, the message's
    /// ``Message/barrage`` flag), custom → Command, image → Image, file → File, sound → Audio, video
    /// → Video; `nil` for kinds ZIM has no message type for (location, face, group tips, merger,
    /// group system), for an elem with no content, and for `barrage` with any elem but text.
    public init?(elem: Elem, barrage: Bool = false) {
        guard let kind = elem.kind else { return nil }
        guard !barrage || kind == .text else { return nil }
        switch kind {
        case .text: self = barrage ? .barrage : .text
        case .custom: self = .command
        case .image: self = .image
        case .file: self = .file
        case .sound: self = .audio
        case .video: self = .video
        case .location, .face, .groupTips, .merger, .groupSystem: return nil
        }
    }

    /// The elem kind a ZIM message of this type becomes: Text and Barrage → text, Command →
    /// custom, Image → image, File → file, Audio → sound, Video → video; `nil` for Multiple, which
    /// becomes a chain of elems of these kinds.
    public var elemKind: ElemKind? {
        switch self {
        case .text, .barrage: .text
        case .command: .custom
        case .image: .image
        case .file: .file
        case .audio: .sound
        case .video: .video
        case .multiple: nil
        }
    }

    /// The conversation type a message of this type needs, if any: Barrage is room-only (`room`);
    /// every other type may go to any conversation (`nil`).
    public var requiredConversationType: ZIMConversationType? {
        self == .barrage ? .room : nil
    }
}

extension Message {
    /// The ZIM message type this message is sent as, or `nil` when ZIM has none: a barrage
    /// (``barrage``) of one text elem is Barrage; one elem maps by
    /// ``ZIMMessageType/init(elem:barrage:)`` (a text to a room is Text); several elems are
    /// Multiple when every one of them maps to a ZIM type; a barrage of anything but one text, an
    /// empty chain and a signal (recall notice, read receipt) have no type.
    ///
    /// Whether the message also meets ZIM's limits is ``validate(profile:)`` with
    /// ``ValidationProfile/zim``.
    public var zimMessageType: ZIMMessageType? {
        guard signal == nil, let first = elems.first else { return nil }
        if barrage { return elems.count == 1 ? ZIMMessageType(elem: first, barrage: true) : nil }
        guard elems.count > 1 else { return ZIMMessageType(elem: first) }
        for elem in elems where ZIMMessageType(elem: elem) == nil { return nil }
        return .multiple
    }
}
