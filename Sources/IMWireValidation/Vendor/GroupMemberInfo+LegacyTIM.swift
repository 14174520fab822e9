import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

extension GroupMemberInfo {
    /// ``muteUntil`` (Unix seconds when the mute ends, V2TIM `muteUntil`) for a legacy TIM member
    /// whose `silentUntil` — which legacy TIM documents as "Muting duration (the remaining seconds)"
    /// (legacy "Group Management (iOS)" guide, `TIMGroupMemberInfo`) — was read at `now` (Unix
    /// seconds, e.g. the time of the message that carried it): `now + silentUntil`, or 0 (not
    /// muted) when `silentUntil` is 0. Saturates at `UInt64.max`.
    public static func muteUntil(legacySilentUntil: UInt32, readAt now: UInt64) -> UInt64 {
        guard legacySilentUntil > 0 else { return 0 }
        let (sum, overflow) = now.addingReportingOverflow(UInt64(legacySilentUntil))
        return overflow ? .max : sum
    }

    /// Legacy TIM's `silentUntil` at `now` (Unix seconds): the seconds of mute remaining, 0 when the
    /// member is not muted or the mute has ended; saturates at `UInt32.max`.
    public func legacySilentUntil(at now: UInt64) -> UInt32 {
        guard muteUntil > now else { return 0 }
        return UInt32(clamping: muteUntil - now)
    }
}
