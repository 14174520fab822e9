/// The message types of one schema file (`Schemas/imwire/v1/message.proto`, or another file a target
/// generates code for), in the order of their ``ProtoMessage/_typeIndex``: the registry a format
/// builds its per-file tables from (the proto3 JSON names), so that a type of any file is coded with
/// its own file's tables. One global constant per file, generated (`Generated/Schema/Schemas.swift`).
@usableFromInline package final class SchemaFile: Sendable {
    /// Every message type's schema; `messages[M._typeIndex] === M.schema`.
    @usableFromInline package let messages: [MessageSchema]

    @usableFromInline package init(_ messages: [MessageSchema]) {
        self.messages = messages
    }
}
