import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// Tencent's message length (server error 80002): "the length of a message is the sum
/// of the lengths of all elements; the length of an element is the sum of the lengths of all its
/// fields".
///
/// Counted the same way at every level: a message's content is the sum over its elems; an elem's
/// is the UTF-8 bytes of every string and the length of every bytes value anywhere inside it —
/// repeated strings, map keys and values, sub-messages such as GroupMemberInfo included — where a
/// message nested in a merger contributes its own content (its elems; not its envelope: `msg_id`,
/// `sender`, the target, `cloud_custom_data`, `offline_push_info` and the @ lists are not
/// content, at the root or nested). Numbers, bools, enums and unknown fields count nothing.
enum ContentSize {
    /// The content size of `message` in bytes.
    ///
    /// Iterative at any depth: the messages of a merger go on the counter's worklist (the sum does
    /// not depend on the order), so a message nested 100,000 mergers deep built in code is counted
    /// without recursing once per level.
    static func of(_ message: Message) -> UInt64 {
        var counter = Counter()
        counter.addContent(of: message)
        while let messages = counter.pending.popLast() {
            for nested in messages { counter.addContent(of: nested) }
        }
        return counter.bytes
    }

    /// Sums string and bytes lengths through the generated `traverse` of each message type.
    private struct Counter: NumberIgnoringVisitor {
        var bytes: UInt64 = 0
        /// The messages of mergers met so far and not counted yet.
        var pending: [[Message]] = []

        /// A message counts by its elems only, at the root and inside a merger alike.
        mutating func addContent(of message: Message) {
            for elem in message.elems { elem.traverse(&self) }
        }

        mutating func visitString(_ value: String, field: Int) { bytes += UInt64(value.utf8.count) }
        mutating func visitBytes(_ value: [UInt8], field: Int) { bytes += UInt64(value.count) }

        mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) {
            value.traverse(&self)
        }

        mutating func visitRepeatedString(_ value: [String], field: Int) {
            for string in value { bytes += UInt64(string.utf8.count) }
        }

        mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) {
            for element in value { element.traverse(&self) }
        }

        /// A merger's messages: counted later, by ``addContent(of:)``, from the worklist.
        mutating func visitNestedMessages<M: ProtoMessage>(_ value: [M], field: Int) {
            // In this schema they are a merger's `Message`s (the check folds away once specialised);
            // a list of another type is counted in place.
            if let messages = value as? [Message] { pending.append(messages) } else { visitRepeatedMessage(value, field: field) }
        }

        mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) {
            for entry in value { bytes += UInt64(entry.key.utf8.count) + UInt64(entry.value.count) }
        }

        mutating func visitUnknownFields(_ value: UnknownFields) {}
    }
}

extension ContentSize {
    /// The content size of a message view, counted the same way as `of(_:)` counts a `Message`,
    /// from the view decode's words: each node's string, bytes, sub-message, repeated and map
    /// fields, found through its type's arena layout; a message nested in a merger by its elems
    /// only. Iterative (a worklist), at any depth.
    static func of(_ view: Message.View) -> UInt64 {
        var counter = ViewCounter(words: view._node.words)
        counter.addElems(ofMessage: view._node.node)
        while let message = counter.messages.popLast() {
            counter.addElems(ofMessage: message)
        }
        return counter.total
    }

    /// The sum and the worklist of ``of(_:)-(Message.View)``: the messages of mergers met and not
    /// counted yet (counted by their elems).
    private struct ViewCounter {
        let words: UnsafePointer<UInt64>
        let layouts = imwireArenaLayouts.layouts
        let messageLayout = Message._typeIndex
        let elemLayout = Elem._typeIndex
        var total: UInt64 = 0
        var messages: [Int] = []

        init(words: UnsafePointer<UInt64>) { self.words = words }

        @inline(__always)
        func count(_ word: UInt64) -> UInt64 { UInt64(ArenaString.count(word)) }

        /// The first entry of the list whose links are `links`, and each next one (``ArenaList``).
        @inline(__always)
        func first(_ links: UInt64) -> Int { ArenaList.first(links) }
        @inline(__always)
        func next(_ entry: Int) -> Int { ArenaList.next(after: entry, in: words) }

        mutating func addElems(ofMessage message: Int) {
            // [unsafe: view-words] `message` is a `Message` node; the elems' slot is read from its layout.
            // [unsafe: arena-layout] `messageLayout` and `elemLayout` are the types' own indices.
            let slot = Int(layouts[messageLayout].fields[Message.FieldNumber.elems].slot)
            var entry = first(words[message &+ slot])
            while entry != 0 {
                add(node: entry &+ ArenaWords.valueOffset, layout: elemLayout)
                entry = next(entry)
            }
        }

        /// A sub-message: a merger's message goes to the worklist, so that no nesting of mergers
        /// recurses; any other one is counted in place (the schema's only cycle of types runs
        /// through Message, so that recursion is as deep as the schema, not as the input).
        mutating func child(_ node: Int, _ layout: Int) {
            if layout == messageLayout { messages.append(node) } else { add(node: node, layout: layout) }
        }

        mutating func add(node: Int, layout layoutIndex: Int) {
            // [unsafe: view-words] `node` was allocated with layout `layoutIndex`, whose `byIndex` has
            // `fieldCount` entries and whose slots are inside the node.
            let layout = layouts[layoutIndex]
            for position in 0..<layout.fieldCount {
                let (number, field) = layout.byIndex[position]
                let slot = node &+ Int(field.slot)
                switch (field.kind, field.container) {
                case (.string, .repeated), (.bytes, .repeated):
                    var entry = first(words[slot])
                    while entry != 0 {
                        total &+= count(words[entry &+ ArenaWords.valueOffset])
                        entry = next(entry)
                    }
                case (.string, .oneof), (.bytes, .oneof):
                    if words[slot] == UInt64(number) { total &+= count(words[slot &+ 1]) }
                case (.string, _), (.bytes, _):
                    total &+= count(words[slot])
                case (.stringToBytesMap, _):
                    var entry = first(words[slot])
                    while entry != 0 {
                        let value = entry &+ ArenaWords.valueOffset
                        total &+= count(words[value]) &+ count(words[value &+ 1])
                        entry = next(entry)
                    }
                case (.message, .repeated):
                    var entry = first(words[slot])
                    while entry != 0 {
                        child(entry &+ ArenaWords.valueOffset, Int(field.sub))
                        entry = next(entry)
                    }
                case (.message, .oneof):
                    if words[slot] == UInt64(number) { child(Int(truncatingIfNeeded: words[slot &+ 1]), Int(field.sub)) }
                case (.message, _):
                    if words[slot] != 0 { child(Int(truncatingIfNeeded: words[slot]), Int(field.sub)) }
                default:
                    break
                }
            }
        }
    }
}
