import IMWireCore

/// Limits for encoding a model value built in code.
public struct BinaryEncodingOptions: Sendable, Hashable {
    /// The deepest nesting the encoder writes (same counting as ``BinaryDecodingOptions/maxDepth``);
    /// a deeper model is refused with `depth_limit_exceeded` rather than exhausting the stack.
    public var maxDepth: Int

    public init(maxDepth: Int = DefaultLimits.maxDepth) {
        self.maxDepth = maxDepth
    }
}
