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

/// How ``Message/timRESTUTF8Bytes(options:)->[UInt8]`` writes Tencent Cloud IM REST JSON ("tim-rest").
public struct TIMRESTEncodingOptions: Sendable, Hashable {
    /// Indent with two spaces and put a space after each `:`. Off by default: the canonical form
    /// is compact.
    public var prettyPrinted: Bool
    /// The deepest nesting written, in message levels (as ``TIMRESTDecodingOptions/maxDepth``);
    /// a deeper model is refused with `depth_limit_exceeded`.
    public var maxDepth: Int
    /// Leave out the model fields Tencent REST has no key for instead of failing with
    /// `not_representable`: the sub-second part of ``Message/timestampMs``, ``SoundElem/format``,
    /// image UUIDs that differ between the images of one elem (the first non-empty one is kept),
    /// ``MergerElem/layersOverLimit``, ``OfflinePushInfo/iosPushType`` VoIP, ``Message/barrage``
    /// (ZIM's barrage type), and unknown fields. Off by default. It never drops a whole elem (group
    /// tips, group system, an unknown elem kind) or a signal (``Message/signal``), never rewrites
    /// bytes that are not UTF-8, never clamps a number: those always fail.
    public var allowsLossyConversion: Bool

    /// Options for writing tim-rest; the defaults give the canonical, lossless form.
    public init(
        prettyPrinted: Bool = false,
        maxDepth: Int = DefaultLimits.maxDepth,
        allowsLossyConversion: Bool = false
    ) {
        self.prettyPrinted = prettyPrinted
        self.maxDepth = maxDepth
        self.allowsLossyConversion = allowsLossyConversion
    }
}
