/// Writes the canonical proto3 JSON form while visiting a message's fields:
/// lowerCamelCase keys in field-number order, defaults omitted, 64-bit integers as strings, bytes
/// as padded standard base64, enums by name (unknown numbers as numbers), doubles in shortest
/// round-trip form (`NaN`, `Infinity`, `-Infinity` as strings), compact unless pretty-printed.
/// Unknown fields have no JSON form and are left out. Escaping, numbers and layout are
/// ``JSONTextWriter``'s.
package struct JSONWriter: FieldVisitor {
    package typealias Failure = IMWireError
    /// The text: escaping, numbers and layout (compact or pretty).
    private var text: JSONTextWriter<OutputBytes>
    /// The JSON names of every type of the schema file (never freed), and of the object being
    /// written: plain pointers, no reference counting per member.
    private let nameTable: UnsafeMutablePointer<JSONFieldNames>
    private var names: UnsafeMutablePointer<JSONFieldNames>
    private var depth = 1
    private let maxDepth: Int
    private var stackGuard = StackGuard()

    package static func encode<M: ProtoMessage>(_ message: M, options: JSONEncodingOptions) throws(IMWireError) -> [UInt8] {
        var writer = JSONWriter(names: JSONNameTable.of(M.self).types, M._arenaLayoutIndex, options: options)
        defer { writer.text.output.deallocate() }
        if let arena = message._arena {
            try writer.writeArenaObject(arena.storage, arena.node, M._arenaTable.layouts, M._arenaLayoutIndex, checkDepth: false)
        } else {
            writer.text.beginObject()
            try message.traverse(&writer)
            writer.text.endObject()
        }
        return writer.text.output.bytes()
    }

    private init(names nameTable: UnsafeMutablePointer<JSONFieldNames>, _ layoutIndex: Int, options: JSONEncodingOptions) {
        self.nameTable = nameTable
        names = nameTable + layoutIndex
        text = JSONTextWriter(into: OutputBytes(capacity: 256), pretty: options.prettyPrinted)
        self.maxDepth = options.maxDepth
    }

    // MARK: - Structure

    /// Starts a member of the current object: comma, indentation, `"key":`.
    @inline(__always)
    private mutating func key(_ field: Int) {
        text.key(encoded: names.pointee.key(number: field))
    }

    private mutating func writeObject<M: ProtoMessage>(_ message: M) throws(IMWireError) {
        if let arena = message._arena {
            return try writeArenaObject(arena.storage, arena.node, M._arenaTable.layouts, M._arenaLayoutIndex, checkDepth: true)
        }
        guard depth < maxDepth else {
            throw .depthLimitExceeded(.encodedMessages, limit: maxDepth)
        }
        let outerNames = names
        names = nameTable + M._arenaLayoutIndex
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
        if let name = schema?.name(of: number) {
            // Enum names are identifiers: nothing to escape.
            text.append(UInt8(ascii: "\""))
            var name = name
            name.withUTF8 { text.append($0) }
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

    package mutating func visitString(_ value: String, field: Int) {
        key(field)
        text.string(value)
    }

    package mutating func visitBytes(_ value: [UInt8], field: Int) {
        key(field)
        writeBytes(value)
    }

    package mutating func visitUInt64(_ value: UInt64, field: Int) {
        key(field)
        text.quotedInteger(value)
    }

    package mutating func visitUInt32(_ value: UInt32, field: Int) {
        key(field)
        text.integer(UInt64(value))
    }

    package mutating func visitInt32(_ value: Int32, field: Int) {
        key(field)
        text.integer(Int64(value))
    }

    package mutating func visitBool(_ value: Bool, field: Int) {
        key(field)
        text.bool(value)
    }

    package mutating func visitDouble(_ value: Double, field: Int) {
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

    package mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) {
        key(field)
        writeEnum(value)
    }

    package mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) throws(IMWireError) {
        key(field)
        try writeObject(value)
    }

    package mutating func visitRepeatedString(_ value: [String], field: Int) throws(IMWireError) {
        key(field)
        try writeArray(value) { (writer, string) throws(IMWireError) in writer.text.string(string) }
    }

    package mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) throws(IMWireError) {
        key(field)
        try writeArray(value) { (writer, message) throws(IMWireError) in try writer.writeObject(message) }
    }

    package mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) {
        key(field)
        text.beginObject()
        for entry in value {
            text.key(entry.key)
            writeBytes(entry.value)
        }
        text.endObject()
    }

    package mutating func visitUnknownFields(_ value: UnknownFields) {
        // Unknown fields have no JSON representation (proto3 JSON mapping); they are left out.
    }

    // MARK: - A decoded value's node

    /// Writes the object of a decoded value from its arena node, by its layout: keys from the
    /// JSON names, strings and bytes from the storage's bytes — no model value made on the way.
    private mutating func writeArenaObject(
        _ storage: ArenaStorage, _ node: Int, _ layouts: UnsafeMutablePointer<ArenaLayout>, _ layoutIndex: Int,
        checkDepth: Bool
    ) throws(IMWireError) {
        if checkDepth {
            guard depth < maxDepth else {
                throw .depthLimitExceeded(.encodedMessages, limit: maxDepth)
            }
            depth += 1
            try stackGuard.check(depth: depth)
        }
        let layout = layouts[layoutIndex]
        let words = storage.words
        let outerNames = names
        names = nameTable + layoutIndex
        text.beginObject()
        // The fields the decoder wrote, in field-number order (bit i is the schema's field i).
        var present = words[node &+ 1]
        while present != 0 {
            let index = present.trailingZeroBitCount
            present &= present &- 1
            let (number, field) = layout.byIndex[index]
            let slot = node &+ Int(field.slot)
            switch field.container {
            case .single, .bits:
                let value = field.load(words[slot])
                guard Self.isPresent(value, field.kind) else { continue }
                key(number)
                try writeArenaValue(value, field, index: index, storage, layouts, layout)
            case .oneof:
                guard words[slot] == UInt64(truncatingIfNeeded: number) else { continue }
                key(number)
                try writeArenaValue(words[slot &+ 1], field, index: index, storage, layouts, layout)
            case .repeated:
                guard words[slot] != 0 else { continue }
                if field.kind == .stringToBytesMap {
                    visitStringToBytesMap(ArenaRef(storage, node).stringToBytesMap(Int(field.slot)), field: number)
                    continue
                }
                key(number)
                // A message entry's value is the element's node; any other's is a word.
                let isMessage = field.kind == .message
                try writeArray(ArenaList(storage, links: words[slot])) { (writer, entry) throws(IMWireError) in
                    let value = isMessage ? UInt64(truncatingIfNeeded: entry) : words[entry]
                    try writer.writeArenaValue(value, field, index: index, storage, layouts, layout)
                }
            }
        }
        text.endObject()
        names = outerNames
        if checkDepth { depth -= 1 }
    }

    /// Whether a singular field holding `value` is present (proto3: not its default).
    @inline(__always)
    private static func isPresent(_ value: UInt64, _ kind: ArenaField.Kind) -> Bool {
        switch kind {
        case .uint32, .int32, .enumeration: value & 0xFFFF_FFFF != 0
        default: value != 0
        }
    }

    /// One value of `field` (schema field `index` of `layout`) from its word.
    private mutating func writeArenaValue(
        _ value: UInt64, _ field: ArenaField, index: Int, _ storage: ArenaStorage,
        _ layouts: UnsafeMutablePointer<ArenaLayout>, _ layout: ArenaLayout
    ) throws(IMWireError) {
        switch field.kind {
        case .string: text.string(utf8: storage.buffer(value))
        case .bytes: writeBytes(storage.buffer(value))
        case .uint64: text.quotedInteger(value)
        case .uint32: text.integer(UInt64(UInt32(truncatingIfNeeded: value)))
        case .int32: text.integer(Int64(Int32(truncatingIfNeeded: value)))
        case .enumeration: writeEnum(number: Int32(truncatingIfNeeded: value), layout.enums[index]?.takeUnretainedValue())
        case .bool: text.bool(value != 0)
        case .fixed64: writeDouble(Double(bitPattern: value))
        case .message:
            try writeArenaObject(storage, Int(truncatingIfNeeded: value), layouts, Int(field.sub), checkDepth: true)
        case .stringToBytesMap, .unknown:
            break
        }
    }

    /// ``writeArray(_:_:)`` over the entries of an arena list.
    private mutating func writeArray(_ list: ArenaList, _ element: (inout JSONWriter, Int) throws(IMWireError) -> Void) throws(IMWireError) {
        text.beginArray()
        try list.forEachEntry { (entry) throws(IMWireError) in
            text.element()
            try element(&self, entry)
        }
        text.endArray()
    }
}
