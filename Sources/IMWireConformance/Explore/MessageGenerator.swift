import IMWire

/// The kinds of meaning-preserving variation a case may use. Each case turns on a random subset, so
/// that cases differ in kind, not only in values, and a failure's cause can be told from what its
/// case used (see ``Explorer``: a failure whose variations include those of a shrunk finding is
/// counted as a repeat of it).
struct Variations: OptionSet, Hashable {
    let rawValue: UInt32

    static let order = Variations(rawValue: 1 << 0)
    static let tagPadding = Variations(rawValue: 1 << 1)
    static let varintPadding = Variations(rawValue: 1 << 2)
    static let lengthPadding = Variations(rawValue: 1 << 3)
    static let earlier = Variations(rawValue: 1 << 4)
    static let split = Variations(rawValue: 1 << 5)
    static let numberForms = Variations(rawValue: 1 << 6)
    static let mapEntries = Variations(rawValue: 1 << 7)
    static let unknownFields = Variations(rawValue: 1 << 8)
    static let explicitDefaults = Variations(rawValue: 1 << 9)
    static let jsonNames = Variations(rawValue: 1 << 10)
    static let jsonForms = Variations(rawValue: 1 << 11)
    static let jsonEscapes = Variations(rawValue: 1 << 12)
    static let jsonNulls = Variations(rawValue: 1 << 13)
    static let jsonUnknownKeys = Variations(rawValue: 1 << 14)
    static let whitespace = Variations(rawValue: 1 << 15)

    static let all: [Variations] = (0..<16).map { Variations(rawValue: 1 << $0) }
}

/// Makes up a ``GeneratedMessage`` by walking the schema's field table: each field present or not,
/// values from ``ValuePools``, styles from the variations the case turned on.
///
/// Bounded: at most ``maxLevels`` message levels (the contract's 100 merger layers are 301; map
/// entries and unknown groups count as levels, as decoders count them) and about `nodeBudget`
/// fields in all. A *chain* case forces a path of `chainLayers` recursions through the schema's
/// cycle (Message → elems → merger → messages → Message) to reach the contract's depth.
struct MessageGenerator {
    /// The deepest message level a generated message reaches: 100 merger layers of 3 levels each,
    /// the root, and the content of the innermost message (every decoder's limit must admit it:
    /// IMWire's default is 320, the guide asks testees for at least 320).
    static let maxLevels = 306

    var random: ExploreRandom
    var variations: Variations
    /// Fields still to be made (a soft cap on a case's size).
    var nodeBudget: Int
    /// Recursions of the root type still to force (0: no chain).
    var chainLayers: Int
    /// Whether a string may now and then be thousands of characters long (not in the overridden
    /// occurrences a style adds: a shrinker cannot make those smaller).
    var longStrings = true
    private let root: MessageSchema
    /// Per message type (by full name), the indices of its fields from which the root type can be
    /// reached again.
    private var cycleFields: [String: [Int]] = [:]

    init(random: ExploreRandom, variations: Variations, nodeBudget: Int, chainLayers: Int, root: MessageSchema) {
        self.random = random
        self.variations = variations
        self.nodeBudget = nodeBudget
        self.chainLayers = chainLayers
        self.root = root
        if chainLayers > 0 {
            var reaches: [String: Bool] = [:]
            Self.findCycleFields(from: root, root: root, reaches: &reaches, cycleFields: &cycleFields)
        }
    }

    /// Whether `root` can be reached from `schema` through message fields, recording for each type
    /// visited the fields that lead there.
    @discardableResult
    private static func findCycleFields(
        from schema: MessageSchema, root: MessageSchema, reaches: inout [String: Bool], cycleFields: inout [String: [Int]]
    ) -> Bool {
        if let known = reaches[schema.fullName] { return known }
        reaches[schema.fullName] = false  // in progress: a cycle not through the root does not count
        var leading: [Int] = []
        for (index, field) in schema.fields.enumerated() {
            guard case .message(let child) = field.kind else { continue }
            let childSchema = child()
            if childSchema === root || findCycleFields(from: childSchema, root: root, reaches: &reaches, cycleFields: &cycleFields) {
                leading.append(index)
            }
        }
        reaches[schema.fullName] = !leading.isEmpty
        cycleFields[schema.fullName] = leading
        return !leading.isEmpty
    }

    private func on(_ variation: Variations) -> Bool { variations.contains(variation) }

    /// A message of type `schema` at message level `level` (the root is 1). `onChain`: the message
    /// lies on the forced path (the root of a chain case, and each message the path goes through).
    mutating func message(of schema: MessageSchema, level: Int, onChain: Bool = false) -> GeneratedMessage {
        var message = GeneratedMessage(schema: schema)
        if onChain, schema === root, level > 1 { chainLayers -= 1 }
        let chainField = onChain && chainLayers > 0
            ? cycleFields[schema.fullName].flatMap { $0.isEmpty ? nil : random.pick($0) } : nil
        let presence = level == 1 ? 45 : 30
        var oneofsDone: [String] = []
        for (index, info) in schema.fields.enumerated() {
            let forced = index == chainField
            if let oneof = info.oneof {
                // One member of each oneof at most: chosen when its first member comes up.
                if oneofsDone.contains(oneof) { continue }
                oneofsDone.append(oneof)
                let members = schema.fields.indices.filter { schema.fields[$0].oneof == oneof }
                let chainMember = members.first { $0 == chainField }
                guard chainMember != nil || (nodeBudget > 0 && random.chance(presence)) else { continue }
                let member = chainMember ?? random.pick(members)
                if let field = field(schema.fields[member], level: level, chain: chainMember != nil) {
                    message.fields.append(field)
                }
                continue
            }
            guard forced || (nodeBudget > 0 && random.chance(presence)) else { continue }
            if let field = field(info, level: level, chain: forced) {
                message.fields.append(field)
            }
        }
        message.fields.sort { $0.number < $1.number }
        if on(.unknownFields), random.chance(35), level < Self.maxLevels - 3 {
            for _ in 0..<random.int(in: 1...3) {
                message.unknownFields.append(unknownField(of: schema, depth: 0))
            }
        }
        message.style = messageStyle()
        return message
    }

    private mutating func messageStyle() -> MessageStyle {
        var style = MessageStyle()
        if on(.order), random.chance(60) { style.order = random.seed() }
        if on(.jsonNulls), random.chance(50) { style.jsonNulls = random.seed() }
        if on(.jsonUnknownKeys), random.chance(50) { style.jsonUnknownKeys = random.seed() }
        if on(.whitespace), random.chance(50) { style.whitespace = random.seed() }
        return style
    }

    /// A value for `info`, or `nil` when the message would nest too deep. `chain`: the field
    /// continues the forced path back to the root type.
    private mutating func field(_ info: FieldSchema, level: Int, chain: Bool) -> GeneratedField? {
        nodeBudget -= 1
        var field = GeneratedField(number: info.number, value: .varint(0))
        switch info.kind {
        case .message(let child):
            guard level + 1 <= Self.maxLevels - (chain ? 0 : 2) else { return nil }
            let schema = child()
            if info.isRepeated {
                var elements: [GeneratedMessage] = []
                if chain {
                    elements.append(message(of: schema, level: level + 1, onChain: true))
                } else {
                    for _ in 0..<random.int(in: 1...3) where nodeBudget > 0 || elements.isEmpty {
                        elements.append(message(of: schema, level: level + 1))
                    }
                }
                field.value = .messages(elements)
            } else {
                field.value = .message(message(of: schema, level: level + 1, onChain: chain))
                if on(.split), random.chance(40) { field.binary.split = random.seed() }
            }
        case .stringToBytesMap:
            guard level + 1 <= Self.maxLevels else { return nil }
            var entries: [MapEntryValue] = []
            for _ in 0..<random.int(in: 1...4) {
                let key = random.chance(50) ? Array(random.pick(ValuePools.mapKeyEdges).utf8) : random.text()
                guard !entries.contains(where: { $0.key == key }) else { continue }
                entries.append(MapEntryValue(key: key, value: random.bytes()))
            }
            field.value = .map(entries)
            if on(.mapEntries), random.chance(50) { field.binary.entries = random.seed() }
            if on(.earlier), random.chance(30) { field.binary.earlier = random.seed() }
        case .string, .bytes:
            let isString: Bool = if case .string = info.kind { true } else { false }
            func one(_ random: inout ExploreRandom) -> [UInt8] {
                isString ? random.text(long: longStrings && random.chance(2)) : random.bytes()
            }
            if info.isRepeated {
                field.value = .texts((0..<random.int(in: 1...4)).map { _ in one(&random) })
            } else {
                field.value = .text(explicitDefault(info) ? [] : one(&random))
            }
        case .double:
            guard !info.isRepeated else { return nil }
            field.value = .double(explicitDefault(info) ? 0 : random.double())
        case .uint64, .uint32, .int32, .bool, .enumeration:
            guard !info.isRepeated else { return nil }  // no repeated scalars in the schema (packing is not generated)
            field.value = .varint(explicitDefault(info) ? 0 : varint(info.kind))
            if on(.varintPadding), random.chance(40) {
                field.binary.valueLength = random.chance(50) ? 10 : random.int(in: 2...10)
            }
            if on(.numberForms), random.chance(40) { field.binary.numberForm = random.seed() }
        }
        if !info.isRepeated, on(.earlier), random.chance(35) {
            switch info.kind {
            case .message where info.oneof == nil: break  // an earlier sub-message would merge, not be overridden
            default: field.binary.earlier = random.seed()
            }
        }
        if info.kind.wireType == 2, on(.lengthPadding), random.chance(40) { field.binary.valueLength = random.int(in: 1...4) }
        if on(.tagPadding), random.chance(30) { field.binary.tagPadding = random.int(in: 1...4) }
        if on(.jsonNames), info.name != info.jsonName, random.chance(50) { field.json.protoName = true }
        if on(.jsonEscapes), random.chance(30) { field.json.keyEscapes = random.seed() }
        if on(.jsonForms), random.chance(50) { field.json.form = random.seed() }
        return field
    }

    /// Whether a singular scalar outside a oneof is given its default value (written anyway, read as
    /// absent).
    private mutating func explicitDefault(_ info: FieldSchema) -> Bool {
        info.oneof == nil && !info.isRepeated && on(.explicitDefaults) && random.chance(30)
    }

    mutating func varint(_ kind: FieldSchema.Kind) -> UInt64 {
        switch kind {
        case .uint64: return random.uint64()
        case .uint32: return UInt64(random.uint32())
        case .int32: return UInt64(bitPattern: Int64(random.int32()))
        case .bool: return random.chance(80) ? 1 : 0
        case .enumeration(let schema):
            let number = random.chance(80) || schema.values.isEmpty
                ? random.pick(schema.values).number
                : random.pick(ValuePools.unknownEnumNumbers.filter { schema.name(of: $0) == nil })
            return UInt64(bitPattern: Int64(number))
        default: return 0
        }
    }

    /// An unknown field of `schema` (a number it does not have), of any wire type; groups nest up to
    /// three levels.
    mutating func unknownField(of schema: MessageSchema, depth: Int) -> UnknownFieldValue {
        let highest = schema.fields.map(\.number).max() ?? 0
        var number: UInt64
        repeat {
            switch random.below(4) {
            case 0: number = UInt64(highest + random.int(in: 1...8))
            case 1: number = UInt64(random.int(in: 1...highest + 1))  // a gap, if the numbering has one
            case 2: number = UInt64(random.int(in: 100...2_000))
            default: number = UInt64(random.int(in: 20_000...(1 << 29) - 1))
            }
        } while schema.field(number: Int(number)) != nil
        return UnknownFieldValue(number: number, content: unknownContent(depth: depth))
    }

    private mutating func unknownContent(depth: Int) -> UnknownContent {
        switch random.below(depth < 3 ? 5 : 4) {
        case 0:
            let value = random.uint64()
            return .varint(value, length: random.chance(25) ? random.int(in: 1...10) : 0)
        case 1: return .fixed64(random.next())
        case 2: return .bytes(random.bytes())
        case 3: return .fixed32(UInt32(truncatingIfNeeded: random.next()))
        default:
            // Inside a group numbers mean nothing to the schema: any valid number.
            let members = (0..<random.int(in: 0...3)).map { _ in
                UnknownFieldValue(number: UInt64(random.int(in: 1...(1 << 29) - 1)), content: unknownContent(depth: depth + 1))
            }
            return .group(members)
        }
    }
}

extension MessageGenerator {
    /// A value of `info`'s type for an occurrence that a later one overrides. A message is small
    /// and, when its type has fields, not empty (so that a reader that wrongly merges it shows it).
    mutating func junkValue(for info: FieldSchema, level: Int) -> FieldValue {
        longStrings = false
        switch info.kind {
        case .message(let child):
            let schema = child()
            var message = GeneratedMessage(schema: schema)
            for _ in 0..<4 where message.fields.isEmpty && !schema.fields.isEmpty {
                nodeBudget = 4
                message = self.message(of: schema, level: level + 1)
            }
            return .message(message)
        case .string: return .text(random.text())
        case .bytes: return .text(random.bytes())
        case .double: return .double(random.double())
        case .stringToBytesMap: return .map([MapEntryValue(key: random.text(), value: random.bytes())])
        case .uint64, .uint32, .int32, .bool, .enumeration: return .varint(varint(info.kind))
        }
    }
}
