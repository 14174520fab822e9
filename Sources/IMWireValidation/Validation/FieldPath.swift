import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// The field path of the value being validated, e.g. `elems[0].merger.messages[12].elems[0]`,
/// kept as a stack of names and indices with push/pop marks: a walk builds no string and copies no
/// byte until it reports a violation (``rendered(_:index:)``).
struct FieldPath {
    private enum Name {
        case field(StaticString)
        /// An elem's `content` member (its proto name, ``ElemKind/rawValue``).
        case kind(ElemKind)
    }

    private struct Component {
        let name: Name
        /// The index in a repeated field; -1 for none.
        let index: Int
    }

    private var components: [Component] = []

    init() {
        // A chat message's deepest path (`elems[0].image.images[2]`) without growing.
        components.reserveCapacity(8)
    }

    /// Appends `.field` (or `field` at the root), and `[index]` when given. Returns the mark to pop
    /// back to.
    mutating func push(_ field: StaticString, index: Int? = nil) -> Int {
        push(.field(field), index: index)
    }

    /// Appends the proto name of the elem member `kind` (`.image`).
    mutating func push(_ kind: ElemKind) -> Int {
        push(.kind(kind), index: nil)
    }

    private mutating func push(_ name: Name, index: Int?) -> Int {
        let mark = components.count
        components.append(Component(name: name, index: index ?? -1))
        return mark
    }

    /// Returns to the path as it was when `mark` was returned by ``push(_:index:)``.
    mutating func pop(to mark: Int) {
        // One at a time: `removeLast(_:)` goes through the generic `replaceSubrange`.
        while components.count > mark { components.removeLast() }
    }

    /// The current path with `leaf` (and `[index]`) appended; the current path when `leaf` is empty.
    func rendered(_ leaf: String = "", index: Int? = nil) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 * (components.count + 1))
        for component in components {
            switch component.name {
            case .field(let name): name.withUTF8Buffer { Self.append($0, index: component.index, to: &bytes) }
            case .kind(let kind): Self.append(kind.rawValue, index: component.index, to: &bytes)
            }
        }
        if !leaf.isEmpty { Self.append(leaf, index: index ?? -1, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `.name[index]` (no dot at the start, no brackets for an index of -1).
    private static func append(_ name: some Collection<UInt8>, index: Int, to bytes: inout [UInt8]) {
        if !bytes.isEmpty { bytes.append(UInt8(ascii: ".")) }
        bytes.append(contentsOf: name)
        guard index >= 0 else { return }
        bytes.append(UInt8(ascii: "["))
        // A string of up to 15 bytes is kept inline: no allocation for the digits.
        bytes.append(contentsOf: String(index).utf8)
        bytes.append(UInt8(ascii: "]"))
    }

    private static func append(_ name: String, index: Int, to bytes: inout [UInt8]) {
        var name = name
        name.withUTF8 { append($0, index: index, to: &bytes) }
    }
}
