/// Writes the canonical proto3 JSON form while visiting a message's fields:
/// lowerCamelCase keys in field-number order, defaults omitted, 64-bit integers as strings, bytes
/// as padded standard base64, enums by name (unknown numbers as numbers), doubles in shortest
/// round-trip form (`NaN`, `Infinity`, `-Infinity` as strings), compact unless pretty-printed.
/// Strings escape only `"`, `\` and U+0000–U+001F (`\b \f \n \r \t` short, the rest `\u00XX`);
/// everything else is raw UTF-8. Unknown fields have no JSON form and are left out.
package struct JSONWriter: FieldVisitor {
    package typealias Failure = IMWireError
    private var output: OutputBytes
    /// The schema of the object being written. Schemas are static lets that live as long as the
    /// program: no reference counting per member.
    private unowned(unsafe) var schema: MessageSchema
    /// Whether the current object already has a member (so the next needs a comma).
    private var hasMember = false
    private var depth = 1
    /// Pretty printing: the indentation level of the current object's members.
    private var indent = 1
    private let maxDepth: Int
    private let pretty: Bool
    private var stackGuard = StackGuard()

    package static func encode<M: ProtoMessage>(_ message: M, options: JSONEncodingOptions) throws(IMWireError) -> [UInt8] {
        var writer = JSONWriter(schema: M.schema, options: options)
        defer { writer.output.deallocate() }
        if let arena = message._arena {
            try writer.writeArenaObject(arena.storage, arena.node, M._arenaTable.layouts, M._arenaLayoutIndex, checkDepth: false)
        } else {
            writer.output.append(UInt8(ascii: "{"))
            try message.traverse(&writer)
            writer.closeObject()
        }
        return writer.output.bytes()
    }

    private init(schema: MessageSchema, options: JSONEncodingOptions) {
        self.schema = schema
        output = OutputBytes(capacity: 256)
        self.maxDepth = options.maxDepth
        self.pretty = options.prettyPrinted
    }

    // MARK: - Structure

    private mutating func newline(indent: Int) {
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { output.append(UInt8(ascii: " ")); output.append(UInt8(ascii: " ")) }
    }

    /// Starts a member of the current object: comma, indentation, `"key":`.
    @inline(__always)
    private mutating func key(_ field: Int) {
        if hasMember { output.append(UInt8(ascii: ",")) }
        hasMember = true
        if pretty { newline(indent: indent) }
        output.append(schema.jsonKey(field))
        if pretty { output.append(UInt8(ascii: " ")) }
    }

    private mutating func closeObject() {
        if pretty, hasMember { newline(indent: indent - 1) }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func writeObject<M: ProtoMessage>(_ message: M) throws(IMWireError) {
        if let arena = message._arena {
            return try writeArenaObject(arena.storage, arena.node, M._arenaTable.layouts, M._arenaLayoutIndex, checkDepth: true)
        }
        guard depth < maxDepth else {
            throw .depthLimitExceeded(.encodedMessages, limit: maxDepth)
        }
        let outerSchema = schema
        let outerHasMember = hasMember
        schema = M.schema
        hasMember = false
        depth += 1
        try stackGuard.check(depth: depth)
        indent += 1
        output.append(UInt8(ascii: "{"))
        try message.traverse(&self)
        closeObject()
        indent -= 1
        depth -= 1
        schema = outerSchema
        hasMember = outerHasMember
    }

    private mutating func writeArray<T>(_ values: [T], _ element: (inout JSONWriter, T) throws(IMWireError) -> Void) throws(IMWireError) {
        output.append(UInt8(ascii: "["))
        indent += 1
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if pretty { newline(indent: indent) }
            try element(&self, value)
        }
        indent -= 1
        if pretty, !values.isEmpty { newline(indent: indent) }
        output.append(UInt8(ascii: "]"))
    }

    // MARK: - Values

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ string: String) {
        Self.appendString(string, to: &output)
    }

    /// Appends `string` as a JSON string literal in the canonical escaping (shared with the
    /// tim-rest writer).
    package static func appendString<Sink: ByteSink>(_ string: String, to output: inout Sink) {
        var string = string
        string.withUTF8 { appendString(utf8: $0, to: &output) }
    }

    /// Appends UTF-8 `bytes` as a JSON string literal in the canonical escaping.
    package static func appendString<Sink: ByteSink>(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout Sink) {
        output.append(UInt8(ascii: "\""))
        do {
            var runStart = 0
            var index = 0
            let count = bytes.count
            while index < count {
                // Eight bytes at a time while none needs escaping (a quote, a backslash, a control).
                while count - index >= 8 {
                    let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                    if JSONEscapeScan.mayNeedEscaping(word) { break }
                    index += 8
                }
                guard index < count else { break }
                let byte = bytes[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                let escaped = index - 1
                output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<escaped]))
                runStart = escaped + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    output.append("u00")
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 15)])
                }
            }
            if runStart < count { output.append(UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// "00" "01" … "99", for writing two digits at a time.
    private static let digitPairs: [UInt8] = (0..<100).flatMap { [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)] }

    private mutating func writeDecimal(_ value: UInt64) {
        // Digits straight into the output: `description` would build a String per number.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            // Two digits at a time from a table of "00"..."99", then the last one if odd.
            Self.digitPairs.withUnsafeBufferPointer { pairs in
                while rest >= 100 {
                    let pair = Int(rest % 100) &* 2
                    rest /= 100
                    buffer[23 - count] = pairs[pair &+ 1]
                    buffer[22 - count] = pairs[pair]
                    count &+= 2
                }
                if rest >= 10 {
                    let pair = Int(rest) &* 2
                    buffer[23 - count] = pairs[pair &+ 1]
                    buffer[22 - count] = pairs[pair]
                    count &+= 2
                } else {
                    buffer[23 - count] = UInt8(truncatingIfNeeded: rest) &+ UInt8(ascii: "0")
                    count &+= 1
                }
            }
            output.append(UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]).assumingMemoryBound(to: UInt8.self))
        }
    }

    private mutating func writeDecimal(_ value: Int32) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        writeDecimal(UInt64(value.magnitude))
    }

    private mutating func writeDecimal(_ value: UInt32) {
        writeDecimal(UInt64(value))
    }

    private mutating func writeQuotedDecimal(_ value: UInt64) {
        output.append(UInt8(ascii: "\""))
        writeDecimal(value)
        output.append(UInt8(ascii: "\""))
    }

    private mutating func writeEnum<E: ProtoEnum>(_ value: E) {
        writeEnum(number: value.rawValue, E.schema)
    }

    /// An enum value by its name, or by its number when `schema` does not name it.
    private mutating func writeEnum(number: Int32, _ schema: EnumSchema?) {
        if let name = schema?.name(of: number) {
            output.append(UInt8(ascii: "\""))
            var name = name
            name.withUTF8 { output.append($0) }
            output.append(UInt8(ascii: "\""))
        } else {
            writeDecimal(number)
        }
    }

    private mutating func writeBytes(_ value: [UInt8]) {
        output.append(UInt8(ascii: "\""))
        Base64.encode(value, into: &output)
        output.append(UInt8(ascii: "\""))
    }

    // MARK: - FieldVisitor

    package mutating func visitString(_ value: String, field: Int) {
        key(field)
        writeString(value)
    }

    package mutating func visitBytes(_ value: [UInt8], field: Int) {
        key(field)
        writeBytes(value)
    }

    package mutating func visitUInt64(_ value: UInt64, field: Int) {
        key(field)
        writeQuotedDecimal(value)
    }

    package mutating func visitUInt32(_ value: UInt32, field: Int) {
        key(field)
        writeDecimal(value)
    }

    package mutating func visitInt32(_ value: Int32, field: Int) {
        key(field)
        writeDecimal(value)
    }

    package mutating func visitBool(_ value: Bool, field: Int) {
        key(field)
        output.append(value ? "true" : "false")
    }

    package mutating func visitDouble(_ value: Double, field: Int) {
        key(field)
        writeDouble(value)
    }

    private mutating func writeDouble(_ value: Double) {
        if value.isNaN {
            output.append("\"NaN\"")
        } else if value.isInfinite {
            output.append(value < 0 ? "\"-Infinity\"" : "\"Infinity\"")
        } else {
            // Swift's description is the shortest round-trip form, in the same notation as
            // Python's repr (180.0, 1e-07, 1.7976931348623157e+308), which the fixtures pin.
            var text = value.description
            text.withUTF8 { output.append($0) }
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
        try writeArray(value) { (writer, string) throws(IMWireError) in writer.writeString(string) }
    }

    package mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) throws(IMWireError) {
        key(field)
        try writeArray(value) { (writer, message) throws(IMWireError) in try writer.writeObject(message) }
    }

    package mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) {
        key(field)
        output.append(UInt8(ascii: "{"))
        for (index, entry) in value.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if pretty { newline(indent: indent + 1) }
            writeString(entry.key)
            output.append(UInt8(ascii: ":"))
            if pretty { output.append(UInt8(ascii: " ")) }
            writeBytes(entry.value)
        }
        if pretty, !value.isEmpty { newline(indent: indent) }
        output.append(UInt8(ascii: "}"))
    }

    package mutating func visitUnknownFields(_ value: UnknownFields) {
        // Unknown fields have no JSON representation (proto3 JSON mapping); they are left out.
    }

    // MARK: - A decoded value's node

    /// Writes the object of a decoded value from its arena node, by its layout: keys from the
    /// schema, strings and bytes from the storage's bytes — no model value made on the way.
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
            indent += 1
        }
        let layout = layouts[layoutIndex]
        let words = storage.words
        let outerSchema = schema
        let outerHasMember = hasMember
        schema = layout.schema
        hasMember = false
        output.append(UInt8(ascii: "{"))
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
        closeObject()
        schema = outerSchema
        hasMember = outerHasMember
        if checkDepth {
            indent -= 1
            depth -= 1
        }
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
        case .string: Self.appendString(utf8: storage.buffer(value), to: &output)
        case .bytes:
            output.append(UInt8(ascii: "\""))
            Base64.encode(storage.buffer(value), into: &output)
            output.append(UInt8(ascii: "\""))
        case .uint64: writeQuotedDecimal(value)
        case .uint32: writeDecimal(UInt32(truncatingIfNeeded: value))
        case .int32: writeDecimal(Int32(truncatingIfNeeded: value))
        case .enumeration: writeEnum(number: Int32(truncatingIfNeeded: value), layout.enums[index]?.takeUnretainedValue())
        case .bool: output.append(value != 0 ? "true" : "false")
        case .fixed64: writeDouble(Double(bitPattern: value))
        case .message:
            try writeArenaObject(storage, Int(truncatingIfNeeded: value), layouts, Int(field.sub), checkDepth: true)
        case .stringToBytesMap, .unknown:
            break
        }
    }

    /// ``writeArray(_:_:)`` over the entries of an arena list.
    private mutating func writeArray(_ list: ArenaList, _ element: (inout JSONWriter, Int) throws(IMWireError) -> Void) throws(IMWireError) {
        output.append(UInt8(ascii: "["))
        indent += 1
        var first = true
        try list.forEachEntry { (entry) throws(IMWireError) in
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            if pretty { newline(indent: indent) }
            try element(&self, entry)
        }
        indent -= 1
        if pretty, !list.isEmpty { newline(indent: indent) }
        output.append(UInt8(ascii: "]"))
    }
}
