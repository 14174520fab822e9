import IMWireCore
import IMWireJSONText

/// Where the tim-rest decoder or encoder is, as a stack of keys and indices, turned into a path such
/// as `MsgBody[1].MsgContent.Text` (REST) or `elems[0].merger.messages[2]` (model) only when an error
/// needs one: building a path string at every level would cost time and memory quadratic in the
/// nesting.
struct TIMRESTPath {
    private enum Component {
        case key(String)
        case index(Int)
    }

    private var components: [Component] = []

    mutating func push(_ key: String) { components.append(.key(key)) }
    mutating func push(_ index: Int) { components.append(.index(index)) }
    mutating func pop() { components.removeLast() }

    /// Paths deeper than this many components keep their first and last ``shownAtEachEnd``, with
    /// the number left out between: an error 10,000 levels down needs no 400 KB path to be read
    /// (the default depth limit stays far below, so real paths are whole).
    static let longest = 1_024
    static let shownAtEachEnd = 64

    /// `MsgBody[1].MsgContent`; empty at the root.
    var rendered: String {
        guard components.count > Self.longest else { return Self.render(components[...]) }
        let head = Self.render(components.prefix(Self.shownAtEachEnd))
        let tail = Self.render(components.suffix(Self.shownAtEachEnd))
        let skipped = components.count - 2 * Self.shownAtEachEnd
        return head + "…(\(skipped) more)…" + (tail.first == "[" ? "" : ".") + tail
    }

    private static func render(_ components: ArraySlice<Component>) -> String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// At the root object: nothing pushed.
    var isRoot: Bool { components.isEmpty }

    /// ``rendered``, or `nil` at the root (an error without a path).
    var renderedOrNil: String? {
        components.isEmpty ? nil : rendered
    }

    /// The path of member `key` of the current object.
    func rendered(appending key: String) -> String {
        let text = rendered
        return text.isEmpty ? key : text + "." + key
    }
}
