import IMWireCore
import IMWireJSONText

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
