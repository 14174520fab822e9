/// Writes the ``JSONValue`` tree the tim-rest encoder builds as JSON text: members in the tree's
/// order, strings in the canonical escaping shared with proto3 JSON (only `"`, `\` and
/// U+0000–U+001F escaped, everything else raw UTF-8), numbers as their text, compact — or indented
/// by two spaces with a space after each `:` when pretty-printing.
enum TIMRESTWriter {
    static func write(_ value: JSONValue, pretty: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, pretty: pretty, indent: 0, to: &output)
        return output
    }

    private static func newline(_ indent: Int, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static func write(_ value: JSONValue, pretty: Bool, indent: Int, to output: inout [UInt8]) {
        switch value {
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { newline(indent + 1, to: &output) }
                JSONWriter.appendString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                write(member.value, pretty: pretty, indent: indent + 1, to: &output)
            }
            if pretty, !members.isEmpty { newline(indent, to: &output) }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { newline(indent + 1, to: &output) }
                write(element, pretty: pretty, indent: indent + 1, to: &output)
            }
            if pretty, !elements.isEmpty { newline(indent, to: &output) }
            output.append(UInt8(ascii: "]"))
        case .string(let string):
            JSONWriter.appendString(string, to: &output)
        case .number(let text):
            output.append(contentsOf: text.utf8)
        case .bool(let bool):
            output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .null:
            output.append(contentsOf: "null".utf8)
        }
    }
}
