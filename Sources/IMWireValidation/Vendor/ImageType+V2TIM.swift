import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

extension ImageType {
    /// The type for a V2TIM `V2TIMImageType` value: its bit values ORIGIN 1, THUMB 2, LARGE 4
    /// (our numbering, shared by Tencent REST and ZIM, is ORIGIN 1, LARGE 2, THUMB 3). `nil` for
    /// any other value, combinations of bits included.
    public init?(v2timImageType value: Int) {
        switch value {
        case 1: self = .origin
        case 2: self = .thumb
        case 4: self = .large
        default: return nil
        }
    }

    /// The V2TIM `V2TIMImageType` bit value (ORIGIN 1, THUMB 2, LARGE 4), or `nil` for
    /// UNSPECIFIED and unrecognized numbers.
    public var v2timImageType: Int? {
        switch self {
        case .origin: 1
        case .thumb: 2
        case .large: 4
        case .unspecified, .unrecognized: nil
        }
    }
}
