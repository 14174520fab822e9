import IMWire

/// One generated case: a message, the format it is sent in, the format asked back, and at most one
/// flaw. Everything it sends and expects follows from these (``materialize(levels:)``).
struct ExploreCase {
    /// The seed it was made from: `--seed SEED --count 1` makes it again.
    var seed: UInt64
    /// The payload member of the request.
    var input: TestName.Input
    /// `requested_output_format`.
    var output: WireFormat
    /// What is sent (and, for a valid case, what must come back).
    var message: GeneratedMessage
    /// A flaw of the whole JSON document.
    var documentFlaw: Flaw?
    /// `json_ignore_unknown_fields` (JSON input only): unknown keys styles are written only then.
    var ignoreUnknownFields = false
    /// For tim-rest input: the tim-rest text sent, as IMWire writes the message.
    var timRest: [UInt8]?
    /// The variation kinds this case turned on.
    var variations: Variations

    /// Its flaw's class and, for a flaw on a field, that field's table entry; `nil` for a valid case.
    private var flaw: (kind: FlawKind, field: FieldSchema?)? {
        documentFlaw.map { ($0.kind, nil) } ?? message.flaws().first
    }

    /// The class of its flaw, `nil` for a valid case.
    var flawKind: FlawKind? { flaw?.kind }

    /// The golden case its flaw generalises (for a flaw on a field, the one for that kind of field:
    /// ``FlawKind/exemplar(on:)``), `nil` for a valid case.
    var exemplar: String? {
        guard let (kind, field) = flaw else { return nil }
        return field.map(kind.exemplar(on:)) ?? kind.exemplar
    }

    /// The level of its `ParseError` check when its class is judged by ``JudgingRule/rejected``: the
    /// level of the golden case it generalises.
    func rejectionLevel(_ levels: ExploreLevels) -> TestName.Level {
        exemplar.map(levels.level(of:)) ?? .required
    }

    /// `explore_<class>`: the third segment of its test names.
    var className: String { "explore_" + (flawKind?.rawValue ?? "valid") }
}

/// One check of a generated case: a test name and the answers that pass it.
struct ExploreCheck: Sendable {
    /// `Level.Input.explore_<class>.Output`.
    let name: String
    let level: TestName.Level
    /// The answers that pass (any one of them).
    let accepted: [Expectation]
}

/// What a case sends and expects.
struct MaterializedCase {
    let request: ConformanceRequest
    let checks: [ExploreCheck]
    /// The payload, and for binary its top-level parts (for the annotated hex of a report).
    let payload: [UInt8]
    let parts: [(range: Range<Int>, label: String)]
    /// The canonical binary of the expected message (what a valid case must mean).
    let expectedBinary: [UInt8]
    /// The canonical JSON of the expected message.
    let expectedJSON: [UInt8]
}

extension ExploreCase {
    /// The request alone, without working out what to expect (to tell whether two cases send the
    /// same thing). Its `test_name` is the first check's, as ``materialize(levels:)`` sets it.
    func request(levels: ExploreLevels) -> ConformanceRequest {
        let member: ConformanceRequest.Payload
        switch input {
        case .binary: member = .binaryPayload(GeneratedBinaryWriter.styled(message).bytes)
        case .json: member = .jsonPayload(GeneratedJSONWriter.styled(message, ignoreUnknownFields: ignoreUnknownFields, documentFlaw: documentFlaw))
        case .timRest: member = .timRestPayload(timRest ?? [])
        }
        return ConformanceRequest(
            testName: firstCheckName(levels: levels), payload: member, requestedOutputFormat: output,
            jsonIgnoreUnknownFields: input == .json && ignoreUnknownFields)
    }

    /// The request and the checks, with the levels of `levels` for the classes that follow a golden
    /// case.
    func materialize(levels: ExploreLevels) -> MaterializedCase {
        let sent = input == .json ? message.strippingUnknownFields() : message
        let expectedBinary = GeneratedBinaryWriter.canonical(sent)
        let expectedJSON = GeneratedJSONWriter.canonical(sent)
        var payload: [UInt8]
        var parts: [(range: Range<Int>, label: String)] = []
        let member: ConformanceRequest.Payload
        switch input {
        case .binary:
            (payload, parts) = GeneratedBinaryWriter.styled(message)
            member = .binaryPayload(payload)
        case .json:
            payload = GeneratedJSONWriter.styled(message, ignoreUnknownFields: ignoreUnknownFields, documentFlaw: documentFlaw)
            member = .jsonPayload(payload)
        case .timRest:
            payload = timRest ?? []
            member = .timRestPayload(payload)
        }
        func meaning(_ binary: [UInt8], _ json: [UInt8]) -> Expectation {
            switch output {
            case .json: .json(json)
            case .timRest: Self.timRestExpectation(ofCanonical: binary)
            default: .binary(binary)
            }
        }
        let outputName = self.outputName
        func check(_ level: TestName.Level, _ output: String, _ accepted: [Expectation]) -> ExploreCheck {
            ExploreCheck(name: "\(level.rawValue).\(input.rawValue).\(className).\(output)", level: level, accepted: accepted)
        }

        var checks: [ExploreCheck] = []
        let exact = meaning(expectedBinary, expectedJSON)
        switch flawKind?.rule ?? .valid {
        case .valid:
            if input == .timRest, let timRest {
                checks.append(check(.required, outputName, [Self.timRestInputExpectation(timRest, output: output)]))
            } else {
                checks.append(check(.required, outputName, [exact]))
            }
            if output == .binary, input != .timRest {
                checks.append(check(.recommended, TestName.Output.canonicalBinary.rawValue, [.canonicalBinary(expectedBinary)]))
            }
        case .rejected:
            checks.append(check(rejectionLevel(levels), TestName.Output.parseError.rawValue, [.parseError]))
        case .acceptedOrRejected(let recommended):
            // The Recommended check is named as its golden case's: `ParseError` when it wants the
            // input refused.
            checks.append(check(.required, outputName, [exact, .parseError]))
            if recommended == .accepted {
                checks.append(check(.recommended, outputName, [exact]))
            } else {
                checks.append(check(.recommended, TestName.Output.parseError.rawValue, [.parseError]))
            }
        case .keptAsUnknownOrRejected:
            checks.append(check(.required, outputName, [exact, .parseError]))
            checks.append(check(.recommended, outputName, [exact]))
        case .invalidUTF8:
            checks.append(check(.recommended, TestName.Output.parseError.rawValue, [.parseError]))
        case .beyondDoublePrecision:
            var accepted = [exact]
            if let rounded = message.roundingBeyondDoublePrecision() {
                let sentRounded = rounded.strippingUnknownFields()
                accepted.append(meaning(GeneratedBinaryWriter.canonical(sentRounded), GeneratedJSONWriter.canonical(sentRounded)))
            }
            checks.append(check(.required, outputName, accepted + [.parseError]))
            checks.append(check(.recommended, outputName, [exact]))
        case .emptyInput:
            checks.append(check(.required, outputName, [meaning([], Array("{}".utf8)), .parseError]))
            checks.append(check(.recommended, TestName.Output.parseError.rawValue, [.parseError]))
        }
        let request = ConformanceRequest(
            testName: checks.first?.name ?? "", payload: member, requestedOutputFormat: output,
            jsonIgnoreUnknownFields: input == .json && ignoreUnknownFields)
        return MaterializedCase(
            request: request, checks: checks, payload: payload, parts: parts, expectedBinary: expectedBinary, expectedJSON: expectedJSON)
    }

    /// The last segment of the tests that compare the answer with a message.
    private var outputName: String {
        switch output {
        case .json: TestName.Output.json.rawValue
        case .timRest: TestName.Output.timRest.rawValue
        default: TestName.Output.binary.rawValue
        }
    }

    /// The name of the first check ``materialize(levels:)`` makes.
    private func firstCheckName(levels: ExploreLevels) -> String {
        let (level, output): (TestName.Level, String) =
            switch flawKind?.rule ?? .valid {
            case .rejected: (rejectionLevel(levels), TestName.Output.parseError.rawValue)
            case .invalidUTF8: (.recommended, TestName.Output.parseError.rawValue)
            default: (.required, outputName)
            }
        return "\(level.rawValue).\(input.rawValue).\(className).\(output)"
    }

    /// Binary → tim-rest: IMWire's tim-rest writer is the reference (there is no second
    /// implementation of Tencent's mapping): its text, or `serialize_error` when tim-rest cannot
    /// carry the message.
    private static func timRestExpectation(ofCanonical binary: [UInt8]) -> Expectation {
        guard let message = try? Message(serializedBytes: binary) else { return .serializeError }
        guard let text = try? message.timRESTUTF8Bytes() else { return .serializeError }
        return .timRest(text)
    }

    /// tim-rest in: the message IMWire reads from the text, in the requested format.
    private static func timRestInputExpectation(_ timRest: [UInt8], output: WireFormat) -> Expectation {
        guard let message = try? Message(timRESTUTF8Bytes: timRest) else { return .parseError }
        switch output {
        case .json: return (try? message.jsonUTF8Bytes()).map { .json($0) } ?? .serializeError
        case .timRest: return .timRest(timRest)
        default: return (try? message.serializedBytes()).map { .binary($0) } ?? .serializeError
        }
    }
}

// MARK: Walking a generated message

extension GeneratedMessage {
    /// The flaws in the message, in document order (a case has one): each one's class and, for a
    /// flaw on a field, that field's table entry.
    func flaws() -> [(kind: FlawKind, field: FieldSchema?)] {
        var found: [(kind: FlawKind, field: FieldSchema?)] = []
        if let flaw { found.append((flaw.kind, nil)) }
        for field in fields {
            if let flaw = field.flaw { found.append((flaw.kind, info(field))) }
            for child in field.value.children { found += child.flaws() }
        }
        if unknownFields.contains(where: { schema.field(number: Int(clamping: $0.number)) != nil }) {
            found.append((.wrongWireType, nil))
        }
        return found
    }

    /// Whether every flaw still corrupts what it sits on (a shrunk case can leave a flaw with
    /// nothing to act on: a missing comma between fewer than two members, a flaw on an element of
    /// an emptied list).
    func flawsTakeEffect() -> Bool {
        if let flaw {
            switch flaw.kind {
            case .jsonMissingComma: if fields.count < 2 { return false }
            case .jsonMissingColon, .jsonTrailingCommaObject: if fields.isEmpty { return false }
            default: break
            }
        }
        for field in fields {
            if field.flaw != nil {
                switch field.value {
                case .texts(let list) where list.isEmpty: return false
                case .messages(let list) where list.isEmpty: return false
                case .map(let entries) where entries.isEmpty: return false
                default: break
                }
            }
            for child in field.value.children where !child.flawsTakeEffect() { return false }
        }
        return true
    }

    /// The message without unknown fields, at every level (what JSON can carry).
    func strippingUnknownFields() -> GeneratedMessage {
        var copy = self
        copy.unknownFields = []
        for index in copy.fields.indices { copy.fields[index].value = copy.fields[index].value.mappingChildren { $0.strippingUnknownFields() } }
        return copy
    }

    /// For a ``FlawKind/jsonBeyondDoublePrecision`` case: the message as a reader that parses the
    /// number as a double gets it, or `nil` when that double is out of range.
    func roundingBeyondDoublePrecision() -> GeneratedMessage? {
        var copy = self
        for index in copy.fields.indices {
            if copy.fields[index].flaw?.kind == .jsonBeyondDoublePrecision, case .varint(let raw) = copy.fields[index].value {
                let double = Double(raw)
                guard double < 18_446_744_073_709_551_616 else { return nil }
                copy.fields[index].value = .varint(UInt64(double))
                return copy
            }
            var failed = false
            copy.fields[index].value = copy.fields[index].value.mappingChildren { child in
                guard !failed else { return child }
                guard let rounded = child.roundingBeyondDoublePrecision() else {
                    failed = true
                    return child
                }
                return rounded
            }
            if failed { return nil }
        }
        return copy
    }
}

extension FieldValue {
    /// The sub-messages it holds.
    var children: [GeneratedMessage] {
        switch self {
        case .message(let child): [child]
        case .messages(let list): list
        default: []
        }
    }

    /// The value with each sub-message replaced by `transform` of it.
    func mappingChildren(_ transform: (GeneratedMessage) -> GeneratedMessage) -> FieldValue {
        switch self {
        case .message(let child): .message(transform(child))
        case .messages(let list): .messages(list.map(transform))
        default: self
        }
    }
}
