import ArgumentParser
import IMWire

/// `imwire inspect [FILE]`: an annotated dump of a binary message.
struct InspectCommand: IMWireSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print an annotated dump of a binary message: offsets, field numbers, wire types, schema names, values.",
        discussion: "Fields the schema does not know are marked [unknown]. For a message that does not decode, prints the fields before the error, then the error."
    )

    @Option(help: "Largest input accepted, in bytes.")
    var maxInputSize: Int = BinaryDecodingOptions.defaultMaxInputSize

    @Argument(help: "Input file; standard input when absent or '-'.")
    var file: String?

    func execute(input: CLIInput, output: inout CLIOutput) throws {
        let bytes = try readInput(file, input: input, limit: maxInputSize)
        // What can be read, then the error: the fields before a corruption are often the clue.
        let (dump, error) = WireInspector.dump(bytes, options: BinaryDecodingOptions(maxInputSize: maxInputSize))
        output.stdout += Array(dump.utf8)
        if let error {
            let likely = FormatDetection.likelyFormat(bytes)
            let hint = NonMessage.describe(bytes, readAs: .binary, option: "--from")
                ?? likely.flatMap { $0 == .binary ? nil : "the input looks like \($0.rawValue): inspect reads binary (imwire convert --to binary makes it)" }
            throw CLIDecodeError(error: error, hint: hint)
        }
    }
}
