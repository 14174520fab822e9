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
    @Option(help: "Largest input accepted, in bytes.")
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

/// `imwire convert --from F --to F [FILE]`: decodes FILE (or stdin) and writes its canonical form.
struct ConvertCommand: IMWireSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode a message and write it in canonical form to stdout.",
        discussion: """
            Binary output is the canonical encoding: fields in number order, defaults omitted, unknown fields last. \
            JSON output is canonical proto3 JSON (compact unless --pretty); unknown fields have no JSON form. \
            tim-rest is Tencent Cloud IM's REST JSON (MsgBody, sendmsg / send_group_msg, webhook bodies); \
            what it cannot carry (group tips, non-UTF-8 custom data, …) is an error, never dropped.
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

    @OptionGroup var limits: MessageInput

    var maxNestingDepth: Int { limits.maxDepth }

    func execute(input: CLIInput, output: inout CLIOutput) throws {
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
