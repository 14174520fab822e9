import ArgumentParser
import IMWire

/// A wire format the CLI reads or writes.
enum Format: String, ExpressibleByArgument, CaseIterable {
    case binary
}

/// `imwire convert --from F --to F [FILE]`: decodes FILE (or stdin) and writes its canonical form.
struct ConvertCommand: IMWireSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode a message and write it in canonical form to stdout.",
        discussion: "Binary output is the canonical encoding: fields in number order, defaults omitted, unknown fields last."
    )

    @Option(help: "Input format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var from: Format

    @Option(help: "Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var to: Format

    @Option(help: "Largest input accepted, in bytes.")
    var maxInputSize: Int = BinaryDecodingOptions.defaultMaxInputSize

    @Option(help: "Deepest message nesting accepted, in message levels.")
    var maxDepth: Int = BinaryDecodingOptions.defaultMaxDepth

    @Argument(help: "Input file; standard input when absent or '-'.")
    var file: String?

    func execute(input: CLIInput, output: inout CLIOutput) throws {
        let bytes = try readInput(file, input: input, limit: maxInputSize)
        let options = BinaryDecodingOptions(maxDepth: maxDepth, maxInputSize: maxInputSize)
        let message: Message
        switch from {
        case .binary: message = try Message(serializedBytes: bytes, options: options)
        }
        switch to {
        case .binary: output.stdout += try message.serializedBytes(options: BinaryEncodingOptions(maxDepth: maxDepth))
        }
    }
}
