import ArgumentParser
import IMWire

/// A wire format the CLI reads or writes.
enum Format: String, ExpressibleByArgument, CaseIterable {
    case binary
    case json
    case timRest = "tim-rest"
}

/// The message a command reads: FILE (or stdin) and the decoding limits, shared by the commands
/// that decode one.
struct MessageInput: ParsableArguments {
    @Option(help: "Largest input accepted, in bytes (with convert --stream: per record).")
    var maxInputSize: Int = BinaryDecodingOptions.defaultMaxInputSize

    @Option(help: "Deepest message nesting accepted, in message levels.")
    var maxDepth: Int = BinaryDecodingOptions.defaultMaxDepth

    @Flag(help: "JSON input: skip keys that are not fields of the schema instead of failing.")
    var ignoreUnknownFields = false

    /// The highest `--max-depth` accepted: the CLI reserves stack for it (``StackThread``).
    static let maxDepthCeiling = 20_000

    func validate() throws {
        guard (1...Self.maxDepthCeiling).contains(maxDepth) else {
            throw ValidationError("--max-depth must be between 1 and \(Self.maxDepthCeiling)")
        }
        guard maxInputSize >= 0 else { throw ValidationError("--max-input-size must not be negative") }
    }

    @Argument(help: "Input file; standard input when absent or '-'.")
    var file: String?

    /// Reads FILE or stdin (at most the size limit) and decodes it in `format`.
    func read(as format: Format, from input: CLIInput) throws -> Message {
        try decode(try readInput(file, input: input, limit: maxInputSize), as: format)
    }

    /// Decodes `bytes` in `format` with these limits.
    func decode(_ bytes: [UInt8], as format: Format) throws(IMWireError) -> Message {
        switch format {
        case .binary:
            return try Message(serializedBytes: bytes, options: BinaryDecodingOptions(maxDepth: maxDepth, maxInputSize: maxInputSize))
        case .json:
            return try Message(
                jsonUTF8Bytes: bytes,
                options: JSONDecodingOptions(ignoreUnknownFields: ignoreUnknownFields, maxDepth: maxDepth, maxInputSize: maxInputSize))
        case .timRest:
            return try Message(timRESTUTF8Bytes: bytes, options: TIMRESTDecodingOptions(maxDepth: maxDepth, maxInputSize: maxInputSize))
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

    @Option(help: "Input format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var from: Format

    @Option(help: "Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var to: Format

    @Flag(help: "JSON and tim-rest output: indent with two spaces.")
    var pretty = false

    @Option(help: "Validate against this profile first (\(ProfileOption.allCases.map(\.rawValue).joined(separator: ", "))); a violation is an error and nothing is written.")
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
    }

    func execute(input: CLIInput, output: inout CLIOutput) throws {
        if stream {
            let conversion = StreamConversion(from: from, to: to, limits: limits, profile: profile, continueOnError: continueOnError)
            try conversion.run(input: input, output: &output)
            return
        }
        let message = try limits.read(as: from, from: input)
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
