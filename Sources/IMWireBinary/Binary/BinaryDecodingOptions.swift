import IMWireCore

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
