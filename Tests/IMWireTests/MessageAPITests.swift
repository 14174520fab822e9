import Foundation
@testable import IMWire  // errorIsOneReferenceWide builds an error with a factory
import Testing

/// The public API as clients and servers use it: any byte container in, a container of the caller's
/// choice out, every message type on its own, readable debug output, a one-reference error (swift-nio's
/// `ByteBuffer` in and out: Examples/Tests/ByteBufferTests).
@Suite struct MessageAPITests {
    static let message = Message(
        msgID: "m-1",
        sender: "alice",
        target: .groupID("@TGS#1"),
        timestampMs: 1_700_000_000_000,
        priority: .high,
        elems: [.text("hi 🍜"), .face(FaceElem(index: 3, data: Array("ok".utf8)))],
        cloudCustomData: Array("{\"k\":1}".utf8),
        offlinePushInfo: OfflinePushInfo(title: "t")
    )

    // MARK: Bytes in

    @Test func decodesFromEveryContiguousContainer() throws {
        let bytes = try Self.message.serializedBytes()
        let json = try Self.message.jsonUTF8Bytes()
        let rest = try Self.message.timRESTUTF8Bytes()
        let expectedREST = try Message(timRESTUTF8Bytes: rest)

        #expect(try Message(serializedBytes: bytes) == Self.message)
        #expect(try Message(serializedBytes: bytes[...]) == Self.message)
        #expect(try Message(serializedBytes: Data(bytes)) == Self.message)
        #expect(try bytes.withUnsafeBytes { raw in try Message(serializedBytes: raw) } == Self.message)
        #expect(try Message(serializedBytes: bytes.span.bytes) == Self.message)

        #expect(try Message(jsonUTF8Bytes: Data(json)) == Self.message)
        #expect(try Message(jsonUTF8Bytes: String(decoding: json, as: UTF8.self).utf8) == Self.message)
        #expect(try json.withUnsafeBytes { raw in try Message(jsonUTF8Bytes: raw) } == Self.message)

        #expect(try Message(timRESTUTF8Bytes: Data(rest)) == expectedREST)
        #expect(try rest.withUnsafeBytes { raw in try Message(timRESTUTF8Bytes: raw) } == expectedREST)
    }

    /// A collection that records how it is read: decoding touches its storage once and no element.
    @Test func contiguousInputIsReadInPlaceNotCopied() throws {
        let bytes = try Self.message.serializedBytes()
        let json = try Self.message.jsonUTF8Bytes()
        let rest = try Self.message.timRESTUTF8Bytes()
        for (format, input) in [("binary", bytes), ("json", json), ("tim-rest", rest)] {
            let log = AccessLog()
            let tracked = TrackedBytes(storage: input, log: log, contiguous: true)
            switch format {
            case "binary": _ = try Message(serializedBytes: tracked)
            case "json": _ = try Message(jsonUTF8Bytes: tracked)
            default: _ = try Message(timRESTUTF8Bytes: tracked)
            }
            #expect(log.contiguousAccesses == 1, "\(format)")
            #expect(log.elementReads == 0, "\(format): \(log.elementReads) bytes read one by one (a copy)")
        }
    }

    /// A collection without contiguous storage still decodes (through one copy).
    @Test func nonContiguousInputIsCopiedOnce() throws {
        let bytes = try Self.message.serializedBytes()
        let log = AccessLog()
        #expect(try Message(serializedBytes: TrackedBytes(storage: bytes, log: log, contiguous: false)) == Self.message)
        #expect(log.elementReads == bytes.count)
    }

    // MARK: Bytes out

    @Test func encodesIntoTheCallersContainer() throws {
        let canonical = try Self.message.serializedBytes()
        let data: Data = try Self.message.serializedBytes()
        #expect(Array(data) == canonical)
        let slice: ArraySlice<UInt8> = try Self.message.serializedBytes()
        #expect(Array(slice) == canonical)
        #expect(try Self.message.serializedSize() == canonical.count)

        let json = try Self.message.jsonUTF8Bytes()
        let jsonData: Data = try Self.message.jsonUTF8Bytes()
        #expect(Array(jsonData) == json)
        let rest = try Self.message.timRESTUTF8Bytes()
        let restData: Data = try Self.message.timRESTUTF8Bytes()
        #expect(Array(restData) == rest)
    }

    @Test func appendsAfterWhatTheBufferHolds() throws {
        let canonical = try Self.message.serializedBytes()
        var buffer: [UInt8] = [1, 2, 3]
        try Self.message.appendSerializedBytes(to: &buffer)
        try Self.message.appendSerializedBytes(to: &buffer)
        #expect(buffer == [1, 2, 3] + canonical + canonical)

        var data = Data([9])
        try Self.message.appendSerializedBytes(to: &data)
        #expect(Array(data) == [9] + canonical)

        var text = Array("x".utf8)
        try Self.message.appendJSONUTF8Bytes(to: &text)
        #expect(text == Array("x".utf8) + (try Self.message.jsonUTF8Bytes()))
        var rest = Data("y".utf8)
        try Self.message.appendTimRESTUTF8Bytes(to: &rest)
        #expect(Array(rest) == Array("y".utf8) + (try Self.message.timRESTUTF8Bytes()))
    }

    /// An empty message is zero bytes, whatever the container (no buffer to write into).
    @Test func emptyMessagesEncodeToNothing() throws {
        var array: [UInt8] = []
        try Message().appendSerializedBytes(to: &array)
        var data = Data()
        try Elem().appendSerializedBytes(to: &data)
        let bytes = try Message().serializedBytes()
        #expect(array.isEmpty && data.isEmpty && bytes.isEmpty)
    }

    /// A failed encode leaves the caller's buffer as it was: no half-written message.
    @Test func failedAppendLeavesTheBufferUnchanged() throws {
        var nested = Message(elems: [.text("x")])
        for _ in 0..<5 { nested = Message(elems: [.merger(MergerElem(messages: [nested]))]) }
        var buffer: [UInt8] = [1, 2, 3]
        #expect(throws: IMWireError.matching(.depthLimitExceeded)) {
            try nested.appendSerializedBytes(to: &buffer, options: BinaryEncodingOptions(maxDepth: 4))
        }
        #expect(throws: IMWireError.matching(.depthLimitExceeded)) {
            try nested.appendJSONUTF8Bytes(to: &buffer, options: JSONEncodingOptions(maxDepth: 4))
        }
        #expect(buffer == [1, 2, 3])
    }

    // MARK: Every message type on its own

    @Test func subMessagesEncodeAndDecodeAlone() throws {
        var member = GroupMemberInfo(userID: "alice", role: .admin, joinTime: 1_700_000_000)
        member.customInfo = ["level": [0x05]]
        let bytes = try member.serializedBytes()
        #expect(bytes.starts(with: [0x0A, 0x05] + Array("alice".utf8)))
        #expect(try GroupMemberInfo(serializedBytes: bytes) == member)
        #expect(try GroupMemberInfo(jsonUTF8Bytes: try member.jsonUTF8Bytes()) == member)
        #expect(try member.jsonString() == #"{"userId":"alice","role":"GROUP_MEMBER_ROLE_ADMIN","joinTime":"1700000000","customInfo":{"level":"BQ=="}}"#)

        let elem = Elem.text("hi")
        #expect(try elem.serializedBytes() == [0x0A, 0x04, 0x0A, 0x02, 0x68, 0x69])
        #expect(try Elem(serializedBytes: [0x0A, 0x04, 0x0A, 0x02, 0x68, 0x69]) == elem)
        #expect(try Elem(jsonString: #"{"text":{"text":"hi"}}"#) == elem)
    }

    /// Generic code over the public protocol: what a library built on IMWire writes.
    @Test func genericCodeRoundTripsAnyMessageType() throws {
        func roundTrip<M: IMWireMessage>(_ value: M) throws -> Bool {
            try M(serializedBytes: value.serializedBytes()) == value && M(jsonUTF8Bytes: value.jsonUTF8Bytes()) == value
        }
        #expect(try roundTrip(Self.message))
        #expect(try roundTrip(ImageElem(format: .png, images: [Image(type: .thumb, uuid: "u", size: 1)])))
        #expect(try roundTrip(OfflinePushInfo(title: "t", desc: "d")))
        #expect(try roundTrip(LocationElem(desc: "here", longitude: 121.5, latitude: 31.2)))
    }

    // MARK: Small sharp edges

    @Test func debugDescriptionShowsFieldsNotStorage() {
        let text = String(describing: Self.message)
        #expect(text == #"Message(msgID: "m-1", sender: "alice", groupID: "@TGS#1", timestampMs: 1700000000000, priority: PRIORITY_HIGH, elems: [Elem(text: TextElem(text: "hi 🍜")), Elem(face: FaceElem(index: 3, data: <6f6b>))], cloudCustomData: <7b226b223a317d>, offlinePushInfo: OfflinePushInfo(title: "t"))"#)
        #expect(!text.contains("Indirect") && !text.contains("_offlinePushInfo"))
        #expect(String(describing: Message()) == "Message()")
        var withUnknown = Message()
        withUnknown = (try? Message(serializedBytes: [0xA0, 0x06, 0x01])) ?? withUnknown
        #expect(withUnknown.debugDescription == "Message(unknownFields: 3 bytes)")
        #expect(GroupMemberInfo(customInfo: ["a": Array(repeating: 0xAB, count: 40)]).debugDescription
            == "GroupMemberInfo(customInfo: [\"a\": <\(String(repeating: "ab", count: 32))… 40 bytes>])")
    }

    /// A model nested deeper than the thread's stack can describe is cut with `…`, not a crash.
    @Test func debugDescriptionOfADeepModelIsCutNotACrash() {
        let outcome = runOnThread(stackSize: 512 * 1024) { () -> String in
            var message = Message(elems: [.text("x")])
            for _ in 0..<5_000 { message = Message(elems: [.merger(MergerElem(messages: [message]))]) }
            let text = message.debugDescription
            _ = Unmanaged.passRetained(DeepModelHolder(message))  // freeing 15,000 levels recurses
            return text.hasSuffix(")") && text.contains("(…)") ? "cut" : "not cut: \(text.suffix(80))"
        }
        #expect(outcome == "cut")
    }

    @Test func errorIsOneReferenceWide() {
        #expect(MemoryLayout<IMWireError>.size == MemoryLayout<AnyObject>.size)
        let error = IMWireError.streamTruncated("a record", offset: 7, recordIndex: 3)
        #expect(error.offset == 7 && error.recordIndex == 3 && error.path == nil)
        #expect(error.description == "truncated: \(error.reason) (record 3, at byte 7)")
    }
}

final class DeepModelHolder: @unchecked Sendable {
    let value: Message
    init(_ value: Message) { self.value = value }
}

/// Counts how a ``TrackedBytes`` is read.
final class AccessLog: @unchecked Sendable {
    var contiguousAccesses = 0
    var elementReads = 0
}

/// Bytes that record whether they are read through their storage or one element at a time.
struct TrackedBytes: Collection {
    let storage: [UInt8]
    let log: AccessLog
    let contiguous: Bool

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }
    func index(after index: Int) -> Int { index + 1 }

    subscript(position: Int) -> UInt8 {
        log.elementReads += 1
        return storage[position]
    }

    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        guard contiguous else { return nil }
        log.contiguousAccesses += 1
        return try storage.withUnsafeBufferPointer(body)
    }
}
