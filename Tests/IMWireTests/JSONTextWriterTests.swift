// The one JSON text writer under the proto3 JSON, tim-rest, TUIKit and webhook writers: escaping,
// numbers and layout checked against RFC 8259 and the standard library directly (the format goldens
// check it through each format).

import IMWire
import Testing

@Suite struct JSONTextWriterTests {
    /// RFC 8259 §7 as canonical proto3 JSON writes it: the two-character escapes where JSON has
    /// one, `\u00xx` (lowercase hex) for the other controls, every other byte as it is.
    static func expectedEscape(_ byte: UInt8) -> [UInt8] {
        switch byte {
        case 0x22: Array(#"\""#.utf8)
        case 0x5C: Array(#"\\"#.utf8)
        case 0x08: Array(#"\b"#.utf8)
        case 0x0C: Array(#"\f"#.utf8)
        case 0x0A: Array(#"\n"#.utf8)
        case 0x0D: Array(#"\r"#.utf8)
        case 0x09: Array(#"\t"#.utf8)
        case ..<0x20:
            Array("\\u00".utf8) + [Array("0123456789abcdef".utf8)[Int(byte >> 4)], Array("0123456789abcdef".utf8)[Int(byte & 15)]]
        default: [byte]
        }
    }

    static func written(_ body: (inout JSONTextWriter<[UInt8]>) -> Void, pretty: Bool = false) -> String {
        var writer = JSONTextWriter(into: [UInt8](), pretty: pretty)
        body(&writer)
        return String(decoding: writer.output, as: UTF8.self)
    }

    // Every ASCII byte at every position of the first two eight-byte words and the tail after them,
    // so that both the word-at-a-time scan and the byte loop meet it.
    @Test(arguments: 0..<19)
    func stringsEscapeOnlyQuotesBackslashesAndControlsAtEveryPosition(position: Int) {
        for byte in UInt8(0)...0x7F {
            var bytes = Array(repeating: UInt8(ascii: "a"), count: 19)
            bytes[position] = byte
            var writer = JSONTextWriter(into: [UInt8]())
            bytes.withUnsafeBufferPointer { writer.string(utf8: $0) }
            let expected = [UInt8(ascii: "\"")] + bytes.flatMap(Self.expectedEscape) + [UInt8(ascii: "\"")]
            #expect(writer.output == expected, "byte \(byte) at \(position)")
        }
    }

    @Test func stringsKeepNonASCIIAsRawUTF8() {
        let text = "é中😀\u{7F}\u{2028}"
        #expect(Self.written { $0.string(text + "\n" + text) } == "\"" + text + "\\n" + text + "\"")
    }

    @Test func integersAreTheirDecimalDescription() {
        var unsigned: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, UInt64(UInt32.max), UInt64.max, UInt64.max - 1]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            unsigned += [power - 1, power, power + 1]
        }
        for value in unsigned {
            #expect(Self.written { $0.integer(value) } == String(value))
            #expect(Self.written { $0.quotedInteger(value) } == "\"\(value)\"")
        }
        for value: Int64 in [0, -1, -9, -10, -100, Int64(Int32.min), Int64.min, Int64.max, 12345] {
            #expect(Self.written { $0.integer(value) } == String(value))
        }
    }

    @Test func doublesAreTheShortestRoundTripForm() {
        for value in [0.0, -0.0, 180.0, 0.1, 1e-07, 1.7976931348623157e+308, 5e-324, -2.5] {
            #expect(Self.written { $0.double(value) } == value.description)
            #expect(Double(Self.written { $0.double(value) }) == value)
        }
    }

    /// One document with every layout piece: nested and empty containers, keys and elements.
    static func document(_ writer: inout JSONTextWriter<[UInt8]>) {
        writer.beginObject()
        writer.member("a", number: 1)
        writer.key("b")
        writer.beginArray()
        writer.element()
        writer.bool(true)
        writer.element()
        writer.beginObject()
        writer.endObject()
        writer.element()
        writer.beginArray()
        writer.endArray()
        writer.element()
        writer.null()
        writer.endArray()
        writer.member("c \"q\"", strings: ["x", "y"])
        writer.member("d", strings: [])
        writer.endObject()
    }

    @Test func compactLayoutHasNoSpaces() {
        #expect(Self.written(Self.document) == #"{"a":1,"b":[true,{},[],null],"c \"q\"":["x","y"],"d":[]}"#)
    }

    @Test func prettyLayoutIndentsTwoSpacesPerLevelAndKeepsEmptyContainersOnOneLine() {
        let expected = """
            {
              "a": 1,
              "b": [
                true,
                {},
                [],
                null
              ],
              "c \\"q\\"": [
                "x",
                "y"
              ],
              "d": []
            }
            """
        #expect(Self.written(Self.document, pretty: true) == expected)
    }

    @Test func encodedKeysAreWrittenAsGiven() {
        let text = Self.written { writer in
            writer.beginObject()
            Array(#""msgId":"#.utf8).withUnsafeBufferPointer { writer.key(encoded: $0) }
            writer.string("1")
            Array(#""seq":"#.utf8).withUnsafeBufferPointer { writer.key(encoded: $0) }
            writer.quotedInteger(2)
            writer.endObject()
        }
        #expect(text == #"{"msgId":"1","seq":"2"}"#)
    }

    @Test func membersOfAnEncodedObjectContinueTheOpenObject() {
        let text = Self.written { writer in
            writer.beginObject()
            writer.member("a", number: 1)
            writer.members(ofEncodedObject: Array(#"{"b":[2],"c":{}}"#.utf8))
            writer.members(ofEncodedObject: Array("{}".utf8))
            writer.endObject()
        }
        #expect(text == #"{"a":1,"b":[2],"c":{}}"#)
        let alone = Self.written { writer in
            writer.beginObject()
            writer.members(ofEncodedObject: Array(#"{"b":2}"#.utf8))
            writer.endObject()
        }
        #expect(alone == #"{"b":2}"#)
    }

    @Test func theOwnedBufferWritesTheSameBytesAsAnArray() {
        var owned = JSONTextWriter(into: OutputBytes(capacity: 1), pretty: true)
        defer { owned.output.deallocate() }
        var array = JSONTextWriter(into: [UInt8](), pretty: true)
        for index in 0..<200 {
            owned.beginArray(); array.beginArray()
            owned.element(); array.element()
            owned.string("\(index)\u{1}\""); array.string("\(index)\u{1}\"")
            owned.element(); array.element()
            owned.integer(Int64(-index)); array.integer(Int64(-index))
            owned.endArray(); array.endArray()
        }
        #expect(owned.output.bytes() == array.output)
    }
}
