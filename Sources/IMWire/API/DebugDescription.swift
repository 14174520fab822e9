import IMWireCore
import IMWireBinary
import IMWireView
import IMWireJSONText
import IMWireJSON

/// Writes ``IMWireMessage/debugDescription``: `TypeName(field: value, …)` with the fields that are
/// set, by their Swift names, through the same `traverse` as the encoders (so it shows exactly what
/// would be encoded). Deep nesting is cut with `…` when the thread's stack runs low.
struct DebugDescription: FieldVisitor {
    typealias Failure = Never

    private var text = ""
    private var schema: MessageSchema
    private var isFirst = true
    private var stackGuard = StackGuard()
    private var depth = 0

    /// Bytes shown in hex before the rest is summarised by its count.
    private static let shownBytes = 32

    static func of<M: ProtoMessage>(_ message: M) -> String {
        var writer = DebugDescription(schema: M.schema)
        writer.writeMessage(message)
        return writer.text
    }

    private init(schema: MessageSchema) {
        self.schema = schema
    }

    private mutating func writeMessage<M: ProtoMessage>(_ message: M) {
        text += String(describing: M.self)
        depth += 1
        defer { depth -= 1 }
        if (try? stackGuard.check(depth: depth)) == nil {
            text += "(…)"
            return
        }
        let outer = (schema, isFirst)
        schema = M.schema
        isFirst = true
        text += "("
        message.traverse(&self)
        text += ")"
        (schema, isFirst) = outer
    }

    private mutating func label(_ field: Int) {
        if !isFirst { text += ", " }
        isFirst = false
        text += schema.field(number: field)?.swiftName ?? String(field)
        text += ": "
    }

    private mutating func writeBytes(_ value: [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = [UInt8(ascii: "<")]
        for byte in value.prefix(Self.shownBytes) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0xF)])
        }
        if value.count > Self.shownBytes { hex += Array("… \(counted(value.count, "byte"))".utf8) }
        hex.append(UInt8(ascii: ">"))
        text += String(decoding: hex, as: UTF8.self)
    }

    mutating func visitString(_ value: String, field: Int) {
        label(field)
        text += value.debugDescription
    }

    mutating func visitBytes(_ value: [UInt8], field: Int) {
        label(field)
        writeBytes(value)
    }

    mutating func visitUInt64(_ value: UInt64, field: Int) { label(field); text += String(value) }
    mutating func visitUInt32(_ value: UInt32, field: Int) { label(field); text += String(value) }
    mutating func visitInt32(_ value: Int32, field: Int) { label(field); text += String(value) }
    mutating func visitBool(_ value: Bool, field: Int) { label(field); text += String(value) }
    mutating func visitDouble(_ value: Double, field: Int) { label(field); text += String(value) }
    mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) {
        label(field)
        text += E.schema.name(of: value.rawValue) ?? String(value.rawValue)
    }

    mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) {
        label(field)
        writeMessage(value)
    }

    mutating func visitRepeatedString(_ value: [String], field: Int) {
        label(field)
        text += value.debugDescription
    }

    mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) {
        label(field)
        text += "["
        for (index, message) in value.enumerated() {
            if index > 0 { text += ", " }
            writeMessage(message)
        }
        text += "]"
    }

    mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) {
        label(field)
        text += "["
        for (index, entry) in value.enumerated() {
            if index > 0 { text += ", " }
            text += entry.key.debugDescription + ": "
            writeBytes(entry.value)
        }
        text += value.isEmpty ? ":]" : "]"
    }

    mutating func visitUnknownFields(_ value: UnknownFields) {
        if !isFirst { text += ", " }
        isFirst = false
        text += "unknownFields: \(counted(value.bytes.count, "byte"))"
    }
}
