import IMWireCore
import IMWireJSONText

/// How ``Message/init(timRESTUTF8Bytes:options:)-(Bytes,_)`` reads Tencent Cloud IM REST JSON ("tim-rest").
public struct TIMRESTDecodingOptions: Sendable, Hashable {
    /// The deepest nesting accepted, in message levels counted as for binary
    /// (``BinaryDecodingOptions/maxDepth``): the root message is level 1, each elem, elem content,
    /// `ImageInfoArray` entry and `OfflinePushInfo` adds one, so every `TIMRelayElem` layer costs
    /// three. Default 320, which admits the `tencent` profile's 100 merger layers. The JSON text
    /// itself may nest arrays and objects 5/3 as deep plus 8 (541 levels by default): a relay layer
    /// is five JSON levels, and values of ignored keys count too.
    public var maxDepth: Int
    /// The largest input accepted, in bytes. Default 8 MiB.
    public var maxInputSize: Int
    /// Refuse a document instead of skipping a key no Tencent page documents for its object (a
    /// misspelling such as `From_account`: `unknown_field`, with the key it was meant to be), a
    /// value the key does not define (a `SendMsgControl` entry, an unknown `CallbackCommand`:
    /// `invalid_value`) or a second spelling that disagrees with the one read (`Random` next to a
    /// different `MsgRandom`: `duplicate_key`; `MsgNum` next to a `MsgList` of another length:
    /// `invalid_value`). Keys Tencent documents that the model has no field for (`EventTime`,
    /// `SyncOtherMachine`, …) are never refused: every real webhook body has some. Off by default:
    /// skipped keys are then reported to a caller that passes a ``DecodingReport`` and otherwise
    /// dropped (``SkippedKey/Reason`` lists the kinds).
    public var rejectsUnknownKeys: Bool

    /// Limits for reading tim-rest; the defaults suit a server.
    public init(
        maxDepth: Int = DefaultLimits.maxDepth,
        maxInputSize: Int = DefaultLimits.maxInputSize,
        rejectsUnknownKeys: Bool = false
    ) {
        self.maxDepth = maxDepth
        self.maxInputSize = maxInputSize
        self.rejectsUnknownKeys = rejectsUnknownKeys
    }
}
