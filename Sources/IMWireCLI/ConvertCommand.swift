import ArgumentParser
import IMWire

/// A wire format the CLI reads or writes.
enum Format: String, ExpressibleByArgument, CaseIterable {
    case binary
    case json
    case timRest = "tim-rest"

}

/// A decode error with a hint about the input's format, printed as one line:
/// `error: CODE: reason (at byte N); HINT`.
struct CLIDecodeError: Error, CustomStringConvertible {
    var error: IMWireError
    var hint: String?
    var description: String { "\(error)" + (hint.map { "; " + $0 } ?? "") }
}

/// The message a command reads: FILE (or stdin) and the decoding limits, shared by the commands
/// that decode one.
struct MessageInput: ParsableArguments {
    @Option(help: "Largest input accepted, in bytes (with convert --stream: per record).")
    var maxInputSize: Int = BinaryDecodingOptions.defaultMaxInputSize

    @Option(help: "Deepest message nesting accepted, in message levels.")
    var maxDepth: Int = BinaryDecodingOptions.defaultMaxDepth

    @Flag(help: "JSON input: skip keys that are not fields of the schema instead of failing (a warning each on stderr).")
    var ignoreUnknownFields = false

    @Flag(help: "Refuse keys the input format does not have instead of skipping them with a warning: in tim-rest a key no Tencent page documents for its object, a value the key does not define, a second spelling that disagrees (documented keys the model has no field for stay warnings); in proto3 JSON an unknown field, as without --ignore-unknown-fields.")
    var strict = false

    /// The highest `--max-depth` accepted: the CLI reserves stack for it (``StackThread``).
    static let maxDepthCeiling = 20_000

    func validate() throws {
        guard (1...Self.maxDepthCeiling).contains(maxDepth) else {
            throw ValidationError("--max-depth must be between 1 and \(Self.maxDepthCeiling)")
        }
        guard maxInputSize >= 0 else { throw ValidationError("--max-input-size must not be negative") }
        if strict, ignoreUnknownFields {
            throw ValidationError("--strict refuses the keys --ignore-unknown-fields skips: give one of them")
        }
    }

    @Argument(help: "Input file; standard input when absent or '-'.")
    var file: String?

    /// Reads FILE or stdin (at most the size limit) and decodes it in `format`, or in the format
    /// the bytes are without doubt (``FormatDetection``) when `format` is nil — a usage error when
    /// they leave it open. Every key the decode skipped is a `warning: REASON: … (at PATH)` line on
    /// stderr. A decode error carries a hint naming what the input is, the format that was read,
    /// or the one it looks like; `option` is the option that names the format (`--format`, `--from`).
    func read(as format: Format?, option: String, from input: CLIInput, output: inout CLIOutput) throws -> Message {
        let bytes = try readInput(file, input: input, limit: maxInputSize)
        let chosen = try format ?? FormatDetection.detect(bytes, option: option)
        return try decodeReporting(bytes, as: chosen, detected: format == nil, option: option, output: &output)
    }

    /// The violations of `profile` in FILE (or stdin). A binary input is validated through the
    /// message view, without building a `Message` (the same violations, the same errors).
    func validate(
        _ profile: ValidationProfile, as format: Format?, option: String, from input: CLIInput, output: inout CLIOutput
    ) throws -> [Violation] {
        let bytes = try readInput(file, input: input, limit: maxInputSize)
        let chosen = try format ?? FormatDetection.detect(bytes, option: option)
        guard chosen == .binary else {
            return try decodeReporting(bytes, as: chosen, detected: format == nil, option: option, output: &output)
                .validate(profile: profile)
        }
        do {
            return try Message.validate(
                serializedBytes: bytes, options: BinaryDecodingOptions(maxDepth: maxDepth, maxInputSize: maxInputSize),
                profile: profile)
        } catch {
            throw CLIDecodeError(
                error: error, hint: FormatDetection.hint(for: bytes, readAs: chosen, detected: format == nil, option: option))
        }
    }

    /// Decodes `bytes` as `chosen`, the skipped keys as warnings on stderr.
    private func decodeReporting(
        _ bytes: [UInt8], as chosen: Format, detected: Bool, option: String, output: inout CLIOutput
    ) throws -> Message {
        let format: Format? = detected ? nil : chosen
        var report = DecodingReport()
        do {
            let message = try decode(bytes, as: chosen, report: &report)
            for skipped in report.skippedKeys { output.stderr += "warning: \(skipped)\n" }
            return message
        } catch {
            throw CLIDecodeError(
                error: error, hint: FormatDetection.hint(for: bytes, readAs: chosen, detected: format == nil, option: option))
        }
    }

    /// Decodes `bytes` in `format` with these limits, putting the keys skipped in `report`.
    func decode<Bytes: Collection>(
        _ bytes: Bytes, as format: Format, report: inout DecodingReport
    ) throws(IMWireError) -> Message where Bytes.Element == UInt8 {
        switch format {
        case .binary:
            report = DecodingReport()
            return try Message(serializedBytes: bytes, options: BinaryDecodingOptions(maxDepth: maxDepth, maxInputSize: maxInputSize))
        case .json:
            return try Message(
                jsonUTF8Bytes: bytes,
                options: JSONDecodingOptions(ignoreUnknownFields: ignoreUnknownFields, maxDepth: maxDepth, maxInputSize: maxInputSize),
                report: &report)
        case .timRest:
            return try Message(
                timRESTUTF8Bytes: bytes,
                options: TIMRESTDecodingOptions(maxDepth: maxDepth, maxInputSize: maxInputSize, rejectsUnknownKeys: strict),
                report: &report)
        }
    }
}

/// `imwire convert --from F --to F [FILE]`: decodes FILE (or stdin) and writes its canonical form;
/// with `--stream`, a stream of messages record by record (``StreamConversion``).
struct ConvertCommand: IMWireSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode a message (or, with --stream, a stream of messages) and write it in canonical form to stdout.",
        discussion: """
            Without --from the input format is detected, only where the input leaves no doubt: JSON text \
            (starting with '{' or '[') is tim-rest when it is an array or its top-level keys are tim-rest keys, and \
            proto3 JSON when they are fields of imwire.v1.Message; keys of both dialects, or of neither, are a usage \
            error (format_not_detected, status 2) naming them and the --from to pass. Anything else is binary. A \
            decode error then says which format was read.

            A key the decoder skips (an unknown proto3 JSON field with --ignore-unknown-fields, a tim-rest key the \
            model has no field for or Tencent does not document) is a line on stderr, \
            `warning: REASON: … (at PATH)`, naming the key it was probably meant to be; --strict refuses the \
            unknown ones instead.

            Binary output is the canonical encoding: fields in number order, defaults omitted, unknown fields last. \
            JSON output is canonical proto3 JSON (compact unless --pretty); unknown fields have no JSON form. \
            tim-rest is Tencent Cloud IM's REST JSON (MsgBody, sendmsg / send_group_msg, webhook bodies); \
            what it cannot carry (group tips, non-UTF-8 custom data, …) is an error, never dropped.

            With --stream the input is a stream of messages, converted one record at a time in constant memory: \
            binary is length-delimited (each message preceded by its length as a varint, as C++ \
            SerializeDelimitedTo, Java writeDelimitedTo and Go protodelim write it); json and tim-rest are \
            one message per line (NDJSON: `\\n` or `\\r\\n`, blank lines skipped; output is compact, one line per \
            message). --max-input-size is then the limit per record. A bad record prints \
            `error: record N: CODE: reason (at byte OFFSET)` (N counts records from 0, OFFSET is in the whole \
            stream) and stops the conversion; with --continue-on-error a record that fails to decode, encode \
            or validate is skipped instead. A broken frame (a bad length prefix, a record over the limit, a \
            stream that ends inside a record) always stops: what follows cannot be found. The records before \
            a stop are written. At the end standard error gets `converted N records (M bad)`, and a progress \
            line while running when it is a terminal. Exit status 1 if any record was bad.
            """
    )

    @Option(help: "Input format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")); detected from the input when absent (not with --stream).")
    var from: Format?

    @Option(help: "Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var to: Format

    @Flag(help: "JSON and tim-rest output: indent with two spaces.")
    var pretty = false

    @Option(help: "Validate against this profile first (\(ProfileOption.names)); a violation is an error and nothing is written.")
    var profile: ProfileOption?

    @Flag(help: "Convert a stream of messages: length-delimited binary, or one JSON / tim-rest message per line.")
    var stream = false

    @Flag(help: "With --stream: report a record that fails to decode, encode or validate, skip it and go on.")
    var continueOnError = false

    @OptionGroup var limits: MessageInput

    var maxNestingDepth: Int { limits.maxDepth }

    func validate() throws {
        if continueOnError, !stream { throw ValidationError("--continue-on-error needs --stream") }
        if stream, pretty { throw ValidationError("--pretty cannot be used with --stream: a record is one line") }
        if stream, from == nil { throw ValidationError("--stream needs --from: the format is not detected from a stream") }
    }

    func execute(input: CLIInput, output: inout CLIOutput) throws {
        if stream {
            let conversion = StreamConversion(from: from ?? .binary, to: to, limits: limits, profile: profile, continueOnError: continueOnError)
            try conversion.run(input: input, output: &output)
            return
        }
        let message = try limits.read(as: from, option: "--from", from: input, output: &output)
        if let profile {
            let violations = message.validate(profile: profile.profile)
            if !violations.isEmpty { throw profile.failure(violations, listed: "see imwire validate") }
        }
        switch to {
        case .binary:
            output.stdout += try message.serializedBytes(options: BinaryEncodingOptions(maxDepth: limits.maxDepth))
        case .json:
            output.stdout += try message.jsonUTF8Bytes(options: JSONEncodingOptions(prettyPrinted: pretty, maxDepth: limits.maxDepth))
            output.stdout.append(UInt8(ascii: "\n"))
        case .timRest:
            output.stdout += try message.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(prettyPrinted: pretty, maxDepth: limits.maxDepth))
            output.stdout.append(UInt8(ascii: "\n"))
        }
    }
}
