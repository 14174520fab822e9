import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// ZEGOCLOUD ZIM's `ZIMConversationType` (ZIM guide "Send & Receive messages": "0: one-on-one chat,
/// 1: In-room chat, 2: Group chat"), mapped to and from ``Message/Target``.
public enum ZIMConversationType: Int, Hashable, Sendable, CaseIterable {
    /// `ZIMConversationTypePeer` (0): one-on-one; the conversation ID is the peer's user ID
    /// (our ``Message/Target/receiver(_:)``).
    case peer = 0
    /// `ZIMConversationTypeRoom` (1): an in-room chat; the conversation ID is the room ID
    /// (``Message/Target/roomID(_:)``).
    case room = 1
    /// `ZIMConversationTypeGroup` (2): a group chat; the conversation ID is the group ID
    /// (``Message/Target/groupID(_:)``).
    case group = 2

    /// The target for a ZIM conversation of this type with `conversationID`.
    public func target(conversationID: String) -> Message.Target {
        switch self {
        case .peer: .receiver(conversationID)
        case .room: .roomID(conversationID)
        case .group: .groupID(conversationID)
        }
    }
}

extension Message.Target {
    /// The ZIM conversation type of this target: receiver → peer (0), room → room (1), group →
    /// group (2).
    public var zimConversationType: ZIMConversationType {
        switch self {
        case .receiver: .peer
        case .roomID: .room
        case .groupID: .group
        }
    }

    /// The ZIM conversation ID: the receiver's user ID, the room ID or the group ID.
    public var zimConversationID: String {
        switch self {
        case .receiver(let id), .roomID(let id), .groupID(let id): id
        }
    }
}
