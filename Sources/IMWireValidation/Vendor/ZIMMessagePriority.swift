import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// ZEGOCLOUD ZIM's message priority (`ZIMMessageSendConfig.priority`, `ZIMMessagePriority`: Low 1,
/// Medium 2, High 3 — the ZIM guide "Send & Receive messages" sets `ZIMMessagePriorityLow`, the raw
/// `1` and `ZIMMessagePriorityMedium`), mapped to and from ``Priority``.
///
/// The numbers run the other way from ours: in IMWire (and V2TIM) 1 is HIGH and 3 is LOW, in ZIM 1
/// is Low and 3 is High, so a raw number must never be copied across — map it:
///
/// | ZIM | value | IMWire |
/// |---|---|---|
/// | Low | 1 | ``Priority/low`` (3) |
/// | Medium | 2 | ``Priority/normal`` (2) |
/// | High | 3 | ``Priority/high`` (1) |
///
/// ``Priority/default`` (the sender did not choose), ``Priority/lowest`` (Tencent REST history
/// only) and unrecognized numbers have no ZIM value; the `zim` profile reports LOWEST and
/// unrecognized numbers (``Violation/Code/priorityNotSupported``).
public enum ZIMMessagePriority: Int, Hashable, Sendable, CaseIterable {
    /// `ZIMMessagePriorityLow` (1).
    case low = 1
    /// `ZIMMessagePriorityMedium` (2).
    case medium = 2
    /// `ZIMMessagePriorityHigh` (3).
    case high = 3

    /// The ZIM priority for `priority`: HIGH → High, NORMAL → Medium, LOW → Low; `nil` for
    /// DEFAULT, LOWEST and unrecognized numbers.
    public init?(_ priority: Priority) {
        // Normalised first: `.unrecognized(1)` is the same value as `.high`.
        switch Priority(rawValue: priority.rawValue) {
        case .high: self = .high
        case .normal: self = .medium
        case .low: self = .low
        case .default, .lowest, .unrecognized: return nil
        }
    }

    /// Our priority for this ZIM priority: Low → LOW, Medium → NORMAL, High → HIGH.
    public var priority: Priority {
        switch self {
        case .low: .low
        case .medium: .normal
        case .high: .high
        }
    }
}

extension Priority {
    /// This priority in ZIM (``ZIMMessagePriority/init(_:)``), or `nil` where ZIM has none.
    public var zimMessagePriority: ZIMMessagePriority? { ZIMMessagePriority(self) }
}
