extension Message {
    /// Whether this message, or any message nested in it (elems, mergers, group infos…), carries
    /// fields this schema does not know. A relay can use it to log that a newer sender is talking.
    ///
    /// Answers at any nesting depth, messages built in code included: the messages of mergers are
    /// searched from a worklist, not by recursion.
    public var containsUnknownFields: Bool {
        var detector = UnknownFieldDetector()
        traverse(&detector)
        while !detector.found, let messages = detector.pending.popLast() {
            for message in messages where !detector.found { message.traverse(&detector) }
        }
        return detector.found
    }
}

/// Visits a message tree and records whether any level has unknown fields; the messages of mergers
/// are left on ``pending`` for the caller.
private struct UnknownFieldDetector: NumberIgnoringVisitor {
    var found = false
    var pending: [[Message]] = []

    mutating func visitString(_ value: String, field: Int) {}
    mutating func visitBytes(_ value: [UInt8], field: Int) {}
    mutating func visitRepeatedString(_ value: [String], field: Int) {}
    mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) {}

    mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) {
        if !found { value.traverse(&self) }
    }

    mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) {
        for message in value where !found { message.traverse(&self) }
    }

    mutating func visitNestedMessages<M: ProtoMessage>(_ value: [M], field: Int) {
        // In this schema the nested messages are a merger's `Message`s (the check folds away once
        // specialised); a list of another type is searched in place.
        guard !found else { return }
        if let messages = value as? [Message] { pending.append(messages) } else { visitRepeatedMessage(value, field: field) }
    }

    mutating func visitUnknownFields(_ value: UnknownFields) { found = true }
}
