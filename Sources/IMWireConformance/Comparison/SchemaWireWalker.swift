import IMWire

/// Walks canonical protobuf bytes of `imwire.v1.Message` with the schema's field table and rewrites
/// the unknown fields of every message, at every level: ``strippingUnknownFields(_:schema:)`` removes
/// them, ``normalizingUnknownFields(_:schema:)`` puts them in one form that does not depend on how an
/// implementation happened to write them.
///
/// Independent of the library's decoder on purpose: it keeps its own small, checked reader of the
/// wire format (and its own varint writer) and uses neither `BinaryDecoder` nor anything else of
/// IMWire's wire code, so that the conformance suite does not share bugs with the code under test.
/// Do not fold it into the decoder's reader.
///
/// A field is known when the schema has its number and its wire type fits the field's type (a known
/// number with another wire type is an unknown field, as every proto3 runtime keeps it); a known
/// sub-message is walked in turn and re-framed. The input must be canonical (every message's known
/// fields before its unknown ones, as IMWire's encoder writes them), and then so is the output.
package enum SchemaWireWalker {
    /// `bytes` without unknown fields, or `nil` if they are not well-formed protobuf.
    ///
    /// A case whose binary carries unknown fields cannot round-trip through JSON, which has no place
    /// for them: decoding its canonical JSON gives the canonical binary minus the unknown fields.
    package static func strippingUnknownFields(_ bytes: [UInt8], schema: MessageSchema) -> [UInt8]? {
        walk(bytes, schema: schema, unknownFields: .strip)
    }

    /// `bytes` with each message's unknown fields in a normal form, or `nil` if they are not
    /// well-formed protobuf: every tag and varint in its shortest encoding, groups normalised
    /// recursively, and the fields stably sorted by field number (the order of fields with the same
    /// number is kept, as proto3 requires: it can be the order of a repeated field's elements).
    /// Every NaN in a known double field becomes the same quiet NaN.
    ///
    /// Two messages that differ only in how a conforming runtime stores unknown fields — Java keeps
    /// them grouped by number, C++ and Java re-encode unknown varints minimally — normalise to the
    /// same bytes; a dropped, added or changed unknown field still shows.
    package static func normalizingUnknownFields(_ bytes: [UInt8], schema: MessageSchema) -> [UInt8]? {
        walk(bytes, schema: schema, unknownFields: .normalize)
    }

    private enum UnknownFieldHandling { case strip, normalize }

    /// One unknown field in normal form.
    private struct UnknownField {
        let number: UInt64
        let bytes: [UInt8]
    }

    /// Messages and groups nest at most this deep here (three times the deepest fixture); deeper
    /// bytes are refused (`nil`). Keeps the recursion within a small thread stack.
    package static let maxDepth = 1_000

    private static func walk(_ bytes: [UInt8], schema: MessageSchema, unknownFields: UnknownFieldHandling) -> [UInt8]? {
        var reader = Reader(bytes: bytes, position: 0, end: bytes.count)
        var out: [UInt8] = []
        guard walkMessage(&reader, schema: schema, handling: unknownFields, into: &out, depth: 0) else { return nil }
        return out
    }

    private static func walkMessage(
        _ reader: inout Reader, schema: MessageSchema, handling: UnknownFieldHandling, into out: inout [UInt8], depth: Int
    ) -> Bool {
        guard depth < maxDepth else { return false }
        var unknown: [UnknownField] = []
        while reader.position < reader.end {
            let start = reader.position
            guard let tag = reader.varint(), tag >> 3 != 0 else { return false }
            let number = tag >> 3
            let wireType = UInt8(tag & 7)
            let field = number <= UInt64(Int.max) ? schema.field(number: Int(number)) : nil
            if let field, wireType == 2, case .message(let child) = field.kind {
                guard let length = reader.length() else { return false }
                var inner = Reader(bytes: reader.bytes, position: reader.position, end: reader.position + length)
                var body: [UInt8] = []
                guard walkMessage(&inner, schema: child(), handling: handling, into: &body, depth: depth + 1) else { return false }
                reader.position = inner.end
                appendVarint(tag, to: &out)
                appendVarint(UInt64(body.count), to: &out)
                out.append(contentsOf: body)
                continue
            }
            if let field, wireType == expectedWireType(field.kind) {
                guard reader.skip(wireType: wireType, number: number, depth: depth) else { return false }
                out.append(contentsOf: reader.bytes[start..<reader.position])
                if handling == .normalize, case .double = field.kind {
                    normalizeNaN(&out)
                }
                continue
            }
            switch handling {
            case .strip:
                guard reader.skip(wireType: wireType, number: number, depth: depth) else { return false }
            case .normalize:
                guard let field = normalizedValue(&reader, number: number, wireType: wireType, depth: depth) else { return false }
                unknown.append(field)
            }
        }
        appendSorted(unknown, to: &out)
        return true
    }

    /// Reads the value of an unknown field whose tag was just read and returns the whole field in
    /// normal form.
    private static func normalizedValue(_ reader: inout Reader, number: UInt64, wireType: UInt8, depth: Int) -> UnknownField? {
        var out: [UInt8] = []
        appendVarint(number << 3 | UInt64(wireType), to: &out)
        switch wireType {
        case 0:
            guard let value = reader.varint() else { return nil }
            appendVarint(value, to: &out)
        case 1, 5:
            let start = reader.position
            guard reader.skip(wireType: wireType, number: number, depth: depth) else { return nil }
            out.append(contentsOf: reader.bytes[start..<reader.position])
        case 2:
            guard let length = reader.length() else { return nil }
            appendVarint(UInt64(length), to: &out)
            out.append(contentsOf: reader.bytes[reader.position..<(reader.position + length)])
            reader.position += length
        case 3:
            guard depth < maxDepth else { return nil }
            var members: [UnknownField] = []
            while true {
                guard reader.position < reader.end, let tag = reader.varint(), tag >> 3 != 0 else { return nil }
                let innerType = UInt8(tag & 7)
                if innerType == 4 {
                    guard tag >> 3 == number else { return nil }
                    break
                }
                guard let member = normalizedValue(&reader, number: tag >> 3, wireType: innerType, depth: depth + 1) else { return nil }
                members.append(member)
            }
            appendSorted(members, to: &out)
            appendVarint(number << 3 | 4, to: &out)
        default:
            return nil
        }
        return UnknownField(number: number, bytes: out)
    }

    /// Every NaN is the same value: the double that ends `out` becomes the quiet NaN
    /// 0x7FF8000000000000 if it is any NaN (Go's protojson reads `"NaN"` as 0x7FF8000000000001).
    private static func normalizeNaN(_ out: inout [UInt8]) {
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(out[out.count - 8 + index]) << (8 * UInt64(index)) }
        guard Double(bitPattern: bits).isNaN else { return }
        let quietNaN = Double.nan.bitPattern
        for index in 0..<8 { out[out.count - 8 + index] = UInt8(truncatingIfNeeded: quietNaN >> (8 * UInt64(index))) }
    }

    private static func appendSorted(_ fields: [UnknownField], to out: inout [UInt8]) {
        // Stable: fields with the same number keep their order.
        let sorted = fields.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }
        for (_, field) in sorted { out.append(contentsOf: field.bytes) }
    }

    private static func expectedWireType(_ kind: FieldSchema.Kind) -> UInt8 {
        switch kind {
        case .string, .bytes, .message, .stringToBytesMap: 2
        case .uint64, .uint32, .int32, .bool, .enumeration: 0
        case .double: 1
        }
    }

    private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    /// A bounds-checked cursor over `bytes[position..<end]`.
    private struct Reader {
        let bytes: [UInt8]
        var position: Int
        let end: Int

        /// A varint of at most 10 bytes, or `nil`.
        mutating func varint() -> UInt64? {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while position < end, shift < 64 {
                let byte = bytes[position]
                position += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
            return nil
        }

        /// A length prefix whose bytes are all there, or `nil`.
        mutating func length() -> Int? {
            guard let length = varint(), length <= UInt64(end - position) else { return nil }
            return Int(length)
        }

        /// Skips the value of a field whose tag was just read; a group up to its end tag.
        mutating func skip(wireType: UInt8, number: UInt64, depth: Int) -> Bool {
            switch wireType {
            case 0:
                return varint() != nil
            case 1, 5:
                let size = wireType == 1 ? 8 : 4
                guard end - position >= size else { return false }
                position += size
                return true
            case 2:
                guard let length = length() else { return false }
                position += length
                return true
            case 3:
                guard depth < SchemaWireWalker.maxDepth else { return false }
                while position < end {
                    guard let tag = varint(), tag >> 3 != 0 else { return false }
                    let innerType = UInt8(tag & 7)
                    if innerType == 4 { return tag >> 3 == number }
                    guard skip(wireType: innerType, number: tag >> 3, depth: depth + 1) else { return false }
                }
                return false
            default:
                return false
            }
        }
    }
}
