extension Elem {
    /// A text elem: `Elem.text("hello")`.
    public static func text(_ text: String) -> Elem { .text(TextElem(text: text)) }

    /// A location elem (V2TIM `createLocationMessage`). Degrees; validation checks the ranges.
    public static func location(_ desc: String = "", longitude: Double, latitude: Double) -> Elem {
        .location(LocationElem(desc: desc, longitude: longitude, latitude: latitude))
    }
}

extension Message {
    /// The literal user ID that means "@all" in ``atUserList`` (the SDK spells it with three s's).
    public static let atAllUserID = "__kImSDK_MesssageAtALL__"
    /// A misspelling some clients send; accepted on input and normalised to ``atAllUserID``.
    public static let atAllUserIDAlternateSpelling = "__kImSDK_MessageAtALL__"
}
