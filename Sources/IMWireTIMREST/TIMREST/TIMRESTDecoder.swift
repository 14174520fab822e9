import IMWireCore
import IMWireJSONText

/// Reads Tencent Cloud IM REST JSON ("tim-rest") into a ``Message``: first through the one-pass
/// ``TIMRESTReader``; through the tape below for whatever that reader leaves (errors, reports, a few
/// shapes), so that every error and report is this decoder's.
///
/// The input is tokenized once into a flat ``JSONTape`` by the lexer both JSON dialects share (UTF-8,
/// escapes, numbers, duplicate keys, depth and size limits as for proto3 JSON), then mapped key by
/// key: each object's members are matched against the keys its kind documents in one pass, by their
/// bytes, and each value is read once, straight into the model. Time and memory are linear in the
/// input whatever its shape; paths for errors are put together only when there is an error.
///
/// Accepted shapes: a bare `MsgBody` array, a single `{"MsgType", "MsgContent"}` element, or any
/// object holding `MsgBody` (a `sendmsg` / `send_group_msg` request, a `*.CallbackAfterSendMsg`
/// webhook body, a history entry, a `MsgList` entry). A webhook body (`CallbackCommand`) must have
/// the keys Tencent always sends for its kind (``TIMRESTCallback``). Keys the model has no field
/// for, and keys Tencent does not document, are skipped: reported when the caller asks for a
/// ``DecodingReport`` (or refused with ``TIMRESTDecodingOptions/rejectsUnknownKeys``), with the key
/// a misspelt one was probably meant to be. Docs/tim-rest-keys.md lists every documented key.
///
/// The report costs nothing until it is asked for: objects are read through their key tables as
/// always, and only a reporting (or strict) decode walks each object's keys a second time for the
/// ones no table holds.
package struct TIMRESTDecoder {
    let tape: JSONTape
    let maxDepth: Int
    var path = TIMRESTPath()
    var stackGuard = StackGuard()
    /// Where skipped keys go when the caller asked for a report; `nil` otherwise.
    let skips: UnsafeMutablePointer<[SkippedKey]>?
    /// ``TIMRESTDecodingOptions/rejectsUnknownKeys``.
    let rejectsUnknownKeys: Bool
    /// Whether skipped keys are looked for: for a report, or to refuse them.
    var auditing: Bool { skips != nil || rejectsUnknownKeys }

    static func decode(_ buffer: UnsafeBufferPointer<UInt8>, options: TIMRESTDecodingOptions) throws(IMWireError) -> Message {
        try decode(buffer, options: options, skips: nil)
    }

    /// Decodes as ``decode(_:options:)`` and replaces `report`'s content with the keys skipped.
    static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, options: TIMRESTDecodingOptions, report: inout DecodingReport
    ) throws(IMWireError) -> Message {
        var skips: [SkippedKey] = []
        let message = try withUnsafeMutablePointer(to: &skips) { (pointer) throws(IMWireError) in
            try decode(buffer, options: options, skips: pointer)
        }
        report = DecodingReport(skippedKeys: skips)
        return message
    }

    static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, options: TIMRESTDecodingOptions, skips: UnsafeMutablePointer<[SkippedKey]>?
    ) throws(IMWireError) -> Message {
        guard buffer.count <= options.maxInputSize else {
            throw .inputTooLarge(size: buffer.count, limit: options.maxInputSize)
        }
        // The one-pass reader first, unless skipped keys are looked for; whatever it leaves, the
        // tape decoder reads from the start, with its errors and reports.
        if skips == nil, !options.rejectsUnknownKeys, let message = TIMRESTReader.read(buffer, options: options) {
            return message
        }
        return try decodeFromTape(buffer, options: options, skips: skips)
    }

    /// Decodes through the tape: the reference the one-pass reader is held to (``TIMRESTReader``),
    /// and the decoder of every input that reader leaves.
    package static func decodeFromTape(
        _ buffer: UnsafeBufferPointer<UInt8>, options: TIMRESTDecodingOptions, skips: UnsafeMutablePointer<[SkippedKey]>?
    ) throws(IMWireError) -> Message {
        guard buffer.count <= options.maxInputSize else {
            throw .inputTooLarge(size: buffer.count, limit: options.maxInputSize)
        }
        let jsonDepth = Self.jsonDepth(forMessageDepth: options.maxDepth)
        let tape: JSONTape
        do {
            tape = try JSONTape(buffer, maxDepth: jsonDepth)
        } catch where error.code == .depthLimitExceeded {
            // The lexer's limit is derived from maxDepth: say it in the terms the caller set.
            throw .timRESTDepthLimitExceeded(limit: options.maxDepth, jsonDepth: jsonDepth, offset: error.offset)
        }
        var decoder = TIMRESTDecoder(tape: tape, options: options, skips: skips)
        do {
            return try decoder.document()
        } catch {
            // Errors about the document as a whole have the empty path: locate them at its start.
            guard error.path?.isEmpty ?? true, error.offset == nil else { throw error }
            throw error.at(offset: 0)
        }
    }

    /// The JSON nesting that `messageDepth` message levels need at most: each relay layer is three
    /// message levels (message, elem, content) and five JSON levels (message object, MsgBody array,
    /// element object, MsgContent object, MsgList array); the deepest leaf (an ImageInfoArray entry,
    /// GroupAtInfo, ApnsInfo) adds a few more. Deeper JSON — also inside ignored keys — is refused
    /// by the lexer.
    static func jsonDepth(forMessageDepth messageDepth: Int) -> Int {
        let depth = max(messageDepth, 1)
        return depth > Int.max / 8 ? Int.max : depth * 5 / 3 + 8
    }

    init(tape: JSONTape, options: TIMRESTDecodingOptions, skips: UnsafeMutablePointer<[SkippedKey]>?) {
        self.tape = tape
        self.maxDepth = options.maxDepth
        self.skips = skips
        self.rejectsUnknownKeys = options.rejectsUnknownKeys
    }

    // MARK: - Shapes

    mutating func document() throws(IMWireError) -> Message {
        switch tape[0].kind {
        case .array:
            try checkDepth(1)
            var message = Message()
            message.elems = try elems(0, depth: 2)
            return message
        case .object:
            // Read before the shape is known: the keys no table holds are looked for below, once
            // the object's kind is.
            let members = TIMRESTMembers<TIMRESTEnvelopeKey>(slots: slots(0, TIMRESTEnvelopeKey.table), index: 0)
            let callback = try callback(members)
            if let callback {
                for key in callback.requiredKeys where members[key] == nil {
                    throw missing(key.name, in: "a \(callback.rawValue) body", object: 0, atKey: true)
                }
            }
            if callback != nil || members[.msgBody] != nil {
                if auditing {
                    try auditCallbackCommand(members)
                    try audit(0, TIMRESTEnvelopeKey.table, object: callback.map { "a \($0.rawValue) body" })
                }
                return try message(members, depth: 1)
            }
            if members[.msgType] != nil || members[.msgContent] != nil {
                try checkDepth(1)
                var message = Message()
                message.elems = [try elem(0, depth: 2)]
                return message
            }
            let meant = suggestion(for: "MsgBody", in: 0) ?? suggestion(for: "MsgType", in: 0)
            throw .missingField(
                "the input object has neither \"MsgBody\" (a message) nor \"MsgType\" (a single element)"
                    + KeySuggestion.clause(meant),
                offset: 0)
        default:
            throw .invalidValue(
                "expected a MsgBody array or a JSON object, found \(typeName(0))",
                offset: 0)
        }
    }

    mutating func checkDepth(_ depth: Int) throws(IMWireError) {
        guard depth <= maxDepth else {
            throw .depthLimitExceeded(.timREST, limit: maxDepth, path: path.renderedOrNil)
        }
        try stackGuard.check(depth: depth, path: path.renderedOrNil)
    }
}

/// The content types the flat tables fill: they start from their all-default value.
protocol TIMRESTDefaultInitializable { init() }
extension TextElem: TIMRESTDefaultInitializable {}
extension LocationElem: TIMRESTDefaultInitializable {}
extension FaceElem: TIMRESTDefaultInitializable {}
extension CustomElem: TIMRESTDefaultInitializable {}
extension SoundElem: TIMRESTDefaultInitializable {}
extension Image: TIMRESTDefaultInitializable {}
extension FileElem: TIMRESTDefaultInitializable {}
extension VideoElem: TIMRESTDefaultInitializable {}
