/// Splits a message into two parts that protobuf merging puts back together: written one after the
/// other as two occurrences of the same sub-message field, they read as the original (scalars: the
/// last value wins; sub-messages merge; repeated fields and maps concatenate; unknown fields are kept
/// in order).
enum MessageSplitter {
    static func split(_ message: GeneratedMessage, seed: UInt64) -> (GeneratedMessage, GeneratedMessage) {
        var random = ExploreRandom(seed: seed)
        var first = GeneratedMessage(schema: message.schema)
        var second = GeneratedMessage(schema: message.schema)
        first.style = message.style
        second.style = message.style
        second.flaw = message.flaw
        for field in message.fields {
            let info = message.info(field)
            switch field.value {
            case .texts(let list) where field.flaw == nil:
                let cut = random.int(in: 0...list.count)
                if cut > 0 { first.fields.append(with(field, .texts(Array(list[..<cut])))) }
                if cut < list.count { second.fields.append(with(field, .texts(Array(list[cut...])))) }
            case .messages(let list) where field.flaw == nil:
                let cut = random.int(in: 0...list.count)
                if cut > 0 { first.fields.append(with(field, .messages(Array(list[..<cut])))) }
                if cut < list.count { second.fields.append(with(field, .messages(Array(list[cut...])))) }
            case .map(let entries) where field.flaw == nil:
                var firstEntries: [MapEntryValue] = []
                var secondEntries: [MapEntryValue] = []
                for entry in entries {
                    if random.chance(50) { firstEntries.append(entry) } else { secondEntries.append(entry) }
                }
                if !firstEntries.isEmpty { first.fields.append(with(field, .map(firstEntries))) }
                if !secondEntries.isEmpty { second.fields.append(with(field, .map(secondEntries))) }
            case .message(let child) where random.chance(40):
                // A oneof switch written for this member goes before both parts, not between them.
                let (childFirst, childSecond) = split(child, seed: random.seed())
                first.fields.append(with(field, .message(childFirst), keepingFlaw: false))
                second.fields.append(with(field, .message(childSecond), keepingEarlier: false))
            case .varint, .double, .text:
                switch random.below(3) {
                case 0: first.fields.append(field)
                case 1: second.fields.append(field)
                default:
                    // An earlier value in the first part, the real one in the second.
                    var generator = MessageGenerator(
                        random: ExploreRandom(seed: random.seed()), variations: [], nodeBudget: 2, chainLayers: 0, root: message.schema)
                    first.fields.append(with(field, generator.junkValue(for: info, level: 1), keepingFlaw: false, keepingEarlier: false))
                    second.fields.append(field)
                }
            default:
                if random.chance(50) { first.fields.append(field) } else { second.fields.append(field) }
            }
        }
        let cut = random.int(in: 0...message.unknownFields.count)
        first.unknownFields = Array(message.unknownFields[..<cut])
        second.unknownFields = Array(message.unknownFields[cut...])
        return (first, second)
    }

    /// `field` with another value, its styles and flaw kept unless asked.
    private static func with(
        _ field: GeneratedField, _ value: FieldValue, keepingFlaw: Bool = true, keepingEarlier: Bool = true
    ) -> GeneratedField {
        var copy = field
        copy.value = value
        if !keepingEarlier { copy.binary.earlier = nil }
        copy.binary.split = nil
        if !keepingFlaw { copy.flaw = nil }
        return copy
    }
}
