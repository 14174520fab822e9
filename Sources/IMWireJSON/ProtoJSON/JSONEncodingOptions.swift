import IMWireCore
import IMWireJSONText

/// How ``Message/jsonUTF8Bytes(options:)`` writes JSON.
public struct JSONEncodingOptions: Sendable, Hashable {
    /// Indent with two spaces and put a space after each `:`. Off by default: the canonical form
    /// is compact.
    public var prettyPrinted: Bool
    /// The deepest nesting written, in message levels (as ``BinaryEncodingOptions/maxDepth``).
    public var maxDepth: Int

    public init(prettyPrinted: Bool = false, maxDepth: Int = DefaultLimits.maxDepth) {
        self.prettyPrinted = prettyPrinted
        self.maxDepth = maxDepth
    }
}
