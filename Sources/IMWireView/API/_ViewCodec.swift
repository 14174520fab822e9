import IMWireCore
import IMWireBinary

/// Implementation detail of ``ViewableMessage``: the view decoder of one message type. It has no
/// public members and no public initialiser.
public struct _ViewCodec<M: ViewableMessage>: Sendable {
    /// Makes the type's message view of the bytes and calls the closure with its root node (the
    /// bytes and the view valid during the call). Not generic over the closure's result, so that
    /// ``ViewableMessage/withView(serializedBytes:options:_:)``, inlined into its caller, reaches it
    /// without instantiating generic metadata on every call.
    @usableFromInline let view: @Sendable (UnsafeBufferPointer<UInt8>, BinaryDecodingOptions, (_ViewNode) throws -> Void) throws -> Void
}

extension _ViewCodec where M: ArenaLaidOut {
    @usableFromInline package init() {
        view = { bytes, options, body in
            try ArenaDecoder.withView(table: M._arenaTable, layout: M._typeIndex, from: bytes, options: options, body)
        }
    }
}
