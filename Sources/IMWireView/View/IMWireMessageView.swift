import IMWireCore
import IMWireBinary

/// A read-only view of one message type's fields over borrowed bytes: the `View` of every
/// generated message type (``Message/View``, ``Elem/View``…). Only IMWire's generated views
/// conform.
public protocol IMWireMessageView: _ViewListElement {
    /// The owned type this view reads (``Message`` for ``Message/View``).
    associatedtype Owned: ViewableMessage
    /// Implementation detail: a view of the node given. Not for use outside IMWire.
    init(_viewNode: _ViewNode)
}

extension IMWireMessageView {
    @inlinable @inline(__always)
    public static func _element(of node: _ViewNode, at value: Int) -> Self { Self(_viewNode: node.child(value)) }
}
