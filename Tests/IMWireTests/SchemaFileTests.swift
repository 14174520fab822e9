import IMWire
import Testing

/// The schema file's registry (`imwireSchemaFile`, generated): every message type of
/// `message.proto` is in it, at its own `_typeIndex`, once, and its JSON names are built from it.
/// The readers and the writer index the file's tables with `_typeIndex`, so a type missing here, or at
/// another index, would be read and written with another type's names.
struct SchemaFileTests {
    /// Checks that `type` is in `message.proto`'s registry at its index; returns the index.
    static func indexInFile<M: ProtoMessage>(_ type: M.Type) -> Int {
        #expect(M._schemaFile === imwireSchemaFile, "\(M.self)")
        let messages = imwireSchemaFile.messages
        #expect(messages.indices.contains(M._typeIndex) && messages[M._typeIndex] === M.schema, "\(M.self) at \(M._typeIndex)")
        return M._typeIndex
    }

    @Test func everyTypeIsInItsFileAtItsIndex() {
        let indices = [
            Self.indexInFile(Message.self), Self.indexInFile(RecallNotice.self), Self.indexInFile(GroupReadReceipt.self),
            Self.indexInFile(C2CReadReceipt.self), Self.indexInFile(OfflinePushInfo.self), Self.indexInFile(Elem.self),
            Self.indexInFile(TextElem.self), Self.indexInFile(CustomElem.self), Self.indexInFile(ImageElem.self),
            Self.indexInFile(Image.self), Self.indexInFile(SoundElem.self), Self.indexInFile(VideoElem.self),
            Self.indexInFile(FileElem.self), Self.indexInFile(LocationElem.self), Self.indexInFile(FaceElem.self),
            Self.indexInFile(GroupTipsElem.self), Self.indexInFile(GroupMemberInfo.self), Self.indexInFile(GroupChangeInfo.self),
            Self.indexInFile(MemberChangeInfo.self), Self.indexInFile(UserProfile.self), Self.indexInFile(MergerElem.self),
            Self.indexInFile(GroupSystemElem.self),
        ]
        // Every type of the file is listed above (as many as the file has), each at an index of its own.
        #expect(Set(indices).count == indices.count)
        #expect(imwireSchemaFile.messages.count == indices.count)
    }

    @Test func theJSONNamesAreTheFilesTypesInOrder() {
        #expect(imwireJSONNames.count == imwireSchemaFile.messages.count)
        for (index, schema) in imwireSchemaFile.messages.enumerated() {
            #expect(imwireJSONNames.types[index].schema === schema, "\(schema.fullName)")
        }
    }
}
