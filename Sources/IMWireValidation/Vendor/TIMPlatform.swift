import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// The operator platforms legacy TIM names in a group tips or group system elem's `platform`
/// (Tencent Cloud IM, legacy "Group Management (iOS)" guide, "Group Event Messages" and "Group System
/// Messages": "Valid values: iOS, Android, Windows, Mac, Web, RESTful API, Unknown"). The field
/// stays a string on the wire; this is its typed reading. The `tencent` profile reports any other
/// non-empty value (``Violation/Code/platformNotRecognized``).
public enum TIMPlatform: String, Hashable, Sendable, CaseIterable {
    case iOS = "iOS"
    case android = "Android"
    case windows = "Windows"
    case mac = "Mac"
    case web = "Web"
    /// The REST API (a server-side operator).
    case restAPI = "RESTful API"
    case unknown = "Unknown"
}

extension GroupTipsElem {
    /// `platform` as one of legacy TIM's values; `nil` when it is empty or another string. Setting
    /// it writes the value's name (`nil` clears `platform`).
    public var timPlatform: TIMPlatform? {
        get { TIMPlatform(rawValue: platform) }
        set { platform = newValue?.rawValue ?? "" }
    }
}

extension GroupSystemElem {
    /// `platform` as one of legacy TIM's values; `nil` when it is empty or another string. Setting
    /// it writes the value's name (`nil` clears `platform`).
    public var timPlatform: TIMPlatform? {
        get { TIMPlatform(rawValue: platform) }
        set { platform = newValue?.rawValue ?? "" }
    }
}
