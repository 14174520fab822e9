import IMWireCore
import IMWireJSONText

/// Writes the canonical proto3 JSON form while visiting a message's fields:
/// lowerCamelCase keys in field-number order, defaults omitted, 64-bit integers as strings, bytes
/// as padded standard base64, enums by name (unknown numbers as numbers), doubles in shortest
/// round-trip form (`NaN`, `Infinity`, `-Infinity` as strings), compact unless pretty-printed.
/// Unknown fields have no JSON form and are left out. Escaping, numbers and layout are
/// ``JSONTextWriter``'s.
@usableFromInline package struct JSONWriter: FieldVisitor {
    @usableFromInline package typealias Failure = IMWireError
    /// The text: escaping, numbers and layout (compact or pretty).
    private var text: JSONTextWriter<OutputBytes>
    /// The JSON names of every type of the schema file (never freed), and of the object being
    /// written: plain pointers, no reference counting per member.
    private let nameTable: UnsafeMutablePointer<JSONFieldNames>
    private var names: UnsafeMutablePointer<JSONFieldNames>
    private var depth = 1
    private let maxDepth: Int
    private var stackGuard = StackGuard()

    @usableFromInline package static func encode<M: JSONFieldReading>(_ message: M, options: JSONEncodingOptions) throws(IMWireError) -> [UInt8] {
        var writer = JSONWriter(names: JSONNameTable.of(M.self).types, M._typeIndex, options: options)
        defer { writer.text.output.deallocate() }
        writer.text.beginObject()
        try message.traverse(&writer)
        writer.text.endObject()
        return writer.text.output.bytes()
    }

    private init(names nameTable: UnsafeMutablePointer<JSONFieldNames>, _ layoutIndex: Int, options: JSONEncodingOptions) {
        // [unsafe: json-names] `layoutIndex` is the type's index in the table of its own schema file
        // (``JSONNameTable/of(_:)``).
        self.nameTable = nameTable
        names = nameTable + layoutIndex
        text = JSONTextWriter(into: OutputBytes(capacity: 256), pretty: options.prettyPrinted)
        self.maxDepth = options.maxDepth
    }

    // MARK: - Structure

    /// Starts a member of the current object: comma, indentation, `"key":`.
    @inline(__always)
    private mutating func key(_ field: Int) {
        // [unsafe: json-names] ``JSONFieldNames/key(number:)`` checks `number < numberLimit`.
        text.key(encoded: names.pointee.key(number: field))
    }

    private mutating func writeObject<M: ProtoMessage>(_ message: M) throws(IMWireError) {
        // [unsafe: json-names] a nested type's index in the same schema file's table (a message field's type
        // is of the same file).
        guard depth < maxDepth else {
            throw .depthLimitExceeded(.encodedMessages, limit: maxDepth)
        }
        let outerNames = names
        names = nameTable + M._typeIndex
        depth += 1
        try stackGuard.check(depth: depth)
        text.beginObject()
        try message.traverse(&self)
        text.endObject()
        depth -= 1
        names = outerNames
    }

    private mutating func writeArray<T>(_ values: [T], _ element: (inout JSONWriter, T) throws(IMWireError) -> Void) throws(IMWireError) {
        text.beginArray()
        for value in values {
            text.element()
            try element(&self, value)
        }
        text.endArray()
    }

    // MARK: - Values

    private mutating func writeEnum<E: ProtoEnum>(_ value: E) {
        writeEnum(number: value.rawValue, E.schema)
    }

    /// An enum value by its name, or by its number when `schema` does not name it.
    private mutating func writeEnum(number: Int32, _ schema: EnumSchema?) {
        if let name = schema?.nameUTF8(of: number) {
            // Enum names are identifiers: nothing to escape.
            text.append(UInt8(ascii: "\""))
            text.append(name)
            text.append(UInt8(ascii: "\""))
        } else {
            text.integer(Int64(number))
        }
    }

    private mutating func writeBytes(_ value: [UInt8]) {
        value.withUnsafeBufferPointer { writeBytes($0) }
    }

    /// Bytes as a string of padded standard base64 (nothing in it to escape).
    private mutating func writeBytes(_ value: UnsafeBufferPointer<UInt8>) {
        text.append(UInt8(ascii: "\""))
        Base64.encode(value, into: &text)
        text.append(UInt8(ascii: "\""))
    }

    // MARK: - FieldVisitor

    @usableFromInline package mutating func visitString(_ value: String, field: Int) {
        key(field)
        text.string(value)
    }

    @usableFromInline package mutating func visitBytes(_ value: [UInt8], field: Int) {
        key(field)
        writeBytes(value)
    }

    @usableFromInline package mutating func visitUInt64(_ value: UInt64, field: Int) {
        key(field)
        text.quotedInteger(value)
    }

    @usableFromInline package mutating func visitUInt32(_ value: UInt32, field: Int) {
        key(field)
        text.integer(UInt64(value))
    }

    @usableFromInline package mutating func visitInt32(_ value: Int32, field: Int) {
        key(field)
        text.integer(Int64(value))
    }

    @usableFromInline package mutating func visitBool(_ value: Bool, field: Int) {
        key(field)
        text.bool(value)
    }

    @usableFromInline package mutating func visitDouble(_ value: Double, field: Int) {
        key(field)
        writeDouble(value)
    }

    /// A double, or proto3 JSON's strings for the values JSON numbers cannot be.
    private mutating func writeDouble(_ value: Double) {
        if value.isNaN {
            text.append("\"NaN\"")
        } else if value.isInfinite {
            text.append(value < 0 ? "\"-Infinity\"" : "\"Infinity\"")
        } else {
            text.double(value)
        }
    }

    @usableFromInline package mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) {
        key(field)
        writeEnum(value)
    }

    @usableFromInline package mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) throws(IMWireError) {
        key(field)
        try writeObject(value)
    }

    @usableFromInline package mutating func visitRepeatedString(_ value: [String], field: Int) throws(IMWireError) {
        key(field)
        try writeArray(value) { (writer, string) throws(IMWireError) in writer.text.string(string) }
    }

    @usableFromInline package mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) throws(IMWireError) {
        key(field)
        try writeArray(value) { (writer, message) throws(IMWireError) in try writer.writeObject(message) }
    }

    @usableFromInline package mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) {
        key(field)
        text.beginObject()
        for entry in value {
            text.key(entry.key)
            writeBytes(entry.value)
        }
        text.endObject()
    }

    @usableFromInline package mutating func visitUnknownFields(_ value: UnknownFields) {
        // Unknown fields have no JSON representation (proto3 JSON mapping); they are left out.
    }
}
