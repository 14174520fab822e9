import IMWireCore
import IMWireBinary
import IMWireView
import IMWireJSONText
import IMWireJSON

/// A message type of the IMWire schema (`Schemas/imwire/v1/message.proto`): ``Message`` and every
/// type inside it — ``Elem``, ``TextElem``, ``GroupMemberInfo``, ``OfflinePushInfo``… Each one is
/// encoded and decoded on its own with the same codecs as ``Message``, as a protobuf runtime allows
/// for any message type:
///
/// ```swift
/// let member = GroupMemberInfo(userID: "alice", role: .admin)
/// let bytes = try member.serializedBytes()
/// let again = try GroupMemberInfo(serializedBytes: bytes)
/// ```
///
/// Input is any contiguous byte collection — `[UInt8]`, `ArraySlice<UInt8>`, Foundation's `Data`,
/// swift-nio's `ByteBufferView`, `UnsafeRawBufferPointer`, `RawSpan` — read in place, not copied;
/// output is a fresh `[UInt8]`, a container of the caller's choosing, or appended to a caller's buffer.
///
/// Only IMWire's generated types conform: the field tables behind the protocol are an
/// implementation detail.
///
/// `IMWireMessage` brings every format: a program that needs fewer imports the modules of the
/// formats it uses (`BinaryMessage`, `JSONMessage`, `ViewableMessage`) and links nothing else.
public protocol IMWireMessage: BinaryMessage, JSONMessage, ViewableMessage, CustomDebugStringConvertible {
    /// Implementation detail: what this type needs of more than one format. Not for use outside IMWire.
    static var _imwireCodec: _IMWireCodec<Self> { get }
}

extension IMWireMessage {
    /// The fields that are set, by their Swift names, and their values:
    /// `Message(msgID: "m1", sender: "alice", groupID: "g1", elems: [Elem(text: TextElem(text: "hi"))])`.
    /// Bytes are shown in hex (the first 32, then the count); unknown fields by their size.
    @inlinable
    public var debugDescription: String { Self._imwireCodec.describe(self) }
}

// MARK: - The view of proto3 JSON

extension IMWireMessage {
    /// Reads proto3 JSON `bytes` as a message view and calls `body` with it; returns what `body`
    /// returns. The view is the one ``ViewableMessage/withView(serializedBytes:options:_:)`` makes from binary, with
    /// the same types and reads.
    ///
    /// Making the view checks everything ``JSONMessage/init(jsonUTF8Bytes:options:)-(Bytes,_)`` checks and
    /// throws the same ``IMWireError`` for the same input. A string without escapes is read where it
    /// is in `bytes`. JSON's other values are not their text — a string with escapes, a base64
    /// bytes value — so from the first of them on, values are copied into a buffer the thread
    /// keeps, each at its own text's offset: no allocation per value.
    /// Skipped keys are not reported (use the decoding initialiser with a ``DecodingReport``).
    ///
    /// The view is valid only inside `body`, as the binary one is.
    ///
    /// ```swift
    /// let sender = try Message.withView(jsonUTF8Bytes: json) { String($0.sender) }
    /// ```
    @inlinable
    public static func withView<Bytes: Collection, Result>(
        jsonUTF8Bytes bytes: Bytes,
        options: JSONDecodingOptions = .init(),
        _ body: (View) throws -> Result
    ) throws -> Result where Bytes.Element == UInt8 {
        try withContiguousBytesRethrowing(bytes) { buffer in
            // The binary view's body again, not shared through a parameter for the codec's closure:
            // that let the optimiser specialise the binary view's decoder for the caller's closure,
            // which then copied a captured ValidationProfile seven times per message (validate
            // through the view, chat: 5,325 -> 7,963 instructions per message).
            var result: Result? = nil
            try _imwireCodec.jsonView(buffer, options) { result = try body(View(_viewNode: $0)) }
            return result!
        }
    }
}
