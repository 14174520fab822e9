import IMWireCore
import IMWireBinary
import IMWireView
import IMWireJSON

/// Implementation detail of ``IMWireMessage``: what one message type needs of more than one module —
/// the view of proto3 JSON (the JSON reader and the view) and the debug description (the schema,
/// which no public protocol shows). It has no public members and no public initialiser.
public struct _IMWireCodec<M: IMWireMessage>: Sendable {
    /// ``_ViewCodec``'s closure for proto3 JSON bytes.
    @usableFromInline let jsonView: @Sendable (UnsafeBufferPointer<UInt8>, JSONDecodingOptions, (_ViewNode) throws -> Void) throws -> Void
    @usableFromInline let describe: @Sendable (M) -> String
}

extension _IMWireCodec where M: ArenaLaidOut & JSONFieldReading {
    @usableFromInline package init() {
        describe = { message in DebugDescription.of(message) }
        jsonView = { bytes, options, body in
            try JSONViewDecoder.withView(
                table: M._arenaTable, layout: M._typeIndex, names: JSONNameTable.of(M.self).types,
                from: bytes, options: options, body)
        }
    }
}
