internal import IMWireTIMREST
internal import IMWireValidation

/// The JSON a webhook answers Tencent Cloud IM with: `ActionStatus`, `ErrorInfo`, `ErrorCode` and,
/// for a rewritten message, its `MsgBody` and `CloudCustomData`.
///
/// Built by ``allow`` (any callback) or by the answers of a ``MessageCallback`` — ``MessageCallback/refuse(code:reason:)``,
/// ``MessageCallback/discard()``, ``MessageCallback/replace(elems:cloudCustomData:profile:)`` —,
/// which check that the callback takes them; answer with ``jsonUTF8Bytes()``, HTTP status 200.
public struct CallbackResponse: Hashable, Sendable {
    /// `ErrorCode`: 0 lets the event go on (and delivers a rewritten message); 1 refuses it; 2
    /// discards the message silently; an app code (``CallbackCommand/BeforeSend/appCodes``) refuses
    /// it and hands the code and ``errorInfo`` to the sender's client.
    public let errorCode: Int
    /// `ErrorInfo`: the reason given with the code.
    public let errorInfo: String
    /// The replacement's `{"MsgBody":[…],"CloudCustomData":"…"}` in canonical tim-rest, or `nil`.
    let content: [UInt8]?

    package init(errorCode: Int, errorInfo: String, content: [UInt8]? = nil) {
        self.errorCode = errorCode
        self.errorInfo = errorInfo
        self.content = content
    }

    /// `{"ActionStatus":"OK","ErrorInfo":"","ErrorCode":0}`: go on, unchanged. The answer to every
    /// callback that only notifies (Tencent ignores its code) and to a message you let through.
    public static let allow = CallbackResponse(errorCode: 0, errorInfo: "")

    /// Whether the answer replaces the message's content.
    public var replacesMessage: Bool { content != nil }

    /// The answer as compact UTF-8 JSON, keys in the order of Tencent's examples: `ActionStatus`
    /// (always `OK`: the request was handled, whatever was decided), `ErrorInfo`, `ErrorCode`, then
    /// `MsgBody` and `CloudCustomData` for a replacement.
    public func jsonUTF8Bytes() -> [UInt8] {
        var json = JSONTextWriter(into: [UInt8]())
        json.beginObject()
        json.member("ActionStatus", string: "OK")
        json.member("ErrorInfo", string: errorInfo)
        json.key("ErrorCode")
        json.integer(Int64(errorCode))
        // content is a whole object: this one goes on with its members.
        if let content { json.members(ofEncodedObject: content) }
        json.endObject()
        return json.output
    }

    /// ``jsonUTF8Bytes()`` as a `String`.
    public var jsonString: String { String(decoding: jsonUTF8Bytes(), as: UTF8.self) }
}
