extension Elem {
    /// A text elem: `Elem.text("hello")`.
    public static func text(_ text: String) -> Elem { .text(TextElem(text: text)) }

    /// A location elem (V2TIM `createLocationMessage`). Degrees; validation checks the ranges.
    public static func location(_ desc: String = "", longitude: Double, latitude: Double) -> Elem {
        .location(LocationElem(desc: desc, longitude: longitude, latitude: latitude))
    }
}

extension Message {
    /// The literal user ID that means "@all" in ``atUserList`` (V2TIM's `kImSDK_MesssageAtALL`,
    /// spelled with three s's).
    public static let atAllUserID = "__kImSDK_MesssageAtALL__"
    /// The other spelling of the @all ID (two s's), which some clients send. It means @all wherever
    /// IMWire asks (``isAtAllUserID(_:)``, validation, tim-rest); binary and JSON keep it as it came,
    /// and tim-rest, whose @all is a flag, writes `GroupAtAllFlag` 1 for it.
    public static let atAllUserIDAlternateSpelling = "__kImSDK_MessageAtALL__"

    /// Whether `userID` is the @all ID, in either spelling.
    public static func isAtAllUserID(_ userID: String) -> Bool {
        userID == atAllUserID || userID == atAllUserIDAlternateSpelling
    }

    /// Whether ``atUserList`` mentions everyone: it holds the @all ID, in either spelling.
    public var mentionsAll: Bool {
        atUserList.contains(where: Message.isAtAllUserID)
    }

    /// The users ``atUserList`` mentions by ID, in order: every entry but the @all ID.
    public var mentionedUserIDs: [String] {
        atUserList.filter { !Message.isAtAllUserID($0) }
    }
}
