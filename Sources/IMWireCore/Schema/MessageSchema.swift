/// The field table of one message type: numbers, names, kinds, oneofs. Immutable; one per type (a
/// static `let` of the generated code).
@usableFromInline package final class MessageSchema: Sendable {
    /// Fully qualified proto name, e.g. `imwire.v1.TextElem`.
    @usableFromInline package let fullName: String
    /// Fields in field-number order.
    @usableFromInline package let fields: [FieldSchema]

    /// `indexByNumber[n]` is the index in ``fields`` of field number `n`, or -1.
    @usableFromInline package let indexByNumber: [Int]
    /// Per field index: its number, and its oneof as a small integer (-1 for none), for readers
    /// that look these up per member without copying a ``FieldSchema`` (and retaining its strings).
    @usableFromInline package let numbers: [Int]
    @usableFromInline package let oneofIDs: [Int]

    @usableFromInline package init(fullName: String, fields: [FieldSchema]) {
        self.fullName = fullName
        self.fields = fields
        var table = [Int](repeating: -1, count: (fields.map(\.number).max() ?? 0) + 1)
        for (index, field) in fields.enumerated() { table[field.number] = index }
        indexByNumber = table
        numbers = fields.map(\.number)
        var oneofNames: [String] = []
        oneofIDs = fields.map { field in
            guard let oneof = field.oneof else { return -1 }
            if let id = oneofNames.firstIndex(of: oneof) { return id }
            oneofNames.append(oneof)
            return oneofNames.count - 1
        }
    }

    /// The field with `number`, or `nil` when the schema does not know it.
    @inline(__always)
    @usableFromInline package func field(number: Int) -> FieldSchema? {
        guard number >= 0, number < indexByNumber.count else { return nil }
        let index = indexByNumber[number]
        return index < 0 ? nil : fields[index]
    }
}
