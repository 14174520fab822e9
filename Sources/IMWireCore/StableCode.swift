/// The shape of IMWire's stable, machine-readable codes: ``IMWireError/Code``,
/// ``Violation/Code``, ``SkippedKey/Reason`` and the webhook package's `WebhookError.Code`.
///
/// Each is a struct over a private enum of snake_case names (swift-asn1's pattern), so a later
/// version adds codes without breaking a `switch` in your code: compare with the static members
/// (`error.code == .truncated`) instead. This protocol gives them the same
/// ``description`` and lookup by ``init(name:)``.
public protocol StableCode: Hashable, Sendable, CustomStringConvertible {
    /// The stable snake_case name, for example `truncated` or `content_too_large`.
    var name: String { get }
    /// Every code this version can produce, in a stable order.
    static var all: [Self] { get }
}

extension StableCode {
    /// The ``name``.
    public var description: String { name }

    /// Looks a code up by its ``name``; `nil` for a name this version does not know.
    public init?(name: String) {
        guard let code = Self.all.first(where: { $0.name == name }) else { return nil }
        self = code
    }
}
