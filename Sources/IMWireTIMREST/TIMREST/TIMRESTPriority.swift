import IMWireCore
import IMWireJSONText

/// Tencent REST's `MsgPriority` names. Send requests use the names (case-sensitive), history
/// entries the numbers, which are ``Priority``'s raw values (1 high … 4 lowest).
enum TIMRESTPriority {
    static let byName: [String: Priority] = ["High": .high, "Normal": .normal, "Low": .low, "Lowest": .lowest]

    /// The REST name of `priority`; `nil` for ``Priority/default`` (no key) and unrecognized numbers
    /// (written as numbers).
    static func name(of priority: Priority) -> String? {
        // Normalise first: `.unrecognized(1)` is `.high`.
        switch Priority(rawValue: priority.rawValue) {
        case .high: "High"
        case .normal: "Normal"
        case .low: "Low"
        case .lowest: "Lowest"
        case .default, .unrecognized: nil
        }
    }
}
