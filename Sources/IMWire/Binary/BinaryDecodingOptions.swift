/// Limits that keep decoding hostile input safe. The defaults admit everything the `tencent`
/// profile allows (a merger nested 100 layers deep is about 303 message levels) and suit a server.
public struct BinaryDecodingOptions: Sendable, Hashable {
    /// Default ``maxDepth``: 100 merger layers (3 message levels each) plus headroom.
    public static let defaultMaxDepth = DefaultLimits.maxDepth
    /// Default ``maxInputSize``: 8 MiB.
    public static let defaultMaxInputSize = DefaultLimits.maxInputSize

    /// The deepest nesting accepted, counted in message levels on every recursive path: the root
    /// message is level 1; every sub-message, map entry and unknown group adds one.
    public var maxDepth: Int
    /// The largest input accepted, in bytes.
    public var maxInputSize: Int

    public init(maxDepth: Int = defaultMaxDepth, maxInputSize: Int = defaultMaxInputSize) {
        self.maxDepth = maxDepth
        self.maxInputSize = maxInputSize
    }
}

/// Limits for encoding a model value built in code.
public struct BinaryEncodingOptions: Sendable, Hashable {
    /// The deepest nesting the encoder writes (same counting as ``BinaryDecodingOptions/maxDepth``);
    /// a deeper model is refused with `depth_limit_exceeded` rather than exhausting the stack.
    public var maxDepth: Int

    public init(maxDepth: Int = DefaultLimits.maxDepth) {
        self.maxDepth = maxDepth
    }
}
