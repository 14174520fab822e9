import Foundation
import IMWire
import NIOCore
import Testing

/// swift-nio's `ByteBuffer`, as a server holds its bytes: every decoder reads a `ByteBufferView` in
/// place, and the encoders write into one (the library's own tests, MessageAPITests, cover `[UInt8]`,
/// `Data`, slices, raw buffers and spans).
@Suite struct ByteBufferTests {
    static let message = Message(
        msgID: "m-2",
        sender: "bob",
        target: .receiver("alice"),
        elems: [.text("hello 🍜"), .face(FaceElem(index: 1, data: Array("ok".utf8)))],
        offlinePushInfo: OfflinePushInfo(title: "t")
    )

    @Test func decodesFromAByteBufferView() throws {
        let bytes = try Self.message.serializedBytes()
        let json = try Self.message.jsonUTF8Bytes()
        let rest = try Self.message.timRESTUTF8Bytes()
        let expectedREST = try Message(timRESTUTF8Bytes: rest)

        #expect(try Message(serializedBytes: ByteBuffer(bytes: bytes).readableBytesView) == Self.message)
        #expect(try Message(jsonUTF8Bytes: ByteBuffer(bytes: json).readableBytesView) == Self.message)
        #expect(try Message(timRESTUTF8Bytes: ByteBuffer(bytes: rest).readableBytesView) == expectedREST)
    }

    /// `Data` and `ByteBufferView` expose their storage, so the decoders read them in place.
    @Test func foundationAndNIOContainersAreContiguous() throws {
        let bytes = try Self.message.serializedBytes()
        #expect(Data(bytes).withContiguousStorageIfAvailable { $0.count } == bytes.count)
        #expect(ByteBuffer(bytes: bytes).readableBytesView.withContiguousStorageIfAvailable { $0.count } == bytes.count)
    }

    @Test func encodesIntoAByteBufferViewAndAppendsAfterWhatItHolds() throws {
        let canonical = try Self.message.serializedBytes()
        let view: ByteBufferView = try Self.message.serializedBytes()
        #expect(Array(view) == canonical)

        var appended = ByteBuffer(bytes: [7, 7]).readableBytesView
        try Self.message.appendSerializedBytes(to: &appended)
        #expect(Array(appended) == [7, 7] + canonical)

        let empty: ByteBufferView = try TextElem().serializedBytes()
        #expect(empty.isEmpty)
    }
}
