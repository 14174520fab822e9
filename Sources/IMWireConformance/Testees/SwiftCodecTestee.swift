import IMWire

/// IMWire itself as a testee: what `imwire testee` serves and `imwire conformance` tests by default.
///
/// Binary, JSON and tim-rest input and output (default options, unknown JSON fields ignored when the
/// request asks), validation with the `none`,
/// `tencent` and `zim` profiles. Error strings follow the protocol's
/// convention: `CODE: reason (at byte N)` for decode and encode errors (``IMWireError/description``),
/// `CODE[,CODE…]: violation; violation…` for validation (distinct codes sorted, then every
/// ``Violation`` in the order ``Message/validate(profile:)`` returns them).
public enum SwiftCodecTestee {
    /// Decodes, validates and encodes as `request` asks, with IMWire's default options.
    public static func respond(to request: ConformanceRequest) -> ConformanceResponse {
        ConformanceResponse(result: result(for: request))
    }

    private static func result(for request: ConformanceRequest) -> ConformanceResponse.Result {
        let message: Message
        do {
            switch request.payload {
            case .binaryPayload(let bytes)?: message = try Message(serializedBytes: bytes)
            case .jsonPayload(let bytes)?:
                message = try Message(jsonUTF8Bytes: bytes, options: JSONDecodingOptions(ignoreUnknownFields: request.jsonIgnoreUnknownFields))
            case .timRestPayload(let bytes)?: message = try Message(timRESTUTF8Bytes: bytes)
            case nil: return .runtimeError("the request has no payload")
            }
        } catch {
            return .parseError(error.description)
        }

        if !request.validationProfile.isEmpty {
            guard let profile = ValidationProfile(preset: request.validationProfile) else {
                let known = ValidationProfile.presets.map(\.name).joined(separator: ", ")
                return .runtimeError("unknown validation profile \"\(request.validationProfile)\" (known: \(known))")
            }
            let violations = message.validate(profile: profile)
            if !violations.isEmpty {
                let details = violations.map(\.description).joined(separator: "; ")
                return .validationError("\(ErrorCodes.prefix(for: violations.map(\.code.name))): \(details)")
            }
        }

        do {
            switch request.requestedOutputFormat {
            case .binary: return .binaryPayload(try message.serializedBytes())
            case .json: return .jsonPayload(try message.jsonUTF8Bytes())
            case .timRest: return .timRestPayload(try message.timRESTUTF8Bytes())
            case .unspecified, .unrecognized:
                return .runtimeError("unsupported requested_output_format \(request.requestedOutputFormat)")
            }
        } catch {
            return .serializeError(error.description)
        }
    }
}
