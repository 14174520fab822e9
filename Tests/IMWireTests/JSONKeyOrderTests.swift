import IMWire
import IMWireTestSupport
import Testing

/// The JSON reader predicts each key from the fields after the last one read whose names start with
/// the key's first byte; a key it does not predict is looked up by name. Whatever the order of the
/// members, and whichever spelling (JSON name or proto name), a document decodes to the same value.
@Suite struct JSONKeyOrderTests {
    /// VideoElem's members: most of its names share a first byte with another (`video…`, `snapshot…`).
    static let members: [(json: String, proto: String, value: String)] = [
        ("videoUuid", "video_uuid", "\"v-1\""), ("videoUrl", "video_url", "\"https://v/1\""),
        ("videoSize", "video_size", "\"4096\""), ("videoFormat", "video_format", "\"mp4\""),
        ("duration", "duration", "12"), ("snapshotUuid", "snapshot_uuid", "\"s-1\""),
        ("snapshotUrl", "snapshot_url", "\"https://s/1\""), ("snapshotSize", "snapshot_size", "\"512\""),
        ("snapshotWidth", "snapshot_width", "640"), ("snapshotHeight", "snapshot_height", "480"),
        ("snapshotFormat", "snapshot_format", "\"jpg\""),
    ]

    static let expected = VideoElem(
        videoUUID: "v-1", videoURL: "https://v/1", videoSize: 4096, videoFormat: "mp4", duration: 12,
        snapshotUUID: "s-1", snapshotURL: "https://s/1", snapshotSize: 512, snapshotWidth: 640,
        snapshotHeight: 480, snapshotFormat: "jpg")

    static func document(_ order: [Int], protoNames: Set<Int> = []) -> [UInt8] {
        let body = order.map { index in
            let member = members[index]
            return "\"\(protoNames.contains(index) ? member.proto : member.json)\":\(member.value)"
        }
        return Array("{\(body.joined(separator: ","))}".utf8)
    }

    @Test func everyOrderOfTheMembersDecodesToTheSameValue() throws {
        let indices = Array(Self.members.indices)
        #expect(try VideoElem(jsonUTF8Bytes: Self.document(indices)) == Self.expected)
        #expect(try VideoElem(jsonUTF8Bytes: Self.document(indices.reversed())) == Self.expected)
        var random = TestRandom(seed: 33)
        for _ in 0..<200 {
            var order = indices
            for index in order.indices.reversed() { order.swapAt(index, random.int(0...index)) }
            let protoNames = Set(indices.filter { _ in random.chance(0.3) })
            let document = Self.document(order, protoNames: protoNames)
            #expect(try VideoElem(jsonUTF8Bytes: document) == Self.expected, "\(String(decoding: document, as: UTF8.self))")
        }
    }

    @Test func aKeyThatSharesItsFirstByteWithAFieldIsStillUnknown() {
        // `snapshotUr` and `videoUrlx` start like fields but name none: refused, not taken for a neighbour.
        for key in ["snapshotUr", "videoUrlx", "snapshot", "v"] {
            #expect(throws: IMWireError.self) { try VideoElem(jsonUTF8Bytes: Array("{\"\(key)\":\"x\"}".utf8)) }
        }
    }

    @Test func aKeyRepeatedAfterLaterFieldsIsADuplicate() {
        // The prediction starts after the last field read; an earlier field again is looked up and refused.
        let document = Array(#"{"videoUrl":"a","snapshotUrl":"b","videoUrl":"c"}"#.utf8)
        #expect(throws: IMWireError.self) { try VideoElem(jsonUTF8Bytes: document) }
    }
}
