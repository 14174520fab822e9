public import IMWireTIMREST
public import IMWireValidation

/// A message callback's body, read into IMWire's `Message`, and the answers it takes.
///
/// For the before-send callbacks (`C2C.CallbackBeforeSendMsg`, `Group.CallbackBeforeSendMsg`)
/// Tencent's pages "Before a One-to-One Message Is Sent" and "Before Group Message Is Sent" allow
/// four answers: let it through (``allow()``), refuse it (``refuse(code:reason:)``), discard it
/// silently (``discard()``), or deliver a changed message (``replace(elems:cloudCustomData:profile:)``).
/// The after-send callbacks are notifications: only ``allow()``.
public struct MessageCallback: Hashable, Sendable {
    /// The callback's command, from the URL (``CallbackQuery/command``).
    public let command: CallbackCommand
    /// The message the body carries: sender, target, sequence, time, key, elems, custom data.
    public let message: Message

    /// Reads a callback body with IMWire's tim-rest reader (`Message(timRESTUTF8Bytes:)`): every
    /// key of Tencent's before- and after-send bodies is read or knowingly ignored
    /// (`CallbackCommand`, `Operator_Account`, `Type`, `EventTime`, …).
    ///
    /// Throws ``WebhookError/Code/malformedBody`` with the reader's `IMWireError` as
    /// ``WebhookError/underlying`` (its code, byte offset or REST path).
    public init<Bytes: Collection>(
        command: CallbackCommand, body: Bytes, options: TIMRESTDecodingOptions = .init()
    ) throws(WebhookError) where Bytes.Element == UInt8 {
        do {
            message = try Message(timRESTUTF8Bytes: body, options: options)
        } catch {
            throw WebhookError(
                code: .malformedBody, reason: "the body of \(command) is not a message: \(error.reason)", path: error.path,
                underlying: error)
        }
        self.command = command
    }

    /// A callback whose body was read some other way.
    public init(command: CallbackCommand, message: Message) {
        self.command = command
        self.message = message
    }

    /// Let the message through unchanged (`ErrorCode` 0). The only answer to an after-send
    /// callback.
    public func allow() -> CallbackResponse { .allow }

    /// Refuse the message: it is not delivered.
    ///
    /// `code` 1 (the default) makes Tencent answer the sender with its own error (20006 for a
    /// one-to-one message, 10016 for a group message) and not show `reason`; a code of the
    /// command's app range (``CallbackCommand/BeforeSend/appCodes``: [120001, 130000] one-to-one,
    /// [10100, 10200] group) reaches the sender's client together with `reason`. Throws
    /// ``WebhookError/Code/answerNotAllowed`` for any other code, or for a command that is not a
    /// before-send message callback.
    public func refuse(code: Int = 1, reason: String = "") throws(WebhookError) -> CallbackResponse {
        let rules = try beforeSend("refuse")
        guard code == 1 || rules.appCodes.contains(code) else {
            throw WebhookError(
                code: .answerNotAllowed,
                reason: "\(command) refuses with ErrorCode 1 or an app code in [\(rules.appCodes.lowerBound), \(rules.appCodes.upperBound)], not \(code)")
        }
        return CallbackResponse(errorCode: code, errorInfo: reason)
    }

    /// Discard the message silently (`ErrorCode` 2): it is not delivered, and the sender is told it
    /// was sent.
    public func discard() throws(WebhookError) -> CallbackResponse {
        _ = try beforeSend("discard")
        return CallbackResponse(errorCode: 2, errorInfo: "")
    }

    /// Deliver other content instead (`ErrorCode` 0 with `MsgBody`, and `CloudCustomData` when
    /// given): the recipients receive `elems`, and — when both callbacks are on — the after-send
    /// callback reports them.
    ///
    /// What Tencent allows, checked here (``WebhookError/Code/rewriteNotAllowed``, with the path of
    /// the elem):
    /// - the content of an image, sound, file or video elem cannot be changed: such an elem in
    ///   `elems` must be one of the original message's, unchanged. Replacing one by text or custom
    ///   content is allowed (Tencent's one-to-one page, "Modifies users' message content").
    /// - the replacement must be writable as tim-rest (no group tips, custom data that is UTF-8, …)
    ///   and, with the original envelope, meet `profile` (default `.tencent`: 12 KB of content, one
    ///   custom elem, …) — Tencent delivers it as a message like any other.
    /// - `elems` is not empty (to deliver nothing, ``discard()``), and `cloudCustomData`, when
    ///   given, is not empty: Tencent does not say whether an empty value clears the sender's, so
    ///   IMWire does not send one. `nil` leaves the sender's custom data as it was.
    public func replace(
        elems: [Elem], cloudCustomData: [UInt8]? = nil, profile: ValidationProfile = .tencent
    ) throws(WebhookError) -> CallbackResponse {
        _ = try beforeSend("replace")
        guard !elems.isEmpty else {
            throw WebhookError(code: .rewriteNotAllowed, reason: "a replacement needs at least one elem; to deliver nothing, discard the message")
        }
        if cloudCustomData?.isEmpty == true {
            throw WebhookError(
                code: .rewriteNotAllowed,
                reason: "Tencent does not document an empty CloudCustomData in a callback answer; pass nil to keep the sender's",
                path: "cloud_custom_data")
        }
        for (index, elem) in elems.enumerated() where Self.isRichMedia(elem) && !message.elems.contains(elem) {
            throw WebhookError(
                code: .rewriteNotAllowed,
                reason: "Tencent does not let a callback change the content of an image, sound, file or video elem; elem \(index) is not one of the original message's",
                path: "elems[\(index)]")
        }

        var replaced = message
        replaced.elems = elems
        if let cloudCustomData { replaced.cloudCustomData = cloudCustomData }
        if let violation = replaced.validate(profile: profile).first {
            throw WebhookError(
                code: .rewriteNotAllowed, reason: "the replacement breaks profile \(profile.name): \(violation.reason)",
                path: violation.path)
        }
        var content = Message(elems: elems)
        content.cloudCustomData = cloudCustomData ?? []
        do {
            return CallbackResponse(errorCode: 0, errorInfo: "", content: try content.timRESTContentUTF8Bytes())
        } catch {
            throw WebhookError(
                code: .rewriteNotAllowed, reason: "tim-rest cannot carry the replacement: \(error.reason)", path: error.path,
                underlying: error)
        }
    }

    private func beforeSend(_ answer: String) throws(WebhookError) -> CallbackCommand.BeforeSend {
        guard let rules = command.beforeSend else {
            throw WebhookError(
                code: .answerNotAllowed,
                reason: "\(command) cannot be answered with \(answer): IMWire builds that answer for C2C.CallbackBeforeSendMsg and Group.CallbackBeforeSendMsg only")
        }
        return rules
    }

    /// The elems whose content Tencent does not let a callback change.
    private static func isRichMedia(_ elem: Elem) -> Bool {
        switch elem.content {
        case .image?, .sound?, .file?, .video?: true
        default: false
        }
    }
}
