import IMWireCore
import IMWireJSONText

/// TUIKit's documented custom message, `custom_message_link`: a text and the link it opens
/// (Tencent Cloud IM, TUIKit guide "Custom Message": `TUILinkCellData` reads `text` and `link`).
///
/// ```swift
/// let link = TUIKitLinkMessage(text: "Welcome to Tencent Cloud IM group",
///                              link: "https://cloud.tencent.com/document/product/269/3794")
/// let elem = try CustomElem(tuikitPayload: link.payload)
/// let back = try TUIKitLinkMessage(try elem.tuikitPayload())
/// ```
public struct TUIKitLinkMessage: Hashable, Sendable {
    /// `custom_message_link`, the guide's businessID.
    public static let businessID = "custom_message_link"

    /// What the cell shows.
    public var text: String
    /// The URL a tap opens.
    public var link: String
    /// The payload's other fields (a `version`, fields an app added), kept in order.
    public var otherFields: [TUIKitCustomPayload.Member]

    public init(text: String, link: String, otherFields: [TUIKitCustomPayload.Member] = []) {
        self.text = text
        self.link = link
        self.otherFields = otherFields
    }

    /// The link message `payload` holds. Throws `invalid_value` (at `businessID`) for a payload of
    /// another kind, `missing_field` when `text` or `link` is absent and `invalid_value` when one
    /// is not a string (at `text` / `link`).
    public init(_ payload: TUIKitCustomPayload) throws(IMWireError) {
        guard payload.businessID == Self.businessID else {
            throw .invalidValue(
                "businessID is \"\(payload.businessID)\", not \"\(Self.businessID)\"",
                path: "businessID")
        }
        func string(_ name: String) throws(IMWireError) -> String {
            guard let value = payload[field: name] else {
                throw .missingField("a \(Self.businessID) payload has a \(name)", path: name)
            }
            guard let string = value.stringValue else {
                throw .invalidValue("\(name) must be a string", path: name)
            }
            return string
        }
        text = try string("text")
        link = try string("link")
        otherFields = payload.fields.filter { $0.name != "text" && $0.name != "link" }
    }

    /// The payload: `businessID`, a `version` if there is one, `text`, `link`, then the other
    /// fields.
    public var payload: TUIKitCustomPayload {
        let versions = otherFields.filter { $0.name == "version" }
        let rest = otherFields.filter { $0.name != "version" }
        return TUIKitCustomPayload(
            businessID: Self.businessID,
            fields: versions + [.init("text", .string(text)), .init("link", .string(link))] + rest)
    }
}
