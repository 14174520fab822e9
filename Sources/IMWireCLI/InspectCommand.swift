import ArgumentParser
import IMWire

/// `imwire inspect [FILE]`: an annotated dump of a binary message.
struct InspectCommand: IMWireSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print an annotated dump of a binary message: offsets, field numbers, wire types, schema names, values.",
        discussion: "Fields the schema does not know are marked [unknown]."
    )

    @Option(help: "Largest input accepted, in bytes.")
    var maxInputSize: Int = BinaryDecodingOptions.defaultMaxInputSize

    @Argument(help: "Input file; standard input when absent or '-'.")
    var file: String?

    func execute(input: CLIInput, output: inout CLIOutput) throws {
        let bytes = try readInput(file, input: input, limit: maxInputSize)
        let text = try WireInspector.dump(bytes, options: BinaryDecodingOptions(maxInputSize: maxInputSize))
        output.stdout += Array(text.utf8)
    }
}
