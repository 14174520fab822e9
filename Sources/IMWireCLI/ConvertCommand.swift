import ArgumentParser
import IMWire

/// A wire format the CLI reads or writes.
enum Format: String, ExpressibleByArgument, CaseIterable {
    case binary
    case json
    case timRest = "tim-rest"

    /// The format `bytes` look like, for `validate` and `convert` without `--format` / `--from`:
    ///
    /// - text is JSON: after ASCII whitespace it starts with `{` or `[`, and it has no control
    ///   byte but tab, line feed and carriage return (JSON allows no other outside strings and
    ///   none raw inside them, while a binary message has tag and length bytes below 0x20);
    /// - JSON text is tim-rest when it is an array (a bare `MsgBody`) or has a `"MsgBody"` or
    ///   `"MsgType"` key (proto3 JSON of `imwire.v1.Message` has neither: its keys are
    ///   lowerCamelCase, and inside a string the quotes would be escaped), proto3 JSON otherwise;
    /// - anything else is binary, empty input too (the empty message).
    static func detect(_ bytes: [UInt8]) -> Format {
        guard let first = bytes.first(where: { !Self.isJSONWhitespace($0) }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
              !bytes.contains(where: { $0 < 0x20 && !Self.isJSONWhitespace($0) })
        else { return .binary }
        if first == UInt8(ascii: "[") { return .timRest }
        let keys = [Array(#""MsgBody""#.utf8), Array(#""MsgType""#.utf8)]
        return keys.contains(where: { bytes.contains(subsequence: $0) }) ? .timRest : .json
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// What to add to a decode error's line so that a wrong format is easy to spot: the format
    /// the input was read as when it was detected, or the format it looks like when `--format` /
    /// `--from` named another one. `option` is that option's name.
    static func hint(for bytes: [UInt8], readAs format: Format, detected: Bool, option: String) -> String? {
        if detected {
            return "read as \(format.rawValue), detected from the input; \(option) names the format"
        }
        // An empty (or blank) input looks like nothing: its error says it is empty.
        let likely = detect(bytes)
        guard likely != format, bytes.contains(where: { !Self.isJSONWhitespace($0) }) else { return nil }
        return "the input looks like \(likely.rawValue), not \(format.rawValue): try \(option) \(likely.rawValue)"
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in this array (linear in practice: the needles are short keys).
    fileprivate func contains(subsequence needle: [UInt8]) -> Bool {
        guard let head = needle.first, needle.count <= count else { return false }
        var index = startIndex
        while let found = self[index...].firstIndex(of: head), found + needle.count <= endIndex {
            if self[found..<(found + needle.count)].elementsEqual(needle) { return true }
            index = found + 1
        }
        return false
    }
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

    /// Reads FILE or stdin (at most the size limit) and decodes it in `format`, or in the format
    /// the bytes look like (``Format/detect(_:)``) when `format` is nil. A decode error carries a
    /// hint naming the format that was read and, when another one is likely, that one; `option`
    /// is the option that names the format (`--format`, `--from`).
    func read(as format: Format?, option: String, from input: CLIInput) throws -> Message {
        let bytes = try readInput(file, input: input, limit: maxInputSize)
        let chosen = format ?? Format.detect(bytes)
        do {
            return try decode(bytes, as: chosen)
        } catch {
            throw CLIDecodeError(
                error: error, hint: Format.hint(for: bytes, readAs: chosen, detected: format == nil, option: option))
        }
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
            Without --from the input format is detected: JSON text (starting with '{' or '[') is tim-rest when it \
            is an array or has a "MsgBody" or "MsgType" key and proto3 JSON otherwise; anything else is binary. \
            A decode error then says which format was read.

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
        let message = try limits.read(as: from, option: "--from", from: input)
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
