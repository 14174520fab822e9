import IMWireCore
import IMWireJSONText

extension Message {
    /// Decodes a message from Tencent Cloud IM REST JSON ("tim-rest"), UTF-8.
    ///
    /// Accepts a bare `MsgBody` array, a single `{"MsgType": …, "MsgContent": {…}}` element, or any
    /// object holding `MsgBody`: a `sendmsg` / `send_group_msg` request, a `C2C.` or
    /// `Group.CallbackAfterSendMsg` webhook body, a history entry. Every `MsgType` Tencent documents
    /// is read, `TIMRelayElem` recursively; envelope keys map to the envelope (`MsgTimeStamp` /
    /// `MsgTime` seconds become ``timestampMs``, `MsgRandom` / `Random` become ``random``,
    /// `GroupAtInfo` becomes ``atUserList`` with the @all ID, …). Keys are case-sensitive; keys the
    /// model has no field for and unknown keys are ignored; integers may come as strings. Errors
    /// carry the REST path (`MsgBody[1].MsgContent.Text`); JSON syntax errors the byte offset.
    /// the TimRest article (IMWire.docc) has the mapping table.
    ///
    /// `bytes` is read in place when it has contiguous storage (`[UInt8]`, `Data`, `ByteBufferView`…).
    public init<Bytes: Collection>(timRESTUTF8Bytes bytes: Bytes, options: TIMRESTDecodingOptions = .init()) throws(IMWireError)
    where Bytes.Element == UInt8 {
        self = try withContiguousBytes(bytes) { (buffer) throws(IMWireError) in
            try TIMRESTDecoder.decode(buffer, options: options)
        }
    }

    /// Decodes a message from tim-rest as ``init(timRESTUTF8Bytes:options:)-(Bytes,_)`` does, and
    /// puts in `report` (replacing what it held) every key the decode skipped, with its path and,
    /// for a misspelt key, the key it was probably meant to be: keys no Tencent page documents for
    /// their object (``SkippedKey/Reason/unknownKey``), values a key does not define
    /// (``SkippedKey/Reason/unknownValue``), documented keys the model has no field for
    /// (``SkippedKey/Reason/noField``: `EventTime`, `MsgLifeTime` other than 0, …) and second
    /// spellings that disagree with the one read (``SkippedKey/Reason/overridden``). A webhook
    /// body's metadata (`CallbackCommand`, `EventTime`, …) is reported as `no_field`: the model
    /// holds the message, not the callback. Nothing is collected until a key is skipped.
    public init<Bytes: Collection>(
        timRESTUTF8Bytes bytes: Bytes, options: TIMRESTDecodingOptions = .init(), report: inout DecodingReport
    ) throws(IMWireError) where Bytes.Element == UInt8 {
        self = try withContiguousBytes(bytes) { (buffer) throws(IMWireError) in
            try TIMRESTDecoder.decode(buffer, options: options, report: &report)
        }
    }

    /// Decodes a message from borrowed tim-rest bytes.
    public init(timRESTUTF8Bytes bytes: UnsafeRawBufferPointer, options: TIMRESTDecodingOptions = .init()) throws(IMWireError) {
        // [unsafe: api-bytes] Bound to `UInt8` for the call.
        self = try bytes.withMemoryRebound(to: UInt8.self) { (buffer) throws(IMWireError) in
            try TIMRESTDecoder.decode(buffer, options: options)
        }
    }

    /// Decodes a message from tim-rest JSON text; see ``init(timRESTUTF8Bytes:options:)-(Bytes,_)``.
    public init(timRESTString: String, options: TIMRESTDecodingOptions = .init()) throws(IMWireError) {
        var text = timRESTString
        let result = text.withUTF8 { buffer in
            Result { () throws(IMWireError) in try TIMRESTDecoder.decode(buffer, options: options) }
        }
        self = try result.get()
    }

    /// The canonical tim-rest form as UTF-8: a `send_group_msg` request for a group message, a
    /// `sendmsg` request for a C2C one, keys in the documented canonical order, compact unless
    /// `options.prettyPrinted`.
    ///
    /// Throws `not_representable` (with the model path, e.g. `elems[0].group_tips`) for what Tencent
    /// REST cannot carry: group tips and group system elems, a room target, bytes that are not
    /// UTF-8 in custom data, face data or cloud custom data, a random above 2^32 - 1, and — unless
    /// ``TIMRESTEncodingOptions/allowsLossyConversion`` — fields REST has no key for.
    public func timRESTUTF8Bytes(options: TIMRESTEncodingOptions = .init()) throws(IMWireError) -> [UInt8] {
        try TIMRESTEncoder.encode(self, options: options)
    }

    /// The canonical tim-rest form in a container of the caller's choice.
    public func timRESTUTF8Bytes<Bytes: RangeReplaceableCollection>(
        options: TIMRESTEncodingOptions = .init()
    ) throws(IMWireError) -> Bytes where Bytes.Element == UInt8 {
        Bytes(try timRESTUTF8Bytes(options: options))
    }

    /// Appends the canonical tim-rest form to `bytes`. On error `bytes` is left as it was.
    public func appendTimRESTUTF8Bytes<Bytes: RangeReplaceableCollection>(
        to bytes: inout Bytes, options: TIMRESTEncodingOptions = .init()
    ) throws(IMWireError) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: try timRESTUTF8Bytes(options: options))
    }

    /// ``timRESTUTF8Bytes(options:)->[UInt8]`` as a `String`.
    public func timRESTString(options: TIMRESTEncodingOptions = .init()) throws(IMWireError) -> String {
        String(decoding: try timRESTUTF8Bytes(options: options), as: UTF8.self)
    }
}

extension Message {
    /// The message's content only, `{"MsgBody":[…],"CloudCustomData":"…"}` in canonical tim-rest:
    /// what a before-send webhook answers with (IMWireWebhooks). The envelope is not written.
    @usableFromInline package func timRESTContentUTF8Bytes(options: TIMRESTEncodingOptions = .init()) throws(IMWireError) -> [UInt8] {
        try TIMRESTEncoder.encodeContent(self, options: options)
    }
}
