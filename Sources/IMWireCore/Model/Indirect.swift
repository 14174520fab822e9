/// An optional value stored out of line (one allocation when present, 8 bytes inline), for the
/// model's singular sub-message fields such as ``Message/offlinePushInfo``.
///
/// `@usableFromInline`: the model's properties that read it are `@inlinable`, so a read in the
/// caller's module is a load, not a call that copies the whole value out.
@usableFromInline
package enum Indirect<Value: Hashable & Sendable>: Hashable, Sendable {
    case none
    indirect case some(Value)

    @inlinable
    package init(_ value: Value?) {
        if let value { self = .some(value) } else { self = .none }
    }

    @inlinable
    package var value: Value? {
        if case .some(let value) = self { return value }
        return nil
    }
}
