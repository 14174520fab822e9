/// The kind of an ``Elem``: which member of its `content` oneof is set.
///
/// The raw value is the proto name of the oneof member (`group_tips`), as it appears in validation
/// paths; ``v2timElemType`` is V2TIM's `V2TIMElemType` number, which is also the oneof field number
/// (the schema pins it).
public enum ElemKind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Text (V2TIM_ELEM_TYPE_TEXT 1, REST TIMTextElem, ZIM Text / Barrage).
    case text
    /// Custom data (V2TIM_ELEM_TYPE_CUSTOM 2, REST TIMCustomElem, ZIM Command).
    case custom
    /// Image (V2TIM_ELEM_TYPE_IMAGE 3, REST TIMImageElem, ZIM Image).
    case image
    /// Voice (V2TIM_ELEM_TYPE_SOUND 4, REST TIMSoundElem, ZIM Audio).
    case sound
    /// Video (V2TIM_ELEM_TYPE_VIDEO 5, REST TIMVideoFileElem, ZIM Video).
    case video
    /// File (V2TIM_ELEM_TYPE_FILE 6, REST TIMFileElem, ZIM File).
    case file
    /// Location (V2TIM_ELEM_TYPE_LOCATION 7, REST TIMLocationElem).
    case location
    /// Face / sticker (V2TIM_ELEM_TYPE_FACE 8, REST TIMFaceElem).
    case face
    /// Group tips (V2TIM_ELEM_TYPE_GROUP_TIPS 9).
    case groupTips = "group_tips"
    /// Merged ("combined and forwarded") messages (V2TIM_ELEM_TYPE_MERGER 10, REST TIMRelayElem).
    case merger
    /// Group system notification (legacy TIM TIMGroupSystemElem; oneof field 12).
    case groupSystem = "group_system"

    /// The proto name of the `content` oneof member, e.g. `group_tips`.
    public var description: String { rawValue }

    /// V2TIM's `V2TIMElemType` value, which is also the `Elem.content` field number: text 1 …
    /// merger 10, and 12 for group system (11 is V2TIM's stream elem, which has no kind here).
    public var v2timElemType: Int {
        switch self {
        case .text: 1
        case .custom: 2
        case .image: 3
        case .sound: 4
        case .video: 5
        case .file: 6
        case .location: 7
        case .face: 8
        case .groupTips: 9
        case .merger: 10
        case .groupSystem: 12
        }
    }

    /// The kind for a `V2TIMElemType` value; `nil` for 0 (none), 11 (stream) and unknown numbers.
    public init?(v2timElemType: Int) {
        guard let kind = ElemKind.allCases.first(where: { $0.v2timElemType == v2timElemType }) else { return nil }
        self = kind
    }
}

extension Elem {
    /// Which `content` member is set; `nil` for an elem with no content (for example an elem
    /// kind from a newer schema, kept only as unknown fields).
    public var kind: ElemKind? {
        switch content {
        case .text?: .text
        case .custom?: .custom
        case .image?: .image
        case .sound?: .sound
        case .video?: .video
        case .file?: .file
        case .location?: .location
        case .face?: .face
        case .groupTips?: .groupTips
        case .merger?: .merger
        case .groupSystem?: .groupSystem
        case nil: nil
        }
    }
}
