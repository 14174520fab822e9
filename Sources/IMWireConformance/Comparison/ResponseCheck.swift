import IMWire

/// The verdict on one response.
public enum Verdict: Sendable, Hashable {
    case passed
    /// What was expected and what came back, on one line.
    case failed(String)
    /// The testee's reason.
    case skipped(String)
}

/// Checks a testee's response against a case's ``Expectation``.
enum ResponseCheck {
    static func verdict(for response: ConformanceResponse, expecting expectation: Expectation) -> Verdict {
        guard let result = response.result else {
            return .failed("expected \(describe(expectation)), got an empty response (no result set)")
        }
        if case .skipped(let reason) = result { return .skipped(reason) }
        if case .orParseError(let wanted) = expectation {
            if case .parseError = result { return .passed }
            let verdict = verdict(for: response, expecting: wanted)
            if case .failed(let detail) = verdict { return .failed("\(detail) (a parse_error would pass too)") }
            return verdict
        }
        switch (expectation, result) {
        case (.binary(let expected), .binaryPayload(let actual)):
            return compareParsed(expected: expected, actual: actual, format: .binary)

        case (.canonicalBinary(let expected), .binaryPayload(let actual)):
            if actual == expected { return .passed }
            return .failed("expected the canonical binary_payload \(Shorten.countedHex(expected)), got \(Shorten.countedHex(actual)); \(Shorten.firstDifference(expected: expected, actual: actual))")

        case (.json(let expected), .jsonPayload(let actual)):
            return compareParsed(expected: expected, actual: actual, format: .json)

        case (.timRest(let expected), .timRestPayload(let actual)):
            return compareParsed(expected: expected, actual: actual, format: .timRest)

        case (.parseError, .parseError):
            return .passed

        case (.parseErrorCode(let code), .parseError(let text)):
            if ErrorCodes.codes(in: text) == [code] { return .passed }
            return .failed("expected parse_error starting with \"\(code):\", got parse_error \"\(Shorten.text(text))\"")

        case (.serializeError, .serializeError):
            return .passed

        case (.serializeErrorCode(let code), .serializeError(let text)):
            if ErrorCodes.codes(in: text) == [code] { return .passed }
            return .failed("expected serialize_error starting with \"\(code):\", got serialize_error \"\(Shorten.text(text))\"")

        case (.validationError(let codes), .validationError(let text)):
            let actual = Set(ErrorCodes.codes(in: text))
            if actual == Set(codes) { return .passed }
            return .failed("expected validation_error with codes \(ErrorCodes.prefix(for: codes)), got validation_error \"\(Shorten.text(text))\"")

        default:
            return .failed("expected \(describe(expectation)), got \(describe(result))")
        }
    }

    /// A format whose output is compared as a parsed message.
    private enum ParsedFormat {
        case binary, json, timRest

        var member: String {
            switch self {
            case .binary: "binary_payload"
            case .json: "json_payload"
            case .timRest: "tim_rest_payload"
            }
        }

        var name: String {
            switch self {
            case .binary: "protobuf binary"
            case .json: "proto3 JSON"
            case .timRest: "tim-rest JSON"
            }
        }

        func show(_ bytes: [UInt8]) -> String {
            self == .binary ? Shorten.countedHex(bytes) : Shorten.text(bytes)
        }

        /// Generous limits: the output of a correct testee for any fixture decodes.
        private static let binaryOptions = BinaryDecodingOptions(
            maxDepth: SchemaWireWalker.maxDepth, maxInputSize: Framing.maxFrameSize)

        /// The message `bytes` stand for, as IMWire's canonical binary with unknown fields in
        /// normal form.
        func normalForm(_ bytes: [UInt8]) throws(IMWireError) -> [UInt8] {
            let message: Message =
                switch self {
                case .binary: try Message(serializedBytes: bytes, options: Self.binaryOptions)
                case .json: try Message(jsonUTF8Bytes: bytes)
                case .timRest: try Message(timRESTUTF8Bytes: bytes)
                }
            let canonical = try message.serializedBytes(options: BinaryEncodingOptions(maxDepth: SchemaWireWalker.maxDepth))
            guard let normal = SchemaWireWalker.normalizingUnknownFields(canonical, schema: Message.schema) else {
                throw IMWireError.depthLimitExceeded("the message nests deeper than the suite compares (\(counted(SchemaWireWalker.maxDepth, "level")))")
            }
            return normal
        }
    }

    /// Outputs are compared as parsed messages: both are decoded by IMWire's decoder for the format
    /// and compared in normal form (``ParsedFormat/normalForm(_:)``), byte for byte — so even
    /// canonically equivalent strings such as "é" and "e\u{301}" differ, as their bytes do.
    private static func compareParsed(expected: [UInt8], actual: [UInt8], format: ParsedFormat) -> Verdict {
        let expectedForm: [UInt8]
        do {
            expectedForm = try format.normalForm(expected)
        } catch {
            return .failed("the fixture's \(format.name) does not decode with IMWire (\(error)): \(format.show(expected))")
        }
        let actualForm: [UInt8]
        do {
            actualForm = try format.normalForm(actual)
        } catch {
            return .failed("expected \(format.member) \(format.show(expected)), got \(format.member) that is not valid \(format.name) for imwire.v1.Message (\(error)): \(format.show(actual))")
        }
        if actualForm == expectedForm { return .passed }
        return .failed("expected \(format.member) \(format.show(expected)), got \(format.show(actual)) (a different message; in canonical binary, \(Shorten.firstDifference(expected: expectedForm, actual: actualForm)))")
    }

    static func describe(_ expectation: Expectation) -> String {
        switch expectation {
        case .binary(let bytes): "binary_payload \(Shorten.countedHex(bytes))"
        case .canonicalBinary(let bytes): "the canonical binary_payload \(Shorten.countedHex(bytes))"
        case .json(let bytes): "json_payload \(Shorten.text(bytes))"
        case .timRest(let bytes): "tim_rest_payload \(Shorten.text(bytes))"
        case .parseError: "parse_error"
        case .parseErrorCode(let code): "parse_error starting with \"\(code):\""
        case .serializeError: "serialize_error"
        case .serializeErrorCode(let code): "serialize_error starting with \"\(code):\""
        case .validationError(let codes): "validation_error with codes \(ErrorCodes.prefix(for: codes))"
        case .orParseError(let wanted): "\(describe(wanted)) or parse_error"
        }
    }

    static func describe(_ result: ConformanceResponse.Result) -> String {
        switch result {
        case .parseError(let text): "parse_error \"\(Shorten.text(text))\""
        case .serializeError(let text): "serialize_error \"\(Shorten.text(text))\""
        case .validationError(let text): "validation_error \"\(Shorten.text(text))\""
        case .runtimeError(let text): "runtime_error \"\(Shorten.text(text))\""
        case .binaryPayload(let bytes): "binary_payload \(Shorten.countedHex(bytes))"
        case .jsonPayload(let bytes): "json_payload \(Shorten.text(bytes))"
        case .timRestPayload(let bytes): "tim_rest_payload \(Shorten.text(bytes))"
        case .skipped(let text): "skipped \"\(Shorten.text(text))\""
        }
    }
}
