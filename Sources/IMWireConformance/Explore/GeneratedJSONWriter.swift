import IMWire

/// Writes a ``GeneratedMessage`` as proto3 JSON: ``canonical(_:)`` — the expected text (JSON names
/// in field-number order, 64-bit integers as strings, bytes as standard padded base64, enums by
/// name, no whitespace) — or ``styled(_:ignoreUnknownFields:documentFlaw:)`` — the input, with every
/// JSON style and flaw applied. Unknown binary fields have no place in JSON and are left out.
///
/// Every style is a spelling the proto3 JSON mapping gives the same meaning and that the golden
/// corpus rates Required (`y_…` cases): proto names, numbers as strings and in exponent or `.0`
/// forms, enums by number, both base64 alphabets with or without padding, `\u` escapes and surrogate
/// pairs, `null` for absent fields, whitespace between tokens, unknown keys when they are ignored.
/// Spellings the corpus rates Recommended (`-0` for an integer, an enum number in a string, mixed
/// base64 alphabets) are not used.
enum GeneratedJSONWriter {
    static func canonical(_ message: GeneratedMessage) -> [UInt8] {
        var emitter = Emitter(styled: false, ignoreUnknownFields: false)
        emitter.message(message)
        return emitter.out
    }

    static func styled(_ message: GeneratedMessage, ignoreUnknownFields: Bool, documentFlaw: Flaw?) -> [UInt8] {
        var emitter = Emitter(styled: true, ignoreUnknownFields: ignoreUnknownFields)
        var random = ExploreRandom(seed: message.style.whitespace ?? 0)
        if message.style.whitespace != nil { emitter.out += Emitter.whitespace(&random) }
        emitter.message(message)
        if message.style.whitespace != nil { emitter.out += Emitter.whitespace(&random) }
        guard let flaw = documentFlaw else { return emitter.out }
        return corrupt(emitter.out, with: flaw)
    }

    /// A document flaw applied to the whole text.
    private static func corrupt(_ document: [UInt8], with flaw: Flaw) -> [UInt8] {
        switch flaw.kind {
        case .jsonUnterminated:
            // Anywhere after the opening brace and before the closing one: never a whole object.
            let open = document.firstIndex(of: UInt8(ascii: "{")) ?? 0
            let close = document.lastIndex(of: UInt8(ascii: "}")) ?? document.count
            let cut = open + 1 + Int(flaw.variant % UInt64(max(1, close - open)))
            return Array(document.prefix(min(cut, close)))
        case .jsonEmpty:
            return [[], [0x20], [0x0A], [0x20, 0x09, 0x0D, 0x0A]][Int(flaw.variant % 4)]
        case .jsonTopLevelArray: return Array("[".utf8) + document + Array("]".utf8)
        case .jsonTopLevelNumber: return Array("1".utf8)
        case .jsonLeadingJunk: return Array("x".utf8) + document
        case .jsonTrailingGarbage: return document + Array((flaw.variant % 2 == 0 ? "x" : " x").utf8)
        case .jsonTrailingSecondObject: return document + Array(" {}".utf8)
        case .jsonLeadingBOM: return [0xEF, 0xBB, 0xBF] + document
        default: return document
        }
    }

    /// A JSON value for keys the schema does not have: any JSON, nested a little.
    static func unknownValue(_ random: inout ExploreRandom, depth: Int = 0) -> [UInt8] {
        switch random.below(depth < 3 ? 8 : 6) {
        case 0: return Array(random.pick(["0", "12", "-1.5e3", "1E2", "0.25", "-0", "123456789012345678901234567890"]).utf8)
        case 1:
            let text = random.text()
            return quoted(text, styled: false, random: &random)
        case 2: return Array("true".utf8)
        case 3: return Array("false".utf8)
        case 4: return Array("null".utf8)
        case 5: return Array("{}".utf8)
        case 6:
            let elements = (0..<random.int(in: 0...3)).map { _ in unknownValue(&random, depth: depth + 1) }
            return Array("[".utf8) + Array(elements.joined(separator: [UInt8(ascii: ",")])) + Array("]".utf8)
        default:
            var members: [[UInt8]] = []
            for index in 0..<random.int(in: 1...3) {
                members.append(Array("\"k\(index)\":".utf8) + unknownValue(&random, depth: depth + 1))
            }
            return Array("{".utf8) + Array(members.joined(separator: [UInt8(ascii: ",")])) + Array("}".utf8)
        }
    }

    /// `bytes` (valid UTF-8) as a JSON string. Plain: only `"`, `\` and control characters escaped,
    /// with the short escapes where there are. Styled: other characters escaped too, as `\uXXXX`
    /// (a surrogate pair beyond the BMP) in either case of hex digit, `/` sometimes as `\/`.
    static func quoted(_ bytes: [UInt8], styled: Bool, random: inout ExploreRandom, inject: [UInt8] = []) -> [UInt8] {
        let rate = styled ? random.pick([0, 15, 60]) : 0
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            let value = scalar.value
            let shortEscape: UInt8? = switch value {
            case 0x22: UInt8(ascii: "\"")
            case 0x5C: UInt8(ascii: "\\")
            case 0x08: UInt8(ascii: "b")
            case 0x0C: UInt8(ascii: "f")
            case 0x0A: UInt8(ascii: "n")
            case 0x0D: UInt8(ascii: "r")
            case 0x09: UInt8(ascii: "t")
            default: nil
            }
            let mustEscape = value < 0x20 || value == 0x22 || value == 0x5C
            if mustEscape || (rate > 0 && random.chance(rate)) {
                if let shortEscape, !(styled && random.chance(30)) {
                    out += [UInt8(ascii: "\\"), shortEscape]
                } else if value == 0x2F, styled, random.chance(50) {
                    out += Array("\\/".utf8)
                } else if value > 0xFFFF {
                    let offset = value - 0x10000
                    appendUnicodeEscape(0xD800 + (offset >> 10), upper: styled && random.chance(50), to: &out)
                    appendUnicodeEscape(0xDC00 + (offset & 0x3FF), upper: styled && random.chance(50), to: &out)
                } else {
                    appendUnicodeEscape(value, upper: styled && random.chance(50), to: &out)
                }
            } else {
                out += Array(String(scalar).utf8)
            }
        }
        out += inject
        out.append(UInt8(ascii: "\""))
        return out
    }

    static func appendUnicodeEscape(_ value: UInt32, upper: Bool, to out: inout [UInt8]) {
        let digits = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        out += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
        for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int((value >> UInt32(shift)) & 0xF)]) }
    }

    /// Base64 of `bytes`: standard with padding (plain), or in a style's alphabet and padding.
    static func base64(_ bytes: [UInt8], urlSafe: Bool = false, padded: Bool = true) -> [UInt8] {
        let alphabet = Array((urlSafe
            ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let a = UInt32(chunk[chunk.startIndex])
            let b = chunk.count > 1 ? UInt32(chunk[chunk.startIndex + 1]) : 0
            let c = chunk.count > 2 ? UInt32(chunk[chunk.startIndex + 2]) : 0
            let triple = a << 16 | b << 8 | c
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            if chunk.count > 1 { out.append(alphabet[Int(triple >> 6 & 63)]) } else if padded { out.append(UInt8(ascii: "=")) }
            if chunk.count > 2 { out.append(alphabet[Int(triple & 63)]) } else if padded { out.append(UInt8(ascii: "=")) }
            index += 3
        }
        return out
    }
}

extension GeneratedJSONWriter {
    /// The writer's state while it walks a message.
    fileprivate struct Emitter {
        var out: [UInt8] = []
        let styled: Bool
        let ignoreUnknownFields: Bool
        /// The current message's whitespace choices, if it has any.
        private var spacing: ExploreRandom?

        init(styled: Bool, ignoreUnknownFields: Bool) {
            self.styled = styled
            self.ignoreUnknownFields = ignoreUnknownFields
        }

        static func whitespace(_ random: inout ExploreRandom) -> [UInt8] {
            (0..<random.below(3)).map { _ in random.pick([0x20, 0x09, 0x0A, 0x0D]) }
        }

        private mutating func space() {
            guard spacing != nil else { return }
            out += Self.whitespace(&spacing!)
        }

        private mutating func byte(_ character: Unicode.Scalar) {
            out.append(UInt8(ascii: character))
        }

        private enum Member {
            case field(Int)
            /// `"name": null` for an absent field.
            case null(FieldSchema, protoName: Bool)
            /// A key the schema does not have, with its value.
            case unknown(key: String, value: [UInt8])
            /// The field's key once more, before its real member (a flaw).
            case duplicate(Int)
            /// Another member of the field's oneof, with a value (a flaw).
            case otherOneofMember(FieldSchema)
        }

        mutating func message(_ message: GeneratedMessage) {
            let savedSpacing = spacing
            spacing = styled ? message.style.whitespace.map { ExploreRandom(seed: $0) } : nil
            defer { spacing = savedSpacing }

            var members = message.fields.indices.map { Member.field($0) }
            if styled {
                var random = ExploreRandom(seed: message.style.jsonNulls ?? 0)
                if message.style.jsonNulls != nil {
                    let present = Set(message.fields.map(\.number))
                    // Not for the members of a oneof a flaw gives a second value: a null for one of
                    // them would make the flaw a duplicate key, which lenient readers resolve.
                    let conflicted = Set(message.fields.filter { $0.flaw?.kind == .jsonOneofTwoMembers }.compactMap { message.info($0).oneof })
                    for info in message.schema.fields
                    where !present.contains(info.number) && !(info.oneof.map(conflicted.contains) ?? false) && random.chance(30) {
                        members.append(.null(info, protoName: info.name != info.jsonName && random.chance(50)))
                    }
                }
                var usedKeys: Set<String> = []
                if ignoreUnknownFields, let seed = message.style.jsonUnknownKeys {
                    var random = ExploreRandom(seed: seed)
                    for _ in 0..<random.int(in: 1...3) {
                        let key = Self.unknownKey(in: message.schema, avoiding: &usedKeys, &random)
                        members.append(.unknown(key: key, value: GeneratedJSONWriter.unknownValue(&random)))
                    }
                }
                for (index, field) in message.fields.enumerated() {
                    guard let flaw = field.flaw else { continue }
                    switch flaw.kind {
                    case .jsonDuplicateKey: members.append(.duplicate(index))
                    case .jsonOneofTwoMembers:
                        let info = message.info(field)
                        let others = message.schema.fields.filter { $0.oneof == info.oneof && $0.number != info.number }
                        if !others.isEmpty { members.append(.otherOneofMember(others[Int(flaw.variant % UInt64(others.count))])) }
                    default: break
                    }
                }
                if let flaw = message.flaw, flaw.kind == .jsonUnknownField {
                    var random = ExploreRandom(seed: flaw.variant)
                    let key = Self.unknownKey(in: message.schema, avoiding: &usedKeys, &random)
                    members.append(.unknown(key: key, value: GeneratedJSONWriter.unknownValue(&random)))
                }
                if let seed = message.style.order {
                    var random = ExploreRandom(seed: seed)
                    random.shuffle(&members)
                }
                // A duplicate key goes before the real member (lenient readers keep the last).
                for (position, member) in members.enumerated() {
                    guard case .duplicate(let index) = member,
                        let real = members.firstIndex(where: { if case .field(index) = $0 { true } else { false } }),
                        real < position
                    else { continue }
                    members.swapAt(position, real)
                }
            }

            let flaw = styled ? message.flaw.flatMap { $0.kind.input == .json ? $0 : nil } : nil
            let target = members.isEmpty ? 0 : Int((flaw?.variant ?? 0) % UInt64(members.count))
            byte("{")
            if flaw?.kind == .jsonCommentInObject { out += Array("/*c*/".utf8) }
            space()
            for (position, member) in members.enumerated() {
                if position > 0 {
                    if !(flaw?.kind == .jsonMissingComma && position == max(1, target)) { byte(",") }
                    space()
                }
                write(member, of: message, colon: !(flaw?.kind == .jsonMissingColon && position == target))
                space()
            }
            if flaw?.kind == .jsonTrailingCommaObject, !members.isEmpty { byte(",") }
            byte("}")
        }

        /// A key that names no field of `schema` and is not in `used` (which it joins).
        private static func unknownKey(in schema: MessageSchema, avoiding used: inout Set<String>, _ random: inout ExploreRandom) -> String {
            let names = Set(schema.fields.flatMap { [$0.name, $0.jsonName] })
            var candidates = ["x", "unknownKey", "extra_field", "zzz", "_", "stream", "Sender", "msgid", "$type", "中文", "k k"]
            candidates += schema.fields.map { $0.jsonName.uppercased() }
            candidates = candidates.filter { !names.contains($0) && !used.contains($0) }
            let key = candidates.isEmpty ? "unknown\(used.count)" : random.pick(candidates)
            used.insert(key)
            return key
        }

        private mutating func key(_ name: String, escapes: UInt64?, inject: [UInt8] = []) {
            var random = ExploreRandom(seed: escapes ?? 0)
            byte("\"")
            for byte in name.utf8 {
                if escapes != nil, random.chance(30) {
                    GeneratedJSONWriter.appendUnicodeEscape(UInt32(byte), upper: random.chance(50), to: &out)
                } else {
                    out.append(byte)
                }
            }
            out += inject
            byte("\"")
        }

        private mutating func write(_ member: Member, of message: GeneratedMessage, colon: Bool) {
            func separator(_ emitter: inout Emitter) {
                emitter.space()
                if colon { emitter.byte(":") }
                emitter.space()
            }
            switch member {
            case .field(let index):
                let field = message.fields[index]
                let info = message.info(field)
                let flaw = styled ? field.flaw.flatMap { $0.kind.input == .json ? $0 : nil } : nil
                let name = styled && field.json.protoName ? info.name : info.jsonName
                key(name, escapes: styled ? field.json.keyEscapes : nil, inject: flaw?.kind == .jsonRawControlInKey ? [0x1F] : [])
                separator(&self)
                value(field.value, info: info, form: styled ? field.json.form : nil, flaw: flaw)
            case .null(let info, let protoName):
                key(protoName ? info.name : info.jsonName, escapes: nil)
                separator(&self)
                out += Array("null".utf8)
            case .unknown(let name, let value):
                var unused = ExploreRandom(seed: 0)
                out += GeneratedJSONWriter.quoted(Array(name.utf8), styled: false, random: &unused)
                separator(&self)
                out += value
            case .duplicate(let index):
                let field = message.fields[index]
                let info = message.info(field)
                var generator = MessageGenerator(
                    random: ExploreRandom(seed: field.flaw?.variant ?? 0), variations: [], nodeBudget: 2, chainLayers: 0, root: message.schema)
                key(field.json.protoName ? info.name : info.jsonName, escapes: nil)
                separator(&self)
                var junk = generator.junkValue(for: info, level: 1)
                if info.isRepeated {
                    switch junk {
                    case .text(let bytes): junk = .texts([bytes])
                    case .message(let child): junk = .messages([child])
                    default: break
                    }
                }
                value(junk, info: info, form: nil, flaw: nil)
            case .otherOneofMember(let info):
                key(info.jsonName, escapes: nil)
                separator(&self)
                switch info.kind {
                case .message: out += Array("{}".utf8)
                case .string, .bytes: out += Array("\"\"".utf8)
                default: out += Array("0".utf8)
                }
            }
        }

        private mutating func value(_ value: FieldValue, info: FieldSchema, form: UInt64?, flaw: Flaw?) {
            if let flaw, let replacement = Self.replacement(for: flaw, info: info) {
                out += replacement
                return
            }
            var random = ExploreRandom(seed: form ?? 0)
            let styledForm = form != nil
            switch value {
            case .varint(let raw):
                writeVarint(raw, info: info, styled: styledForm, random: &random, flaw: flaw)
            case .double(let double):
                writeDouble(double, styled: styledForm, random: &random)
            case .text(let bytes):
                if case .bytes = info.kind {
                    writeBytes(bytes, styled: styledForm, random: &random, flaw: flaw)
                } else {
                    out += GeneratedJSONWriter.quoted(bytes, styled: styledForm, random: &random, inject: Self.injection(flaw))
                }
            case .message(let child):
                message(child)
            case .texts(let list):
                let target = flaw.map { Int($0.variant % UInt64(max(1, list.count))) }
                writeArray(count: list.count, flaw: flaw) { emitter, index in
                    emitter.out += GeneratedJSONWriter.quoted(
                        list[index], styled: styledForm, random: &random, inject: index == target ? Self.injection(flaw) : [])
                }
            case .messages(let list):
                writeArray(count: list.count, flaw: flaw) { emitter, index in emitter.message(list[index]) }
            case .map(let entries):
                let target = flaw.map { Int($0.variant % UInt64(max(1, entries.count))) }
                byte("{")
                space()
                for (index, entry) in entries.enumerated() {
                    if index > 0 {
                        byte(",")
                        space()
                    }
                    out += GeneratedJSONWriter.quoted(entry.key, styled: styledForm, random: &random, inject: index == target ? Self.injection(flaw) : [])
                    space()
                    byte(":")
                    space()
                    writeBytes(entry.value, styled: styledForm, random: &random, flaw: nil)
                    space()
                }
                byte("}")
            }
        }

        private mutating func writeArray(count: Int, flaw: Flaw?, element: (inout Emitter, Int) -> Void) {
            let nullAt = flaw?.kind == .jsonNullInRepeated ? Int(flaw!.variant % UInt64(count + 1)) : -1
            byte("[")
            space()
            var first = true
            for index in 0...count {
                if index == nullAt {
                    if !first { byte(","); space() }
                    out += Array("null".utf8)
                    first = false
                }
                guard index < count else { break }
                if !first { byte(","); space() }
                element(&self, index)
                space()
                first = false
            }
            if flaw?.kind == .jsonTrailingCommaArray, count > 0 { byte(",") }
            byte("]")
        }

        /// Bytes written into a string just before its closing quote, for the string flaws.
        private static func injection(_ flaw: Flaw?) -> [UInt8] {
            guard let flaw else { return [] }
            switch flaw.kind {
            case .jsonEscapeUShort: return Array("\\u041".utf8)
            case .jsonEscapeUNonHex: return Array("\\u00G1".utf8)
            case .jsonEscapeUnknownLetter: return Array("\\x41".utf8)
            case .jsonLoneHighSurrogate: return Array("\\ud800".utf8)
            case .jsonLoneLowSurrogate: return Array("\\udc00".utf8)
            case .jsonRawTabInString: return [0x09]
            case .jsonInvalidUTF8: return GeneratedBinaryWriter.breakUTF8([], variant: flaw.variant)
            default: return []
            }
        }

        /// The whole value of a field for the flaws that replace it.
        private static func replacement(for flaw: Flaw, info: FieldSchema) -> [UInt8]? {
            let text: String
            switch flaw.kind {
            case .jsonNumberLeadingZero: text = "01"
            case .jsonNumberLeadingPlus: text = "+1"
            case .jsonNumberLeadingDot: text = ".5"
            case .jsonNumberTrailingDot: text = "1."
            case .jsonNumberDoubleMinus: text = "--1"
            case .jsonNumberExponentWithoutDigits: text = "1e"
            case .jsonNumberHex: text = "0x10"
            case .jsonArrayForString: text = "[\"a\"]"
            case .jsonNumberForString: text = "5"
            case .jsonBoolForString: text = "true"
            case .jsonObjectForString: text = "{}"
            case .jsonStringForMessage: text = "\"x\""
            case .jsonArrayForMessage: text = "[]"
            case .jsonObjectForRepeated: text = "{}"
            case .jsonStringForRepeated: text = "\"a\""
            case .jsonStringForMessageElement: text = "[\"x\"]"
            case .jsonNestedArrayForRepeatedString: text = "[[\"a\"]]"
            case .jsonNumberForBool: text = "1"
            case .jsonBoolForInteger: text = "true"
            case .jsonArrayForInteger: text = "[1]"
            case .jsonObjectForDouble: text = "{}"
            case .jsonObjectForEnum: text = "{}"
            case .jsonArrayForMap: text = "[]"
            case .jsonNumberForBytes: text = "5"
            case .jsonInt32AboveMax: text = "2147483648"
            case .jsonUInt32OutOfRange: text = "4294967296"
            case .jsonUInt32Negative, .jsonUInt64Negative: text = "-1"
            case .jsonUInt64OutOfRangeString: text = "\"18446744073709551616\""
            case .jsonIntegerFraction: text = "1.5"
            case .jsonIntegerFractionString: text = "\"1.5\""
            case .jsonEnumUnknownName:
                guard case .enumeration(let schema) = info.kind, let name = schema.values.last?.name else { return nil }
                text = "\"\(name)_UNKNOWN\""
            case .jsonEnumNameLowercase:
                guard case .enumeration(let schema) = info.kind, let name = schema.values.last?.name else { return nil }
                text = "\"\(name.lowercased())\""
            case .jsonBase64OneChar: text = "\"Q\""
            case .jsonBase64PaddingInMiddle: text = "\"QQ==QQ==\""
            case .jsonStringForBool: text = "\"true\""
            case .jsonNaNLiteral: text = flaw.variant % 2 == 0 ? "NaN" : "-Infinity"
            default: return nil
            }
            return Array(text.utf8)
        }

        private mutating func writeBytes(_ bytes: [UInt8], styled: Bool, random: inout ExploreRandom, flaw: Flaw?) {
            var encoded = styled
                ? GeneratedJSONWriter.base64(bytes, urlSafe: random.chance(50), padded: random.chance(50))
                : GeneratedJSONWriter.base64(bytes)
            if flaw?.kind == .jsonBase64InvalidCharacter {
                encoded.insert(UInt8(ascii: "!"), at: Int(flaw!.variant % UInt64(encoded.count + 1)))
            }
            byte("\"")
            for character in encoded {
                // \/ and \u003d are the same characters (y_bytes_escaped_base64).
                if styled, character == UInt8(ascii: "/") || character == UInt8(ascii: "="), random.chance(30) {
                    if character == UInt8(ascii: "/") { out += Array("\\/".utf8) } else { out += Array("\\u003d".utf8) }
                } else {
                    out.append(character)
                }
            }
            byte("\"")
        }

        private mutating func writeVarint(_ raw: UInt64, info: FieldSchema, styled: Bool, random: inout ExploreRandom, flaw: Flaw?) {
            switch info.kind {
            case .bool:
                out += Array((raw != 0 ? "true" : "false").utf8)
            case .enumeration(let schema):
                let number = Int32(truncatingIfNeeded: Int64(bitPattern: raw))
                if let name = schema.name(of: number), !(styled && random.chance(40)) {
                    out += GeneratedJSONWriter.quoted(Array(name.utf8), styled: styled, random: &random)
                } else if styled, number > 0, random.chance(30) {
                    out += Array("\(number).0".utf8)
                } else {
                    out += Array(String(number).utf8)
                }
            case .uint64:
                let exact = Double(raw) < 18_446_744_073_709_551_616 && UInt64(Double(raw)) == raw
                if flaw?.kind == .jsonBeyondDoublePrecision || (styled && exact && random.chance(40)) {
                    out += Array(String(raw).utf8)
                } else if styled, raw != 0, raw < 1 << 53, random.chance(40) {
                    out += integerSpelling(String(raw), &random)
                } else {
                    out += Array("\"\(raw)\"".utf8)
                }
            default:  // uint32, int32
                let number = info.kind.isSignedInt32 ? Int64(Int32(truncatingIfNeeded: Int64(bitPattern: raw))) : Int64(raw & 0xFFFF_FFFF)
                if styled, number != 0, random.chance(50) {
                    out += integerSpelling(String(number), &random)
                } else if styled, random.chance(30) {
                    out += Array("\"\(number)\"".utf8)
                } else {
                    out += Array(String(number).utf8)
                }
            }
        }

        /// Another spelling of a non-zero integer below 2^53, exact as a double too, as the golden
        /// corpus spells integers (Required `y_integer_exponent_*`, `y_integer_fraction_zero`,
        /// `y_integer_negative_exponent_integral`, `y_integer_exponent_in_string`): `1.5e1`,
        /// `1E+1`, `1500e-2`, `15.0` as numbers; `15e0` or `15.0` inside a string.
        private func integerSpelling(_ digits: String, _ random: inout ExploreRandom) -> [UInt8] {
            let negative = digits.hasPrefix("-")
            let magnitude = String(negative ? digits.dropFirst() : Substring(digits))
            let sign = negative ? "-" : ""
            if random.chance(30) {
                return Array((random.chance(50) ? "\"\(sign)\(magnitude)e0\"" : "\"\(sign)\(magnitude).0\"").utf8)
            }
            let head = magnitude.prefix(1)
            let fraction = magnitude.count > 1 ? "." + magnitude.dropFirst() : ""
            let text: String
            switch random.below(4) {
            case 0: text = "\(sign)\(head)\(fraction)e\(magnitude.count - 1)"
            case 1: text = "\(sign)\(magnitude)00e-2"
            case 2: text = "\(sign)\(magnitude).0"
            default: text = "\(sign)\(head)\(fraction)E+\(magnitude.count - 1)"
            }
            return Array(text.utf8)
        }

        private mutating func writeDouble(_ value: Double, styled: Bool, random: inout ExploreRandom) {
            if value.isNaN {
                out += Array("\"NaN\"".utf8)
            } else if value.isInfinite {
                out += Array((value < 0 ? "\"-Infinity\"" : "\"Infinity\"").utf8)
            } else if value == 0, value.sign == .minus, styled {
                out += Array(random.pick(["-0.0", "-0", "\"-0\""]).utf8)
            } else if styled, value == value.rounded(), abs(value) < 1e15, random.chance(40) {
                let integer = String(Int64(value))
                out += Array((random.chance(50) ? integer : "\"\(integer)\"").utf8)
            } else if styled, random.chance(30) {
                out += Array("\"\(value.description)\"".utf8)
            } else {
                out += Array(value.description.utf8)
            }
        }
    }
}

extension FieldSchema.Kind {
    var isSignedInt32: Bool {
        if case .int32 = self { return true }
        if case .enumeration = self { return true }
        return false
    }
}
