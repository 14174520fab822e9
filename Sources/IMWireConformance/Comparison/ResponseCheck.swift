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
        switch (expectation, result) {
        case (.binary(let expected), .binaryPayload(let actual)):
            if actual == expected { return .passed }
            return .failed("expected binary_payload \(Shorten.countedHex(expected)), got \(Shorten.countedHex(actual)); \(Shorten.firstDifference(expected: expected, actual: actual))")

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

    private enum TextFormat {
        case json, timRest

        var member: String { self == .json ? "json_payload" : "tim_rest_payload" }
        var name: String { self == .json ? "proto3 JSON" : "tim-rest JSON" }

        func canonicalBinary(_ text: [UInt8]) throws(IMWireError) -> [UInt8] {
            switch self {
            case .json: try Message(jsonUTF8: text).serializedBytes()
            case .timRest: try Message(timRESTUTF8: text).serializedBytes()
            }
        }
    }

    /// JSON and tim-rest outputs are compared as parsed messages: both texts are decoded by IMWire's
    /// decoder for the format and the two messages compared by their canonical binary encoding
    /// (byte identity, so even canonically equivalent strings such as "é" and "e\u{301}" differ, as
    /// their bytes do).
    private static func compareParsed(expected: [UInt8], actual: [UInt8], format: TextFormat) -> Verdict {
        let expectedBinary: [UInt8]
        do {
            expectedBinary = try format.canonicalBinary(expected)
        } catch {
            return .failed("the fixture's \(format.name) does not decode with IMWire (\(error)): \(Shorten.text(expected))")
        }
        let actualBinary: [UInt8]
        do {
            actualBinary = try format.canonicalBinary(actual)
        } catch {
            return .failed("expected \(format.member) \(Shorten.text(expected)), got \(format.member) that is not valid \(format.name) for imwire.v1.Message (\(error)): \(Shorten.text(actual))")
        }
        if actualBinary == expectedBinary { return .passed }
        return .failed("expected \(format.member) \(Shorten.text(expected)), got \(Shorten.text(actual)) (a different message; as binary, \(Shorten.firstDifference(expected: expectedBinary, actual: actualBinary)))")
    }

    static func describe(_ expectation: Expectation) -> String {
        switch expectation {
        case .binary(let bytes): "binary_payload \(Shorten.countedHex(bytes))"
        case .json(let bytes): "json_payload \(Shorten.text(bytes))"
        case .timRest(let bytes): "tim_rest_payload \(Shorten.text(bytes))"
        case .parseError: "parse_error"
        case .parseErrorCode(let code): "parse_error starting with \"\(code):\""
        case .serializeError: "serialize_error"
        case .serializeErrorCode(let code): "serialize_error starting with \"\(code):\""
        case .validationError(let codes): "validation_error with codes \(ErrorCodes.prefix(for: codes))"
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
