import IMWire

/// Builds a message whose merger nests `layers` deep; the innermost message holds one text elem.
package func nestedMerger(layers: Int) -> Message {
    var message = Message(sender: "inner", elems: [.text("bottom")])
    for layer in 0..<layers {
        message = Message(sender: "l\(layer)", elems: [.merger(MergerElem(title: "t", messages: [message]))])
    }
    return message
}

/// The same nesting written directly as bytes (no encoder recursion, linear time), for depths the
/// encoder refuses: Message{elems: Elem{merger: MergerElem{messages: …}}} `layers` times around
/// Message{elems: Elem{text: TextElem{text: "x"}}}.
package func nestedMergerBytes(layers: Int) -> [UInt8] {
    func header(_ field: UInt8, _ length: Int) -> [UInt8] {
        var out: [UInt8] = [field << 3 | 2]
        var length = UInt64(length)
        while length >= 0x80 { out.append(UInt8(length & 0x7F) | 0x80); length >>= 7 }
        out.append(UInt8(length))
        return out
    }
    let core: [UInt8] = [0x52, 0x05, 0x0A, 0x03, 0x0A, 0x01, 0x78]  // elems{text{text:"x"}}
    var headers: [[UInt8]] = []  // innermost first
    var size = core.count
    for _ in 0..<layers {
        for field: UInt8 in [5, 10, 10] {  // MergerElem.messages, Elem.merger, Message.elems
            let bytes = header(field, size)
            headers.append(bytes)
            size += bytes.count
        }
    }
    var out: [UInt8] = []
    out.reserveCapacity(size)
    for bytes in headers.reversed() { out += bytes }
    return out + core
}
