/// An optional value stored out of line (one allocation when present, 8 bytes inline), for the
/// model's singular sub-message fields such as ``Message/offlinePushInfo``.
package enum Indirect<Value: Hashable & Sendable>: Hashable, Sendable {
    case none
    indirect case some(Value)

    @inline(__always)
    package init(_ value: Value?) {
        if let value { self = .some(value) } else { self = .none }
    }

    @inline(__always)
    package var value: Value? {
        if case .some(let value) = self { return value }
        return nil
    }
}
