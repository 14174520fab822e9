/// The limits every decoder and encoder starts from, whatever the format: one place, so the
/// options types of the formats stand alone and still agree. (Referenced by their public
/// initialisers' default arguments, hence `@usableFromInline`.)
@usableFromInline
package enum DefaultLimits {
    /// The deepest nesting, in message levels: 100 merger layers (3 message levels each) plus
    /// headroom — everything the `tencent` profile allows (a merger nested 100 layers deep is about
    /// 303 message levels).
    @usableFromInline package static let maxDepth = 320
    /// The largest input, in bytes: 8 MiB.
    @usableFromInline package static let maxInputSize = 8 * 1024 * 1024
}
