import IMWireCore
import IMWireJSONText

/// The `MsgType` of a Tencent REST `MsgBody` element and the ``ElemKind`` it maps to.
///
/// Tencent's REST API and webhooks know these nine element types; group tips and group system
/// notifications have no REST element (the server sends them only to SDK clients), so those
/// kinds have no `MsgType` and cannot be written as tim-rest.
public enum TIMRESTMsgType: String, Hashable, Sendable, CaseIterable {
    /// `TIMTextElem` — ``TextElem``.
    case text = "TIMTextElem"
    /// `TIMLocationElem` — ``LocationElem``.
    case location = "TIMLocationElem"
    /// `TIMFaceElem` — ``FaceElem``.
    case face = "TIMFaceElem"
    /// `TIMCustomElem` — ``CustomElem``.
    case custom = "TIMCustomElem"
    /// `TIMSoundElem` — ``SoundElem``.
    case sound = "TIMSoundElem"
    /// `TIMImageElem` — ``ImageElem``.
    case image = "TIMImageElem"
    /// `TIMFileElem` — ``FileElem``.
    case file = "TIMFileElem"
    /// `TIMVideoFileElem` — ``VideoElem``.
    case video = "TIMVideoFileElem"
    /// `TIMRelayElem` (combined / forwarded messages) — ``MergerElem``.
    case relay = "TIMRelayElem"

    /// The elem kind this REST element type decodes to.
    public var elemKind: ElemKind {
        switch self {
        case .text: .text
        case .location: .location
        case .face: .face
        case .custom: .custom
        case .sound: .sound
        case .image: .image
        case .file: .file
        case .video: .video
        case .relay: .merger
        }
    }

    /// The REST element type for an elem kind; `nil` for group tips and group system, which REST
    /// cannot carry.
    public init?(_ kind: ElemKind) {
        switch kind {
        case .text: self = .text
        case .location: self = .location
        case .face: self = .face
        case .custom: self = .custom
        case .sound: self = .sound
        case .image: self = .image
        case .file: self = .file
        case .video: self = .video
        case .merger: self = .relay
        case .groupTips, .groupSystem: return nil
        }
    }
}
