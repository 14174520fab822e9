import IMWireCore
import IMWireJSONText

extension TUIKitCustomPayload {
    /// A JSON value inside a TUIKit payload.
    public enum Value: Hashable, Sendable {
        case null
        case bool(Bool)
        /// A number, kept as written.
        case number(Number)
        case string(String)
        case array([Value])
        /// An object's members, in order.
        case object([Member])

        /// The string, or `nil` for any other kind of value.
        public var stringValue: String? {
            if case .string(let value) = self { value } else { nil }
        }
    }

    /// A JSON number, kept as its text so that no digit is lost: `101`, `-0.5`, `2.5e3` (RFC 8259
    /// grammar). Two numbers are equal when their text is (`1.0` and `1` differ).
    public struct Number: Hashable, Sendable, CustomStringConvertible {
        /// The number as JSON writes it.
        public let text: String

        /// The number `text` holds, or `nil` when `text` is not a JSON number.
        public init?(_ text: String) {
            var text = text
            // The JSON scanner's number grammar, the one every reader of the library applies.
            let isNumber = text.withUTF8 { bytes in
                (try? JSONScanner.withNumber(in: bytes) { (_, _) throws(IMWireError) in true }) ?? false
            }
            guard isNumber else { return nil }
            self.text = text
        }

        /// An integer.
        public init(_ value: Int) {
            text = String(value)
        }

        /// A finite double, in the shortest form that reads back to it; `nil` for NaN and the
        /// infinities, which JSON has no number for.
        public init?(_ value: Double) {
            guard value.isFinite else { return nil }
            text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        }

        /// Text the reader has checked.
        init(checked text: String) {
            self.text = text
        }

        /// The value as an integer when it is one and fits (`12`, `1.2e1` and `-0` too), else `nil`.
        public var int64Value: Int64? {
            if let value = Int64(text) { return value }
            guard let double = doubleValue, double == double.rounded(), abs(double) < 9.2e18 else { return nil }
            return Int64(double)
        }

        /// The nearest double, or `nil` when the number is too large for one.
        public var doubleValue: Double? {
            Double(text).flatMap { $0.isFinite ? $0 : nil }
        }

        public var description: String { text }
    }
}
