// The library's unsafe sites at their boundaries (the Reliability article lists each site with its
// test): values that end where the input ends, read through every accessor of the message view;
// every key and enum name of the schema, one byte longer and one shorter; the raw-memory entry
// points; and the 2^32-word limit of a message view. The test command runs these under
// AddressSanitizer, with each input in a heap block of its exact size.

import IMWire
import IMWireTestSupport
import Testing

@Suite("Unsafe sites at their boundaries")
struct UnsafeSiteBoundaryTests {
    /// A protobuf field `number` of wire type 2 holding `value`.
    static func lengthDelimited(_ number: Int, _ value: [UInt8]) -> [UInt8] {
        Varint.encode(UInt64(number << 3 | 2)) + Varint.encode(UInt64(value.count)) + value
    }

    /// A string and a bytes field that end exactly where the input ends, of every length up to 80
    /// (across the validator's 8-, 32- and 64-byte paths), read through every accessor of their
    /// views: each reads exactly the value's bytes and no byte after them.
    @Test func viewValuesEndingAtTheEndOfTheInputReadOnlyTheirBytes() throws {
        for length in 0...80 {
            let text = Array(String(repeating: "é", count: length / 2).utf8) + (length % 2 == 1 ? [0x41] : [])
            let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            let input = Self.lengthDelimited(Message.FieldNumber.cloudCustomData, data) + Self.lengthDelimited(Message.FieldNumber.topicID, text)
            let expected = try Message(serializedBytes: input)
            let topic = String(decoding: text, as: UTF8.self)
            try withExactBytes(input) { bytes in
                try Message.withView(serializedBytes: bytes) { view in
                    let string = view.topicID
                    #expect(string.count == text.count && Array(string) == text)
                    if !text.isEmpty { #expect(string[text.count - 1] == text.last) }
                    #expect(string.withUTF8 { Array($0) } == text)
                    #expect(string.withContiguousStorageIfAvailable { Array($0) } == text)
                    #expect(string.withSpan { span in (0..<span.count).map { span[$0] } } == text)
                    #expect(string == topic && topic == string && String(string) == topic)
                    #expect(string.hashValue == Message.withViewHash(of: text))
                    if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
                        #expect(string.withUTF8Span { $0.count } == text.count)
                    }
                    let bytesView = view.cloudCustomData
                    #expect(Array(bytesView) == data && bytesView.count == data.count)
                    if !data.isEmpty { #expect(bytesView[data.count - 1] == data.last) }
                    #expect(bytesView.withUnsafeBytes { Array($0) } == data)
                    #expect(bytesView.withContiguousStorageIfAvailable { Array($0) } == data)
                    #expect(bytesView.withSpan { span in (0..<span.byteCount).map { span.unsafeLoad(fromByteOffset: $0, as: UInt8.self) } } == data)
                    #expect(Message(view) == expected)
                }
                try Message.withRoutingView(serializedBytes: bytes) { routing in
                    #expect(Array(routing.topicIDUTF8) == text && routing.topicID == topic)
                }
            }
        }
    }

    /// Every message type's every field, by its JSON name and by its proto name (the reader's
    /// prediction and its lookup by name), and each name one byte longer or shorter, or empty:
    /// the names decode, the others are unknown fields named at their key's offset.
    @Test func everyKeyOfEverySchemaIsFoundAndItsNeighboursAreNot() throws {
        func check<M: IMWireMessage & JSONFieldReading>(_ type: M.Type) throws {
            let names = JSONNameTable.of(M.self).types[M._typeIndex]
            var known: Set<[UInt8]> = []
            for field in names.schema.fields {
                let jsonName = Array(JSONFieldNames.jsonName(protoName: field.name).utf8)
                known.formUnion([jsonName, Array(field.name.utf8)])
            }
            for field in names.schema.fields {
                let jsonName = Array(JSONFieldNames.jsonName(protoName: field.name).utf8)
                for name in [jsonName, Array(field.name.utf8)] {
                    // `null` leaves the field unset: the key alone is what is read. With a space
                    // before the colon the prediction misses, and the lookup by name finds it.
                    for document in [Array("{\"".utf8) + name + Array("\":null}".utf8), Array("{\"".utf8) + name + Array("\" :null}".utf8)] {
                        try withExactBytes(document) { bytes in
                            #expect(throws: Never.self, "\(M.self): \(String(decoding: document, as: UTF8.self))") {
                                _ = try M(jsonUTF8Bytes: bytes)
                            }
                        }
                    }
                    for neighbour in [name + [UInt8(ascii: "x")], Array(name.dropLast()), []] where !known.contains(neighbour) {
                        let document = Array("{\"".utf8) + neighbour + Array("\":null}".utf8)
                        try withExactBytes(document) { bytes in
                            let error = try #require(throws: IMWireError.self) { _ = try M(jsonUTF8Bytes: bytes) }
                            #expect(error.code == .unknownField && error.offset == 1, "\(M.self): \(String(decoding: document, as: UTF8.self)): \(error)")
                        }
                    }
                }
            }
        }
        try check(Message.self); try check(Elem.self); try check(TextElem.self); try check(CustomElem.self)
        try check(ImageElem.self); try check(Image.self); try check(SoundElem.self); try check(VideoElem.self)
        try check(FileElem.self); try check(LocationElem.self); try check(FaceElem.self); try check(GroupTipsElem.self)
        try check(GroupMemberInfo.self); try check(GroupChangeInfo.self); try check(MemberChangeInfo.self)
        try check(UserProfile.self); try check(MergerElem.self); try check(GroupSystemElem.self)
        try check(OfflinePushInfo.self); try check(RecallNotice.self); try check(GroupReadReceipt.self)
        try check(C2CReadReceipt.self)
        // Every type of the schema file was checked.
        #expect(imwireArenaLayouts.count == 22)
    }

    /// Every enum value by name (the JSON reader's lookup) and by number (its writer's), and each
    /// name one byte longer or shorter, or empty, and a number no value has.
    @Test func everyEnumNameIsFoundAndItsNeighboursAreNot() {
        let schemas = [Priority.schema, ImageType.schema, ImageFormat.schema, GroupTipsType.schema, GroupSystemType.schema,
                       GroupMemberRole.schema, GroupInfoChangeType.schema, IOSPushType.schema]
        for schema in schemas {
            let names = Set(schema.values.map { Array($0.name.utf8) })
            for (number, name) in schema.values {
                let utf8 = Array(name.utf8)
                withExactBytes(utf8) { bytes in #expect(schema.number(named: bytes) == number) }
                #expect(schema.nameUTF8(of: number).map(Array.init) == utf8)
                for neighbour in [utf8 + [UInt8(ascii: "X")], Array(utf8.dropLast()), []] where !names.contains(neighbour) {
                    withExactBytes(neighbour) { bytes in #expect(schema.number(named: bytes) == nil, "\(schema.fullName): \(neighbour)") }
                }
            }
            let unused = (schema.values.map(\.number).max() ?? 0) + 1
            #expect(schema.nameUTF8(of: unused) == nil)
        }
    }

    /// The entry points that take raw memory read the same message as the one that takes an array.
    @Test func rawMemoryEntryPointsReadWhatArraysRead() throws {
        var message = Message(msgID: "m", sender: "alice", target: .groupID("@TGS#1"), elems: [.text("hi 🍜")])
        message.cloudCustomData = [0, 1, 2]
        let binary = try message.serializedBytes()
        let json = try message.jsonUTF8Bytes()
        let rest = try message.timRESTUTF8Bytes()
        try withExactBytes(binary) { (bytes) throws in
            #expect(try Message(serializedBytes: UnsafeRawBufferPointer(bytes)) == message)
            #expect(try Message(serializedBytes: UnsafeRawBufferPointer(bytes).bytes) == message)
        }
        try withExactBytes(json) { (bytes) throws in #expect(try Message(jsonUTF8Bytes: UnsafeRawBufferPointer(bytes)) == message) }
        try withExactBytes(rest) { (bytes) throws in
            #expect(try Message(timRESTUTF8Bytes: UnsafeRawBufferPointer(bytes)) == (try Message(timRESTUTF8Bytes: rest)))
        }
        // A collection without contiguous storage is copied, and read the same.
        #expect(try Message(serializedBytes: binary.lazy.map { $0 }) == message)
    }

    /// A message view needs at most 2^32 words (a list keeps its entries' indices in 32 bits): an
    /// input whose view needs more is refused with `input_too_large` where the decoder was. Tried
    /// with a lower limit: the view of a merger of 200 messages succeeds with exactly the words it
    /// needs and fails with one fewer, binary and JSON alike.
    @Test func aViewNeedingMoreWordsThanItsLimitIsRefused() throws {
        let inner = (0..<200).map { Message(msgID: "m\($0)", sender: "s", elems: [.text("t\($0)")]) }
        let message = Message(msgID: "outer", elems: [.merger(MergerElem(title: "200", messages: inner))])
        let binary = try message.serializedBytes()
        let json = try message.jsonUTF8Bytes()
        func viewBinary(_ limit: Int) -> Result<Message, IMWireError> {
            Result { () throws(IMWireError) in
                do {
                    return try binary.withUnsafeBufferPointer { bytes in
                        try ArenaDecoder.withView(table: Message._arenaTable, layout: Message._typeIndex, from: bytes, options: .init(), wordLimit: limit) {
                            Message(Message.View(_viewNode: $0))
                        }
                    }
                } catch let error as IMWireError { throw error } catch { fatalError("\(error)") }
            }
        }
        func viewJSON(_ limit: Int) -> Result<Message, IMWireError> {
            Result { () throws(IMWireError) in
                do {
                    return try json.withUnsafeBufferPointer { bytes in
                        try JSONViewDecoder.withView(
                            table: Message._arenaTable, layout: Message._typeIndex, names: JSONNameTable.of(Message.self).types,
                            from: bytes, options: .init(), wordLimit: limit
                        ) { Message(Message.View(_viewNode: $0)) }
                    }
                } catch let error as IMWireError { throw error } catch { fatalError("\(error)") }
            }
        }
        for (view, count) in [(viewBinary, binary.count), (viewJSON, json.count)] {
            // The fewest words that succeed, found by bisection (the limit holds whatever buffer
            // the thread has kept from earlier views).
            var (low, high) = (1, 1 << 20)
            #expect((try? view(high).get()) == message)
            while low + 1 < high {
                let middle = (low + high) / 2
                if (try? view(middle).get()) != nil { high = middle } else { low = middle }
            }
            #expect(high > 1024, "a merger of 200 messages needs more than the initial words")
            #expect((try? view(high).get()) == message)
            guard case .failure(let error) = view(high - 1) else {
                Issue.record("one word fewer than needed still made the view")
                continue
            }
            #expect(error.code == .inputTooLarge && error.reason.contains("message view"))
            #expect(error.offset.map { $0 > 0 && $0 <= count } == true, "\(error)")
        }
    }
}

extension Message {
    /// The hash a `StringView` of `bytes` must have: that of its bytes, as `BytesView` hashes.
    static func withViewHash(of bytes: [UInt8]) -> Int {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }
}
