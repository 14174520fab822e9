import IMWire

/// Shrinks a failing case: tries simpler cases — a field, an element or an unknown field left out,
/// a value made smaller, a style turned off — and keeps the first that still fails the same check
/// against the testee, until none does (or the attempts or the time run out). Each simplification
/// keeps the case well-formed (its expectation still follows from it), so the result is a small case
/// with the same disagreement.
struct Shrinker {
    let testee: any Testee
    let timeout: Duration
    let levels: ExploreLevels
    /// The most requests one shrink sends.
    let maxAttempts: Int
    /// When to stop trying.
    let deadline: ContinuousClock.Instant

    struct Result {
        var explorerCase: ExploreCase
        var materialized: MaterializedCase
        var failure: ExploreJudge.Failure
        /// The testee's answer to the case (`nil` until the shrink sends one).
        var outcome: TesteeOutcome?
        /// Requests sent.
        var attempts: Int
        /// Simplifications kept.
        var steps: Int
    }

    /// The smallest case found that still fails `failure.name`.
    func shrink(_ start: ExploreCase, failure: ExploreJudge.Failure) -> Result {
        var best = Result(explorerCase: start, materialized: start.materialize(levels: levels), failure: failure, attempts: 0, steps: 0)
        let className = start.className
        // After a simplification is kept, the next pass starts where this one stopped (the
        // candidates before it were just tried and mostly still fail to simplify), going round once.
        var resumeAt = 0
        var improved = true
        while improved {
            improved = false
            let all = candidates(of: best.explorerCase)
            let start = all.isEmpty ? 0 : min(resumeAt, all.count - 1)
            for position in Array(start..<all.count) + Array(0..<start) {
                let candidate = all[position]
                resumeAt = position
                guard best.attempts < maxAttempts, ContinuousClock.now < deadline else { return best }
                guard candidate.className == className, candidate.message.flawsTakeEffect(),
                    candidate.request(levels: levels) != best.materialized.request
                else { continue }
                let materialized = candidate.materialize(levels: levels)
                best.attempts += 1
                let outcome = testee.respond(to: materialized.request, timeout: timeout)
                let verdict = ExploreJudge.verdict(for: outcome, of: materialized)
                guard let same = verdict.failures.first(where: { $0.name == failure.name }) else { continue }
                best.explorerCase = candidate
                best.materialized = materialized
                best.failure = same
                best.outcome = outcome
                best.steps += 1
                improved = true
                break
            }
        }
        tidy(&best)
        return best
    }

    /// Takes every simplification of the shrunk case that sends the same bytes and still fails the
    /// same check on the answer already had (a style whose random choices chose nothing here, the
    /// value of a field a flaw writes over), so that the report names only what the input really
    /// uses. The case is small by now, so this costs little, and it sends nothing to the testee.
    private func tidy(_ best: inout Result) {
        guard let outcome = best.outcome else { return }
        var changed = true
        var rounds = 0
        while changed, rounds < 1_000 {
            changed = false
            rounds += 1
            for candidate in candidates(of: best.explorerCase)
            where candidate.className == best.explorerCase.className && candidate.message.flawsTakeEffect()
                && candidate.request(levels: levels) == best.materialized.request
            {
                let materialized = candidate.materialize(levels: levels)
                guard let same = ExploreJudge.verdict(for: outcome, of: materialized).failures.first(where: { $0.name == best.failure.name })
                else { continue }
                best.explorerCase = candidate
                best.materialized = materialized
                best.failure = same
                changed = true
                break
            }
        }
    }

    /// The one-step simplifications of a case, the biggest first.
    func candidates(of explorerCase: ExploreCase) -> [ExploreCase] {
        var result: [ExploreCase] = []
        if explorerCase.ignoreUnknownFields {
            var candidate = explorerCase
            candidate.ignoreUnknownFields = false
            result.append(candidate)
        }
        for message in Self.candidates(of: explorerCase.message) {
            var candidate = explorerCase
            candidate.message = message
            result.append(candidate)
        }
        return result
    }

    static func candidates(of message: GeneratedMessage) -> [GeneratedMessage] {
        var result: [GeneratedMessage] = []
        func with(_ change: (inout GeneratedMessage) -> Void) {
            var copy = message
            change(&copy)
            result.append(copy)
        }
        if message.fields.count > 2 {
            let half = message.fields.count / 2
            with { $0.fields.removeSubrange(half...) }
            with { $0.fields.removeSubrange(..<half) }
        }
        for index in message.fields.indices { with { $0.fields.remove(at: index) } }
        if message.unknownFields.count > 1 { with { $0.unknownFields.removeAll() } }
        for index in message.unknownFields.indices { with { $0.unknownFields.remove(at: index) } }
        if !message.style.isPlain { with { $0.style = MessageStyle() } }
        for (index, field) in message.fields.enumerated() {
            for simpler in candidates(of: field, info: message.info(field)) {
                with { $0.fields[index] = simpler }
            }
        }
        return result
    }

    private static func candidates(of field: GeneratedField, info: FieldSchema) -> [GeneratedField] {
        var result: [GeneratedField] = []
        func with(_ change: (inout GeneratedField) -> Void) {
            var copy = field
            change(&copy)
            result.append(copy)
        }
        let style = field.binary
        if style.split != nil { with { $0.binary.split = nil } }
        if style.earlier != nil { with { $0.binary.earlier = nil } }
        if style.entries != nil { with { $0.binary.entries = nil } }
        if style.numberForm != nil { with { $0.binary.numberForm = nil } }
        if style.tagPadding != 0 { with { $0.binary.tagPadding = 0 } }
        if style.valueLength != 0 { with { $0.binary.valueLength = 0 } }
        if field.json.protoName { with { $0.json.protoName = false } }
        if field.json.keyEscapes != nil { with { $0.json.keyEscapes = nil } }
        if field.json.form != nil { with { $0.json.form = nil } }

        switch field.value {
        case .varint(let raw):
            for simpler in simplerVarints(raw, kind: info.kind) { with { $0.value = .varint(simpler) } }
        case .double(let double):
            // +0.0 is the simplest double, then 1: never back from one to the other.
            let simpler: [Double] = double.bitPattern == 0 ? [] : double == 1 ? [0] : [0, 1]
            for value in simpler { with { $0.value = .double(value) } }
        case .text(let bytes):
            let isString: Bool = if case .string = info.kind { true } else { false }
            for simpler in simplerTexts(bytes, isString: isString) { with { $0.value = .text(simpler) } }
        case .message(let child):
            for nested in child.sameTypeDescendants() { with { $0.value = .message(nested) } }
            if !child.fields.isEmpty || !child.unknownFields.isEmpty {
                var empty = child
                empty.fields = []
                empty.unknownFields = []
                with { $0.value = .message(empty) }
            }
            for simpler in candidates(of: child) { with { $0.value = .message(simpler) } }
        case .texts(let list):
            if list.count > 1 {
                for index in list.indices { with { $0.value = .texts(list.removing(at: index)) } }
            }
            for (index, bytes) in list.enumerated() {
                for simpler in simplerTexts(bytes, isString: true) { with { $0.value = .texts(list.replacing(at: index, with: simpler)) } }
            }
        case .messages(let list):
            if list.count > 1 {
                for index in list.indices { with { $0.value = .messages(list.removing(at: index)) } }
            }
            for (index, child) in list.enumerated() {
                for nested in child.sameTypeDescendants() { with { $0.value = .messages(list.replacing(at: index, with: nested)) } }
                for simpler in candidates(of: child) { with { $0.value = .messages(list.replacing(at: index, with: simpler)) } }
            }
        case .map(let entries):
            if entries.count > 1 {
                for index in entries.indices { with { $0.value = .map(entries.removing(at: index)) } }
            }
            for (index, entry) in entries.enumerated() {
                for simpler in simplerTexts(entry.value, isString: false) {
                    with { $0.value = .map(entries.replacing(at: index, with: MapEntryValue(key: entry.key, value: simpler))) }
                }
                for simpler in simplerTexts(entry.key, isString: true)
                where !entries.contains(where: { $0.key == simpler }) {
                    with { $0.value = .map(entries.replacing(at: index, with: MapEntryValue(key: simpler, value: entry.value))) }
                }
            }
        }
        return result
    }

    /// Smaller values of the field's type: 0, 1, half (toward zero for signed values).
    private static func simplerVarints(_ raw: UInt64, kind: FieldSchema.Kind) -> [UInt64] {
        guard raw != 0 else { return [] }
        var result: [UInt64] = [0]
        switch kind {
        case .int32, .enumeration:
            let value = Int64(bitPattern: raw)
            if value != 1 { result.append(1) }
            if value / 2 != 0, value / 2 != 1 { result.append(UInt64(bitPattern: value / 2)) }
        case .bool:
            break
        default:
            if raw != 1 { result.append(1) }
            if raw / 2 > 1 { result.append(raw / 2) }
        }
        return result
    }

    /// Shorter texts: empty, the first half, without the first or the last character (strings are
    /// cut between characters, so they stay UTF-8).
    private static func simplerTexts(_ bytes: [UInt8], isString: Bool) -> [[UInt8]] {
        guard !bytes.isEmpty else { return [] }
        var result: [[UInt8]] = [[]]
        if isString {
            let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
            guard scalars.count > 1 else { return result }
            func utf8(_ slice: ArraySlice<Unicode.Scalar>) -> [UInt8] {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: slice)
                return Array(String(view).utf8)
            }
            if scalars.count > 3 { result.append(utf8(scalars[..<(scalars.count / 2)])) }
            result.append(utf8(scalars.dropFirst()))
            result.append(utf8(scalars.dropLast()))
        } else {
            guard bytes.count > 1 else { return result }
            if bytes.count > 3 { result.append(Array(bytes[..<(bytes.count / 2)])) }
            result.append(Array(bytes.dropFirst()))
            result.append(Array(bytes.dropLast()))
        }
        return result
    }
}

extension Array {
    fileprivate func removing(at index: Int) -> [Element] {
        var copy = self
        copy.remove(at: index)
        return copy
    }

    fileprivate func replacing(at index: Int, with element: Element) -> [Element] {
        var copy = self
        copy[index] = element
        return copy
    }
}

extension GeneratedMessage {
    /// Messages of the same type inside this one (a merger's message inside a message), to put in
    /// its place and cut out the levels between in one step: the farthest, then half as far, a
    /// quarter, …, down to the nearest, so that a deep chain shrinks by halves.
    func sameTypeDescendants() -> [GeneratedMessage] {
        var found: [GeneratedMessage] = []
        func visit(_ message: GeneratedMessage) {
            for field in message.fields {
                for child in field.value.children {
                    if child.schema === schema { found.append(child) }
                    visit(child)
                }
            }
        }
        visit(self)
        guard !found.isEmpty else { return [] }
        var positions = [found.count - 1]
        var position = found.count / 2
        while position > 0 {
            if position != positions.last { positions.append(position) }
            position /= 2
        }
        if positions.last != 0 { positions.append(0) }
        return positions.map { found[$0] }
    }
}

