/// A message type of the IMWire schema (`Schemas/imwire/v1/message.proto`) as a value: ``Message``
/// and every type inside it. What a type can be encoded to comes with the module of each format —
/// `BinaryMessage` (`IMWireBinary`), `JSONMessage` (`IMWireJSON`), `ViewableMessage`
/// (`IMWireView`) — and `IMWireMessage` (`IMWire`) brings them all.
///
/// Only IMWire's generated types conform.
public protocol IMWireModel: Hashable, Sendable {
    /// An empty value: every field at its proto3 default.
    init()
    /// Fields this schema does not know, kept and re-emitted after the known ones.
    var unknownFields: UnknownFields { get set }
}
