import IMWireCore
import IMWireBinary

/// A message type whose message view is laid out by an ``ArenaLayoutTable``: the layouts of its
/// schema file, in which its own is at ``ProtoMessage/_typeIndex``. Every generated type
/// conforms, beside ``ProtoMessage``, which knows no storage.
@usableFromInline package protocol ArenaLaidOut: ProtoMessage {
    /// The layouts of the message's schema file.
    static var _arenaTable: ArenaLayoutTable { get }
}
