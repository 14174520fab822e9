import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

extension GroupTipsType {
    /// The type for a legacy TIM SDK `TIM_GROUP_TIPS_TYPE` number (legacy "Group Management (iOS)"
    /// guide, "Group Event Messages", `TIMGroupTipsElem`):
    /// INVITE 1, QUIT_GRP 2, KICKED 3, SET_ADMIN 4, CANCEL_ADMIN 5, INFO_CHANGE 6,
    /// MEMBER_INFO_CHANGE 7. `nil` for any other number (legacy TIM has no 0 and nothing above 7).
    ///
    /// Legacy INVITE also covered joining by application (the guide: "when a user joins a group
    /// through application or invitation … TIM_GROUP_TIPS_TYPE_INVITE"); it maps to ``invite``.
    public init?(legacyTIMGroupTipsType number: Int) {
        switch number {
        case 1: self = .invite
        case 2: self = .quit
        case 3: self = .kicked
        case 4: self = .setAdmin
        case 5: self = .cancelAdmin
        case 6: self = .groupInfoChange
        case 7: self = .memberInfoChange
        default: return nil
        }
    }

    /// The legacy TIM SDK `TIM_GROUP_TIPS_TYPE` number for this V2TIM type, or `nil`
    /// where legacy TIM has none (UNSPECIFIED, TOPIC_INFO_CHANGE, PINNED_MESSAGE_ADDED,
    /// PINNED_MESSAGE_DELETED, unrecognized numbers).
    ///
    /// JOIN maps to 1 (INVITE), the type legacy TIM reported joins with; so JOIN → 1 → INVITE does
    /// not round-trip. Every other mapped type does.
    public var legacyTIMGroupTipsType: Int? {
        switch self {
        case .join, .invite: 1
        case .quit: 2
        case .kicked: 3
        case .setAdmin: 4
        case .cancelAdmin: 5
        case .groupInfoChange: 6
        case .memberInfoChange: 7
        case .unspecified, .topicInfoChange, .pinnedMessageAdded, .pinnedMessageDeleted, .unrecognized: nil
        }
    }
}
