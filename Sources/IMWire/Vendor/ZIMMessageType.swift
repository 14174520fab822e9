/// ZEGOCLOUD ZIM's `ZIMMessageType` values for the message kinds IMWire can carry (seed 003), mapped
/// to and from our elems and targets.
///
/// | ZIM | value | IMWire |
/// |---|---|---|
/// | Text | 1 | a text elem, not in a room |
/// | Command | 2 | a custom elem (`data` is the command payload) |
/// | Multiple | 10 | a chain of several elems |
/// | Image | 11 | an image elem |
/// | File | 12 | a file elem |
/// | Audio | 13 | a sound elem |
/// | Video | 14 | a video elem |
/// | Barrage | 20 | a text elem in a message to a room (`room_id`) |
///
/// Location, face, group tips, merger and group system elems have no ZIM message type.
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

    /// The ZIM type of one elem sent to `target`: text → Text (Barrage in a room), custom →
    /// Command, image → Image, file → File, sound → Audio, video → Video; `nil` for kinds ZIM has
    /// no message type for (location, face, group tips, merger, group system) and for an elem with
    /// no content.
    public init?(elem: Elem, target: Message.Target?) {
        guard let kind = elem.kind else { return nil }
        switch kind {
        case .text:
            if case .roomID? = target { self = .barrage } else { self = .text }
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
    /// The ZIM message type this message is sent as, or `nil` when ZIM has none: one elem maps by
    /// ``ZIMMessageType/init(elem:target:)`` (a text elem to a room is Barrage); several elems are
    /// Multiple when every one of them maps to a ZIM type (Barrage is not an item of Multiple: a
    /// text elem there is a text item); an empty chain has no type.
    ///
    /// Whether the message also meets ZIM's limits is ``validate(profile:)`` with
    /// ``ValidationProfile/zim``, which holds every text elem of a message to a room to the 5 KB
    /// barrage limit, inside a Multiple too (the stricter reading of SPEC §3.2).
    public var zimMessageType: ZIMMessageType? {
        guard let first = elems.first else { return nil }
        guard elems.count > 1 else { return ZIMMessageType(elem: first, target: target) }
        for elem in elems where ZIMMessageType(elem: elem, target: nil) == nil { return nil }
        return .multiple
    }
}
