import IMWireCore
import IMWireBinary

/// What a ``ViewList`` holds: message views and string views. Only IMWire's types conform.
public protocol _ViewListElement {
    /// Implementation detail: the element whose value starts at word `value` of `node`'s decode.
    static func _element(of node: _ViewNode, at value: Int) -> Self
}
