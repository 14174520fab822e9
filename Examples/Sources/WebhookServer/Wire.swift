import IMWire
import NIOCore

/// The three encodings IMWire speaks, and every IMWire encode/decode call of the service.
enum Wire: Sendable {
    /// Protobuf binary (`Schemas/imwire/v1/message.proto`), `application/x-protobuf`.
    case binary
    /// Proto3 JSON of the same schema, `application/json`.
    case protoJSON
    /// Tencent Cloud IM REST JSON: webhook bodies, `sendmsg` / `send_group_msg` requests.
    case timREST

    var contentType: String {
        self == .binary ? "application/x-protobuf" : "application/json; charset=utf-8"
    }

    /// Decodes a request body, reading it in place (no copy). Malformed input throws an
    /// `IMWireError` with a stable code and the byte offset (binary, JSON syntax) or the field path
    /// (tim-rest).
    func decode(_ body: ByteBuffer) throws(IMWireError) -> Message {
        let bytes = body.readableBytesView
        switch self {
        case .binary: return try Message(serializedBytes: bytes)
        case .protoJSON: return try Message(jsonUTF8Bytes: bytes)
        case .timREST: return try Message(timRESTUTF8Bytes: bytes)
        }
    }

    /// The canonical encoding (equal messages give equal bytes), written into the response buffer.
    func encode(_ message: Message) throws(IMWireError) -> ByteBuffer {
        var bytes = ByteBufferView()
        switch self {
        case .binary: try message.appendSerializedBytes(to: &bytes)
        case .protoJSON: try message.appendJSONUTF8Bytes(to: &bytes)
        case .timREST: try message.appendTimRESTUTF8Bytes(to: &bytes)
        }
        return ByteBuffer(bytes)
    }

    /// The encoding named by a `Content-Type` header: protobuf or (proto3) JSON.
    init?(contentType: String?) {
        switch contentType.flatMap({ Wire.mediaTypes($0).first }) {
        case "application/x-protobuf", "application/protobuf": self = .binary
        case "application/json": self = .protoJSON
        default: return nil
        }
    }

    /// The answer format an `Accept` header asks for: the first media type listed that we serve
    /// (q-values are not weighed); JSON when the header is absent or accepts anything.
    init?(accept: String?) {
        guard let accept else { self = .protoJSON; return }
        for type in Wire.mediaTypes(accept) {
            switch type {
            case "application/x-protobuf", "application/protobuf": self = .binary; return
            case "application/json", "application/*", "*/*": self = .protoJSON; return
            default: continue
            }
        }
        return nil
    }

    /// `"Application/JSON; charset=utf-8, */*;q=0.1"` → `["application/json", "*/*"]`.
    private static func mediaTypes(_ header: String) -> [String] {
        header.split(separator: ",").map {
            $0.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}
