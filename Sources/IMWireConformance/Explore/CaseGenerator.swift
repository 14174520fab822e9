import IMWire

/// Makes the case of a seed: which variations it turns on, the message, the input and output
/// formats, and where its flaw (if any) sits. A pure function of the seed, so that a printed seed
/// makes the same case on any machine.
enum CaseGenerator {
    /// The seed of the case after the one made from `seed`: a run's cases are the seeds
    /// `s, next(s), next(next(s)), …`, so case `k` of a run is the first case of a run started at
    /// its own seed.
    static func next(_ seed: UInt64) -> UInt64 {
        ExploreRandom.mix(seed &+ 0x9E37_79B9_7F4A_7C15)
    }

    static func make(seed: UInt64) -> ExploreCase {
        var random = ExploreRandom(seed: seed)
        var variations: Variations = []
        for variation in Variations.all where random.chance(35) { variations.insert(variation) }

        var input: TestName.Input = [.binary, .json, .timRest][random.weighted([50, 45, 5])]
        var kind: FlawKind?
        if input != .timRest, random.chance(45) {
            let kinds = FlawKind.allCases.filter { $0.input == input }
            kind = random.pick(kinds)
        }
        let chainLayers = random.chance(1) ? (random.chance(50) ? 100 : random.int(in: 1...100)) : 0
        let budget = random.chance(10) ? random.int(in: 40...120) : random.int(in: 3...30)

        var generator = MessageGenerator(
            random: ExploreRandom(seed: random.seed()), variations: variations, nodeBudget: budget, chainLayers: chainLayers,
            root: Message.schema)
        var message = generator.message(of: Message.schema, level: 1, onChain: chainLayers > 0)

        var timRest: [UInt8]?
        if input == .timRest {
            // What tim-rest can carry of a small message, as IMWire writes it (lossy: fields Tencent
            // has no key for are left out); a message it cannot carry at all is tried again.
            for _ in 0..<20 {
                if let decoded = try? Message(serializedBytes: GeneratedBinaryWriter.canonical(message)),
                    let text = try? decoded.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(allowsLossyConversion: true))
                {
                    timRest = text
                    break
                }
                generator.nodeBudget = random.int(in: 1...8)
                message = generator.message(of: Message.schema, level: 1)
            }
            if timRest == nil { input = .binary }
        }

        var documentFlaw: Flaw?
        if let flawKind = kind {
            let flaw = Flaw(kind: flawKind, variant: random.next())
            switch flawKind.placement {
            case .document:
                documentFlaw = flaw
            case .message, .field, .unknownField:
                // A message without a spot the flaw fits is made again (a double-only flaw needs a
                // location elem); after 20 tries the case stays valid.
                var placed = false
                for _ in 0..<20 {
                    if place(flaw, in: &message, random: &random, generator: &generator) {
                        placed = true
                        break
                    }
                    generator.nodeBudget = budget + 10
                    message = generator.message(of: Message.schema, level: 1)
                }
                if !placed { kind = nil }
            }
        }

        let output: WireFormat
        switch kind?.rule {
        case .rejected?, .invalidUTF8?: output = .binary
        case nil where input == .timRest: output = [WireFormat.binary, .json, .timRest][random.below(3)]
        case nil where input == .binary: output = [WireFormat.binary, .json, .timRest][random.weighted([55, 40, 5])]
        default: output = random.chance(60) ? .binary : .json
        }
        var ignoreUnknownFields = input == .json && random.chance(35)
        // As their golden cases are sent: an unknown key or enum name must not be skipped, and a key
        // with a raw control character is an unknown key (its Required rejection is the golden one's).
        if [.jsonUnknownField, .jsonEnumUnknownName, .jsonEnumNameLowercase, .jsonRawControlInKey].contains(kind) {
            ignoreUnknownFields = false
        }
        return ExploreCase(
            seed: seed, input: input, output: output, message: message, documentFlaw: documentFlaw,
            ignoreUnknownFields: ignoreUnknownFields, timRest: timRest, variations: variations)
    }

    /// Puts `flaw` at a random spot of `message` where it fits; `false` if there is none.
    private static func place(
        _ flaw: Flaw, in message: inout GeneratedMessage, random: inout ExploreRandom, generator: inout MessageGenerator
    ) -> Bool {
        let kind = flaw.kind
        switch kind.placement {
        case .message:
            let needed = kind == .jsonMissingComma ? 2 : [.jsonMissingColon, .jsonTrailingCommaObject].contains(kind) ? 1 : 0
            let paths = message.paths().filter { message[$0].fields.count >= needed }
            guard !paths.isEmpty else { return false }
            message[random.pick(paths)].flaw = flaw
            return true
        case .unknownField:
            let paths = message.paths().filter { !message[$0].schema.fields.isEmpty }
            guard !paths.isEmpty else { return false }
            let path = random.pick(paths)
            let info = random.pick(message[path].schema.fields)
            let wireType = random.pick([0, 1, 2, 3, 5].filter { $0 != info.kind.wireType })
            let content: UnknownContent
            switch wireType {
            case 0: content = .varint(random.uint64(), length: 0)
            case 1: content = .fixed64(random.next())
            case 2: content = .bytes(random.bytes())
            case 3: content = .group([generator.unknownField(of: message[path].schema, depth: 1)])
            default: content = .fixed32(UInt32(truncatingIfNeeded: random.next()))
            }
            let unknown = UnknownFieldValue(number: UInt64(info.number), content: content)
            let position = random.below(message[path].unknownFields.count + 1)
            message[path].unknownFields.insert(unknown, at: position)
            return true
        case .field:
            var spots: [(path: [PathStep], field: Int)] = []
            for path in message.paths() {
                let target = message[path]
                for (index, field) in target.fields.enumerated() where kind.fits(target.info(field), field.value) {
                    if kind == .jsonOneofTwoMembers {
                        let oneof = target.info(field).oneof
                        guard target.schema.fields.contains(where: { $0.oneof == oneof && $0.number != field.number }) else { continue }
                    }
                    spots.append((path, index))
                }
            }
            guard let spot = spots.isEmpty ? nil : random.pick(spots) else { return false }
            message[spot.path].fields[spot.field].flaw = flaw
            if kind == .jsonBeyondDoublePrecision {
                // A 64-bit integer a double cannot hold.
                let candidates: [UInt64] = [(1 << 53) + 1, UInt64.max, (1 << 63) + 1, random.next() | 1 << 60 | 1]
                let value = random.pick(candidates)
                message[spot.path].fields[spot.field].value = .varint(value)
            }
            return true
        case .document:
            return false
        }
    }
}

/// A step from a message to a sub-message: the index of the field in ``GeneratedMessage/fields``
/// and, for a repeated field, of the element (-1 for a singular field).
struct PathStep: Hashable {
    var field: Int
    var element: Int
}

extension GeneratedMessage {
    /// The path of every message in the tree, the root (`[]`) first.
    func paths() -> [[PathStep]] {
        var result: [[PathStep]] = [[]]
        for (index, field) in fields.enumerated() {
            switch field.value {
            case .message(let child):
                result += child.paths().map { [PathStep(field: index, element: -1)] + $0 }
            case .messages(let list):
                for (element, child) in list.enumerated() {
                    result += child.paths().map { [PathStep(field: index, element: element)] + $0 }
                }
            default: break
            }
        }
        return result
    }

    /// The message at `path`.
    subscript(path: [PathStep]) -> GeneratedMessage {
        get {
            guard let step = path.first else { return self }
            switch fields[step.field].value {
            case .message(let child): return child[Array(path.dropFirst())]
            case .messages(let list): return list[step.element][Array(path.dropFirst())]
            default: preconditionFailure("path step through a field that holds no message")
            }
        }
        set {
            guard let step = path.first else {
                self = newValue
                return
            }
            switch fields[step.field].value {
            case .message(var child):
                child[Array(path.dropFirst())] = newValue
                fields[step.field].value = .message(child)
            case .messages(var list):
                list[step.element][Array(path.dropFirst())] = newValue
                fields[step.field].value = .messages(list)
            default: preconditionFailure("path step through a field that holds no message")
            }
        }
    }
}
