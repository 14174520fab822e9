import IMWireCore
import IMWireJSONText

/// How ``Message/init(jsonUTF8Bytes:options:)-(Bytes,_)`` reads JSON.
public struct JSONDecodingOptions: Sendable, Hashable {
    /// Skip keys that are not fields of the schema (and enum names it does not know, which then
    /// read as absent) instead of failing with `unknown_field` / `invalid_value`. Off by default:
    /// strict decoding. What is skipped goes to a ``DecodingReport`` when the caller passes one
    /// (`init(jsonUTF8Bytes:options:report:)`), with its path and the field it was probably meant
    /// to be; otherwise it is dropped.
    public var ignoreUnknownFields: Bool
    /// The deepest nesting accepted: message levels, plus one per array or object level inside a
    /// skipped unknown value. Default as for binary: 320.
    public var maxDepth: Int
    /// The largest input accepted, in bytes. Default 8 MiB.
    public var maxInputSize: Int

    public init(
        ignoreUnknownFields: Bool = false,
        maxDepth: Int = DefaultLimits.maxDepth,
        maxInputSize: Int = DefaultLimits.maxInputSize
    ) {
        self.ignoreUnknownFields = ignoreUnknownFields
        self.maxDepth = maxDepth
        self.maxInputSize = maxInputSize
    }
}
