/// Equality of double fields in the model: by bit pattern (so `-0.0 != 0.0`, as on the wire and
/// in JSON), except that all NaNs are equal (so equality is reflexive, and a NaN survives JSON,
/// which has a single "NaN", as an equal value even though its payload bits are gone).
@inline(__always)
func sameDouble(_ lhs: Double, _ rhs: Double) -> Bool {
    lhs.bitPattern == rhs.bitPattern || (lhs.isNaN && rhs.isNaN)
}

/// The hash key consistent with ``sameDouble(_:_:)``.
@inline(__always)
func doubleHashKey(_ value: Double) -> UInt64 {
    value.isNaN ? Double.nan.bitPattern : value.bitPattern
}
