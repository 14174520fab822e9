/// The `CallbackCommand` of a Tencent Cloud IM webhook: which event the callback reports.
///
/// Any command Tencent sends is kept as it is spelled (``rawValue``); the four message commands
/// have constants, and ``beforeSend`` tells what a before-send command lets the app answer.
public struct CallbackCommand: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The command exactly as Tencent spells it, for example `C2C.CallbackBeforeSendMsg`.
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// "Before a One-to-One Message Is Sent": the app may let the message through, refuse it,
    /// discard it silently or replace its content.
    public static let c2cBeforeSendMsg = CallbackCommand("C2C.CallbackBeforeSendMsg")
    /// "After a One-to-One Message Is Sent": a notification; Tencent ignores the answer's code.
    public static let c2cAfterSendMsg = CallbackCommand("C2C.CallbackAfterSendMsg")
    /// "Before Group Message Is Sent": as ``c2cBeforeSendMsg``, for a group message.
    public static let groupBeforeSendMsg = CallbackCommand("Group.CallbackBeforeSendMsg")
    /// "After a Group Message Is Sent": a notification; Tencent ignores the answer's code.
    public static let groupAfterSendMsg = CallbackCommand("Group.CallbackAfterSendMsg")

    /// What a before-send message callback lets the app answer: the range of its own refusal codes
    /// and the error the sender sees when the app refuses with plain `1`. `nil` for every other
    /// command: IMWire builds refusals and rewrites only for the two before-send message callbacks,
    /// the ones whose pages it models (other before-event callbacks, such as
    /// `Group.CallbackBeforeCreateGroup`, can be answered with ``CallbackResponse/allow`` only).
    public var beforeSend: BeforeSend? {
        switch self {
        case .c2cBeforeSendMsg: BeforeSend(appCodes: 120_001...130_000, senderErrorForRefusal: 20006)
        case .groupBeforeSendMsg: BeforeSend(appCodes: 10100...10200, senderErrorForRefusal: 10016)
        default: nil
        }
    }

    /// The answers a before-send message callback takes, from its Tencent page ("Before a
    /// One-to-One Message Is Sent", "Before Group Message Is Sent").
    public struct BeforeSend: Hashable, Sendable {
        /// The `ErrorCode`s an app may refuse with so that the sender's client receives that code
        /// and the `ErrorInfo`: [120001, 130000] for one-to-one messages, [10100, 10200] for group
        /// messages.
        public var appCodes: ClosedRange<Int>
        /// What the sender receives when the app refuses with `ErrorCode` 1: 20006 for one-to-one
        /// messages, 10016 for group messages.
        public var senderErrorForRefusal: Int
    }
}
