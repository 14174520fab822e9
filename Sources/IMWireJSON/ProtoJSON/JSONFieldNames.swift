import IMWireCore
import IMWireJSONText

/// The proto3 JSON names of one message type, built from its ``MessageSchema`` once: the key each
/// field is written with (`"jsonName":`, by field index and by field number) and the lookup of a
/// key read from the input (lowerCamelCase or original name) to a field index. Plain values behind
/// pointers, so the reader's and the writer's loops do no reference counting.
///
/// [unsafe: schema-lifetime] `schema` is `unowned(unsafe)`: schemas are global constants of the
/// generated code, never freed.
@usableFromInline package struct JSONFieldNames {
    /// The type's schema (names for errors; the schemas live as long as the program).
    package unowned(unsafe) let schema: MessageSchema
    /// How many fields the type has.
    @usableFromInline package let fieldCount: Int
    /// `oneofIDs[i]`: the oneof of field i as a small integer, -1 for none (``MessageSchema/oneofIDs``).
    @usableFromInline package let oneofIDs: UnsafeMutablePointer<Int>
    /// `keys[i]`: `"jsonName":` of field i as UTF-8 — what the writer writes and what the reader
    /// compares the input with when it predicts the next key.
    @usableFromInline package let keys: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>
    /// The fields by the first byte of their JSON name, for the reader's prediction: `firstByByte[b]`
    /// is the lowest field index whose name starts with byte `b` (below 128), `nextBySameByte[i]`
    /// the next index after `i` whose name starts as field i's does; ``noField`` ends a chain.
    @usableFromInline package let firstByByte: UnsafeMutablePointer<UInt8>
    @usableFromInline package let nextBySameByte: UnsafeMutablePointer<UInt8>
    @usableFromInline package static let noField: UInt8 = 0xFF
    /// `keyByNumber[n]`: the same for field number n (empty for a number the type does not have).
    private let keyByNumber: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>
    private let numberLimit: Int

    /// Every JSON name and proto name, concatenated, and per name its start, length and field index,
    /// sorted by length; `nameRunStarts[n]` is the index of the first name of `n` bytes or more
    /// (`longestName + 2` entries): a key is compared only with the names of its own length.
    private let nameBytes: UnsafeMutablePointer<UInt8>
    private let nameTable: UnsafeMutablePointer<(start: Int, count: Int, field: Int)>
    private let nameRunStarts: UnsafeMutablePointer<Int>
    private let longestName: Int

    /// `jsonNames`: the JSON name of each proto field name (``JSONNameTable`` derives them once for
    /// the whole file).
    init(_ schema: MessageSchema, jsonNames jsonNameByProtoName: [String: String]) {
        // [unsafe: json-names] every table is allocated with the count it is indexed up to: `fieldCount` (at
        // least 1), `numberLimit` (numbers come from the schema's `indexByNumber`, whose count is above every
        // number), 128 first bytes (names are ASCII, masked with 0x7F), `longestName + 2` run starts.
        precondition(
            schema.fields.count <= FieldIndexSet.capacity,
            "\(schema.fullName) has \(counted(schema.fields.count, "field")); the JSON reader tracks at most \(FieldIndexSet.capacity)")
        let fields = schema.fields
        self.schema = schema
        fieldCount = fields.count
        oneofIDs = .allocate(capacity: max(1, fields.count))
        oneofIDs.initialize(from: schema.oneofIDs, count: fields.count)
        keys = .allocate(capacity: max(1, fields.count))
        numberLimit = schema.indexByNumber.count
        keyByNumber = .allocate(capacity: max(1, numberLimit))
        keyByNumber.initialize(repeating: UnsafeBufferPointer(start: nil, count: 0), count: numberLimit)
        let jsonNames = fields.map { jsonNameByProtoName[$0.name] ?? Self.jsonName(protoName: $0.name) }
        for (index, field) in fields.enumerated() {
            let key = Array("\"\(jsonNames[index])\":".utf8)
            let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: key.count)
            bytes.initialize(from: key, count: key.count)
            let buffer = UnsafeBufferPointer(start: bytes, count: key.count)
            (keys + index).initialize(to: buffer)
            keyByNumber[field.number] = buffer
        }
        firstByByte = .allocate(capacity: 128)
        firstByByte.initialize(repeating: Self.noField, count: 128)
        nextBySameByte = .allocate(capacity: max(1, fields.count))
        nextBySameByte.initialize(repeating: Self.noField, count: max(1, fields.count))
        for index in (0..<fields.count).reversed() {
            // keys[index][1]: the name's first byte (after the quote); JSON names are ASCII.
            let first = Int(keys[index][1] & 0x7F)
            nextBySameByte[index] = firstByByte[first]
            firstByByte[first] = UInt8(index)
        }
        var bytes: [UInt8] = []
        var names: [(start: Int, count: Int, field: Int)] = []
        for (index, field) in fields.enumerated() {
            for name in jsonNames[index] == field.name ? [field.name] : [jsonNames[index], field.name] {
                names.append((bytes.count, name.utf8.count, index))
                bytes += name.utf8
            }
        }
        names.sort { $0.count < $1.count }
        nameBytes = .allocate(capacity: max(1, bytes.count))
        nameBytes.initialize(from: bytes, count: bytes.count)
        nameTable = .allocate(capacity: max(1, names.count))
        nameTable.initialize(from: names, count: names.count)
        let longest = names.last?.count ?? 0
        nameRunStarts = .allocate(capacity: longest + 2)
        var entry = 0
        for length in 0...(longest + 1) {
            while entry < names.count, names[entry].count < length { entry += 1 }
            nameRunStarts[length] = entry
        }
        longestName = longest
    }

    /// `"jsonName":` of field `number` as UTF-8 (empty if the type has no such field).
    @inline(__always)
    @usableFromInline package func key(number: Int) -> UnsafeBufferPointer<UInt8> {
        // [unsafe: json-names] `number` checked against `numberLimit`.
        guard number >= 0, number < numberLimit else { return UnsafeBufferPointer(start: nil, count: 0) }
        return keyByNumber[number]
    }

    /// The index of the field whose JSON name or proto name is `key`.
    @usableFromInline package func fieldIndex(named key: UnsafeBufferPointer<UInt8>) -> Int? {
        // [unsafe: json-names] `count <= longestName`, so `nameRunStarts[count + 1]` is inside its
        // `longestName + 2` entries; each name compared has `count` bytes, as the key has (not empty:
        // `baseAddress` is there).
        guard key.count <= longestName else { return nil }
        let count = key.count
        guard count > 0 else { return nameRunStarts[0] < nameRunStarts[1] ? nameTable[nameRunStarts[0]].field : nil }
        let keyBase = UnsafeRawPointer(key.baseAddress!)
        for index in nameRunStarts[count]..<nameRunStarts[count + 1] {
            let entry = nameTable[index]
            if Self.equal(UnsafeRawPointer(nameBytes + entry.start), keyBase, count) { return entry.field }
        }
        return nil
    }

    /// Whether `count` (≥ 1) bytes at `a` and `b` are equal: eight bytes at a time, the last
    /// eight overlapping the ones before (keys are short: an inline loop beats a call to memcmp).
    @inline(__always)
    @usableFromInline package static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        // [unsafe: json-names] both callers pass two buffers of at least `count` bytes; eight-byte loads end
        // at `count` (the last one overlaps, `count >= 8`).
        if count < 8 {
            for i in 0..<count where a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) {
                return false
            }
            return true
        }
        var i = 0
        while i &+ 8 < count {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i &+= 8
        }
        return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
}

/// The JSON names of every message type of one schema file, indexed like its ``SchemaFile`` (by
/// ``ProtoMessage/_typeIndex``). Built once per file (a generated global `let`, `Generated/Schema/
/// JSONNames.swift`) and never freed.
///
/// [unsafe: schema-lifetime] `@unchecked Sendable`: written only by its initialiser, before any thread
/// can see it (a global `let`), and only read after.
@usableFromInline package final class JSONNameTable: @unchecked Sendable {
    @usableFromInline package let types: UnsafeMutablePointer<JSONFieldNames>
    /// The JSON name of every field name of the file's types, for the code off the hot paths that
    /// starts from a ``FieldSchema`` (suggestions for an unknown key, format detection, the
    /// conformance explorer).
    let jsonNameByProtoName: [String: String]

    /// How many types the table has: its file's.
    @usableFromInline package let count: Int

    @usableFromInline package init(_ file: SchemaFile) {
        let schemas = file.messages
        count = schemas.count
        // [unsafe: json-names] one entry per type of the file.
        types = .allocate(capacity: max(1, schemas.count))
        var jsonNames: [String: String] = [:]
        for schema in schemas {
            for field in schema.fields where jsonNames[field.name] == nil {
                jsonNames[field.name] = JSONFieldNames.jsonName(protoName: field.name)
            }
        }
        for index in schemas.indices {
            (types + index).initialize(to: JSONFieldNames(schemas[index], jsonNames: jsonNames))
        }
        jsonNameByProtoName = jsonNames
    }

    /// The table of `M`'s schema file.
    ///
    /// [unsafe: json-names] Checked, not assumed: the readers and the writer index this table with
    /// `M._typeIndex`, an index of `M`'s own file, whose table this is (generated beside the type;
    /// `SchemaFileTests` checks every type's index in its file).
    @inline(__always)
    @usableFromInline package static func of<M: JSONFieldReading>(_ type: M.Type) -> JSONNameTable {
        let table = M._jsonNames
        precondition(M._typeIndex < table.count, "\(M.self): not in its schema file's JSON names")
        return table
    }
}

extension JSONFieldNames {
    /// The proto3 JSON name of a field: its proto name in lowerCamelCase, as protoc derives it (each
    /// `_` dropped and the letter after it upper-cased): `msg_id` → `msgId`.
    @usableFromInline package static func jsonName(protoName: String) -> String {
        var result = ""
        var upperNext = false
        for character in protoName {
            if character == "_" {
                upperNext = true
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension FieldSchema {
    /// The proto3 JSON name (`msg_id` → `msgId`), derived once per name when the library's
    /// ``JSONNameTable`` is built; reading it is a dictionary lookup, not a new string.
    @usableFromInline package var jsonName: String {
        imwireJSONNames.jsonNameByProtoName[name] ?? JSONFieldNames.jsonName(protoName: name)
    }
}
