import IMWireCore
import IMWireJSONText

/// The webhook bodies the tim-rest reader recognises by their `CallbackCommand`, and the keys
/// Tencent always sends in each that the model reads: a body without one is not a body Tencent
/// sends (a misspelt `From_account` would otherwise read as a message without a sender), so it is
/// refused with `missing_field`.
///
/// The key sets are those of every published revision of the webhook pages (Docs/tim-rest-keys.md,
/// "Webhook bodies: required keys"): the example bodies and field tables of "Before a One-to-One
/// Message Is Sent", "After a One-to-One Message Is Sent", "Before Group Message Is Sent" and "After
/// a Group Message Is Sent". Keys they always carry that the model does not read (`Type`,
/// `Operator_Account`, `EventTime`) are not required: their absence loses nothing. A body without
/// `CallbackCommand` — a send request, a history entry, IMWire's own output — needs only `MsgBody`:
/// in a request the sender is optional (the admin account sends).
enum TIMRESTCallback: String, CaseIterable {
    case c2cBeforeSendMsg = "C2C.CallbackBeforeSendMsg"
    case c2cAfterSendMsg = "C2C.CallbackAfterSendMsg"
    case groupBeforeSendMsg = "Group.CallbackBeforeSendMsg"
    case groupAfterSendMsg = "Group.CallbackAfterSendMsg"

    /// The keys every body of this kind has, in the pages' order.
    var requiredKeys: [TIMRESTEnvelopeKey] {
        switch self {
        case .c2cBeforeSendMsg, .c2cAfterSendMsg: Self.c2cKeys
        case .groupBeforeSendMsg: Self.groupBeforeKeys
        case .groupAfterSendMsg: Self.groupAfterKeys
        }
    }

    private static let c2cKeys: [TIMRESTEnvelopeKey] = [.fromAccount, .toAccount, .msgSeq, .msgRandom, .msgTime, .msgKey, .msgBody]
    /// Sent before the message has a sequence number or a time.
    private static let groupBeforeKeys: [TIMRESTEnvelopeKey] = [.groupID, .fromAccount, .random, .msgBody]
    private static let groupAfterKeys: [TIMRESTEnvelopeKey] = [.groupID, .fromAccount, .random, .msgSeq, .msgTime, .msgBody]

    /// The command whose name is `bytes` (UTF-8), without making a `String`: a webhook body's decode
    /// allocates nothing more for its command.
    init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard let slot = Self.table.slot(of: bytes) else { return nil }
        self = Self.allCases[slot]
    }

    /// The commands by their bytes, found as the reader finds keys.
    private static let table = TIMRESTKeyTable(allCases.map(\.rawValue), object: "CallbackCommand")
}
