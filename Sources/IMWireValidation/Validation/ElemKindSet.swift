import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// A set of ``ElemKind``s as one bit per kind (bit ``ElemKind/v2timElemType``, the `content` field
/// number): how ``ValidationProfile`` keeps its kind sets, so that the validator tests a kind with
/// a mask rather than a hash, and copying a profile copies a word rather than retaining a set.
struct ElemKindSet: Hashable, Sendable {
    private var bits: UInt64 = 0

    init() {}

    init(_ kinds: some Sequence<ElemKind>) {
        for kind in kinds { bits |= 1 << UInt64(kind.v2timElemType) }
    }

    func contains(_ kind: ElemKind) -> Bool {
        bits & (1 << UInt64(kind.v2timElemType)) != 0
    }

    /// The kinds, as the profile's public properties give them.
    var kinds: Set<ElemKind> { Set(ElemKind.allCases.filter(contains)) }
}
