import IMWireCore
import IMWireJSONText

// Part of TIMRESTDecoder (TIMRESTDecoder.swift: the reader's state and the document's shapes), split
// by aspect: objects and their keys, skipped keys, errors, typed values.

extension TIMRESTDecoder {
    // MARK: - Objects

    /// The members of the object at `index` that `table` knows, by slot (a key's slot is its
    /// index in the table).
    func slots(_ index: Int, _ table: TIMRESTKeyTable) -> TIMRESTSlots {
        var values = [Int32](repeating: -1, count: table.count)
        for (key, value) in tape.members(of: index) where tape[value].kind != .null {
            let slot = try? tape.withBytes(key) { (bytes) throws(IMWireError) in table.slot(of: bytes) }
            if let slot = slot ?? nil { values[slot] = Int32(value) }
        }
        return TIMRESTSlots(values: values)
    }

    /// The members of the object at `index` (the current path), by `Key`; its other keys audited.
    func members<Key: TIMRESTObjectKey>(_ index: Int, _ keys: Key.Type, object name: String? = nil) throws(IMWireError) -> TIMRESTMembers<Key> {
        if auditing { try audit(index, Key.table, object: name) }
        return TIMRESTMembers(slots: slots(index, Key.table), index: index)
    }

    /// `index` as an object of `Key`s; `invalid_value` (at the current path) otherwise.
    func object<Key: TIMRESTObjectKey>(
        _ index: Int, what: String, _ keys: Key.Type, object name: String? = nil
    ) throws(IMWireError) -> TIMRESTMembers<Key> {
        guard tape[index].kind == .object else {
            throw .invalidValue("expected \(what) as a JSON object, found \(typeName(index))", path: path.renderedOrNil)
        }
        return try members(index, keys, object: name)
    }

    // MARK: - Skipped keys

    /// The keys of the object at `index` (the current path) that `table` does not hold: each a
    /// documented key the model has no field for, or an unknown one (with the key it was probably
    /// meant to be). Runs only when auditing.
    @inline(never)
    func audit(_ index: Int, _ table: TIMRESTKeyTable, object name: String? = nil) throws(IMWireError) {
        for (key, _) in tape.members(of: index) {
            let slot = try? tape.withBytes(key) { (bytes) throws(IMWireError) in table.slot(of: bytes) }
            guard (slot ?? nil) == nil else { continue }
            let keyName = tape.string(key)
            let at = path.rendered(appending: keyName)
            if let note = table.documented[keyName] {
                try skip(.noField, key: keyName, token: key, path: at,
                         detail: "Tencent documents \"\(keyName)\" (\(note)); the model has no field for it")
            } else {
                let suggestion = KeySuggestion.best(for: keyName, among: table.documentedNames)
                try skip(.unknownKey, key: keyName, token: key, path: at, suggestion: suggestion,
                         detail: "\"\(keyName)\" is not a key of \(name ?? table.object)" + KeySuggestion.clause(suggestion))
            }
        }
    }

    /// How strict decoding refuses what a report would record: each with its code's factory.
    enum StrictRefusal {
        case unknownField, invalidValue, duplicateKey

        func error(_ detail: String, path: String) -> IMWireError {
            switch self {
            case .unknownField: .unknownField(detail, path: path)
            case .invalidValue: .invalidValue(detail, path: path)
            case .duplicateKey: .duplicateKey(detail, path: path)
            }
        }
    }

    /// Records a skipped key (or value) when a report was asked for; refuses it with `strictCode`
    /// instead under ``TIMRESTDecodingOptions/rejectsUnknownKeys`` when its reason is one strict
    /// decoding refuses. `token` is the tape index of the key (or value), for its offset.
    func skip(
        _ reason: SkippedKey.Reason, key: String, token: Int, path: String, suggestion: String? = nil, detail: String,
        strictCode: StrictRefusal = .unknownField
    ) throws(IMWireError) {
        // [unsafe: json-skips] `skips` points at the caller's array for the whole decode, nothing else holds
        // it.
        if rejectsUnknownKeys, reason.isRefusedWhenStrict {
            throw strictCode.error(detail, path: path)
        }
        guard let skips else { return }
        let found = tape[token]
        // A string's bytes start after its quote; an escaped one's are not in the input.
        let offset: Int? = found.isUnescaped ? nil : Int(found.start) - (found.kind == .string ? 1 : 0)
        skips.pointee.append(SkippedKey(reason: reason, key: key, path: path, offset: offset, suggestion: suggestion, detail: detail))
    }

    /// A key of the object at `index` that differs from `key` only by ASCII case or underscores.
    func suggestion(for key: String, in index: Int) -> String? {
        guard tape[index].kind == .object else { return nil }
        return KeySuggestion.best(for: key, among: tape.members(of: index).lazy.map { self.tape.string($0.key) })
    }

    // MARK: - Errors

    /// `missing_field` for `key`, at the current path (or at the key itself: `atKey`), with the key
    /// of `object` it was probably meant to be.
    func missing(_ key: String, in what: String, object: Int? = nil, atKey: Bool = false) -> IMWireError {
        let meant = object.flatMap { self.suggestion(for: key, in: $0) }
        return .missingField(
            "\(what) has no \"\(key)\"" + KeySuggestion.clause(meant),
            path: atKey ? path.rendered(appending: key) : path.renderedOrNil)
    }

    func wrongType(_ value: Int, key: String, expected: String) -> IMWireError {
        .invalidValue("\"\(key)\" must be \(expected), found \(typeName(value))", path: path.rendered(appending: key))
    }

    /// "an object", "a string", … for error messages.
    func typeName(_ index: Int) -> String {
        switch tape[index].kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "the number \(tape.string(index))"
        case .true: "true"
        case .false: "false"
        case .null: "null"
        }
    }

    // MARK: - Typed values
    //
    // Numbers follow Tencent's habits: an integer may come as a JSON number or as a string holding
    // one (`"EventTime": "1670574414123"`), a flag as `0`/`1` (any non-zero number is set),
    // `true`/`false` or such a string. Wrong types fail with `invalid_value`, malformed numbers with
    // `invalid_number`, numbers beyond the field's range with `number_out_of_range`; every error
    // names the REST path of the value (`MsgBody[1].MsgContent.Index`).

    func string<Key>(_ object: TIMRESTMembers<Key>, _ key: Key) throws(IMWireError) -> String? {
        guard let value = object[key] else { return nil }
        return try string(value, key: key.name)
    }

    func string(_ value: Int, key: String) throws(IMWireError) -> String {
        guard tape[value].kind == .string else { throw wrongType(value, key: key, expected: "a string") }
        return tape.string(value)
    }

    func strings<Key>(_ object: TIMRESTMembers<Key>, _ key: Key) throws(IMWireError) -> [String]? {
        guard let array = object[key] else { return nil }
        guard tape[array].kind == .array else { throw wrongType(array, key: key.name, expected: "an array") }
        var strings: [String] = []
        strings.reserveCapacity(Int(tape[array].count))
        for (index, element) in tape.elements(of: array).enumerated() {
            guard tape[element].kind == .string else {
                throw .invalidValue(
                    "\"\(key.name)\" must hold strings, found \(typeName(element))",
                    path: path.rendered(appending: key.name) + "[\(index)]")
            }
            strings.append(tape.string(element))
        }
        return strings
    }

    func unsigned<Key>(_ object: TIMRESTMembers<Key>, _ key: Key, max: UInt64 = .max) throws(IMWireError) -> UInt64? {
        guard let value = object[key] else { return nil }
        return try unsigned(value, key: key.name, max: max)
    }

    func unsigned(_ value: Int, key: String, max: UInt64) throws(IMWireError) -> UInt64 {
        let (magnitude, negative) = try integer(value, key: key)
        guard !negative || magnitude == 0, magnitude <= max else {
            throw .numberOutOfRange(
                "\"\(key)\" is \(negative ? "-" : "")\(magnitude), outside 0...\(max)", path: path.rendered(appending: key))
        }
        return magnitude
    }

    func int32<Key>(_ object: TIMRESTMembers<Key>, _ key: Key) throws(IMWireError) -> Int32? {
        guard let value = object[key] else { return nil }
        return try int32(value, key: key.name)
    }

    func int32(_ value: Int, key: String) throws(IMWireError) -> Int32 {
        let (magnitude, negative) = try integer(value, key: key)
        let limit: UInt64 = negative ? UInt64(Int32.max) + 1 : UInt64(Int32.max)
        guard magnitude <= limit else {
            throw .numberOutOfRange(
                "\"\(key)\" is \(negative ? "-" : "")\(magnitude), outside the range of a 32-bit integer",
                path: path.rendered(appending: key))
        }
        return negative ? Int32(truncatingIfNeeded: 0 &- magnitude) : Int32(magnitude)
    }

    /// A flag: `0`/`1` (any non-zero integer is set), `true`/`false`, or a string of digits.
    func flag<Key>(_ object: TIMRESTMembers<Key>, _ key: Key) throws(IMWireError) -> Bool? {
        guard let value = object[key] else { return nil }
        switch tape[value].kind {
        case .true: return true
        case .false: return false
        default: return try integer(value, key: key.name).magnitude != 0
        }
    }

    /// A finite double: a JSON number or a string holding one.
    func double(_ value: Int, key: String) throws(IMWireError) -> Double {
        let kind = tape[value].kind
        guard kind == .number || kind == .string else { throw wrongType(value, key: key, expected: "a number") }
        let parsed = try tape.withBytes(value) { (bytes) throws(IMWireError) in
            try JSONScanner.withNumber(in: bytes) { (scanner, token) throws(IMWireError) in
                try? scanner.doubleValue(token)
            }
        }
        // `nil`: not one number; `.some(nil)`: a number beyond a double.
        guard let parsed, let double = parsed else {
            if kind == .string, parsed == nil {
                throw .invalidNumber("\"\(key)\" is a string that is not a number", path: path.rendered(appending: key))
            }
            throw .beyondDouble("\"\(key)\" (\(tape.string(value)))", path: path.rendered(appending: key))
        }
        return double
    }

    /// The exact integer a JSON number or a numeric string denotes: fractions and exponents are
    /// accepted when the value is integral (`1.0`, `1e3`).
    func integer(_ value: Int, key: String) throws(IMWireError) -> (magnitude: UInt64, negative: Bool) {
        let kind = tape[value].kind
        guard kind == .number || kind == .string else { throw wrongType(value, key: key, expected: "an integer") }
        let result = try tape.withBytes(value) { (bytes) throws(IMWireError) in
            try JSONScanner.withNumber(in: bytes) { (scanner, token) throws(IMWireError) in
                Result { () throws(IMWireError) in try scanner.integerValue(token) }
            }
        }
        let text = tape.string(value)
        switch result {
        case .success(let integer)?:
            return integer
        case .failure(let error)? where error.code == .numberOutOfRange:
            throw .numberOutOfRange("\"\(key)\" (\(text)) does not fit in 64 bits", path: path.rendered(appending: key))
        default:
            throw .notAnInteger("\"\(key)\" (\(text))", path: path.rendered(appending: key))
        }
    }
}
