// The writers' buffers at their capacities: the binary writer's thread buffer (4096 bytes to start,
// doubling, kept by the thread up to 1 MiB), the JSON writer's output (256 bytes to start,
// doubling) and a JSON view's copy of its input (the thread's 4096 bytes, or exactly the input's
// size), with outputs of exactly a capacity, one byte less and one more — escapes, non-ASCII and
// base64 straddling each boundary. Run under AddressSanitizer by the test command: every buffer is
// a heap block of its exact capacity, so a write one byte past it is a report, not a silent
// overwrite of spare room.

import IMWire
import IMWireTestSupport
import Testing

@Suite("Writers at their buffers' capacities")
struct WriterBoundaryTests {
    /// `body`'s error, typed (the views' entry points throw `any Error`, for their closure's).
    static func typed<T>(_ body: () throws -> T) throws(IMWireError) -> T {
        do { return try body() } catch let error as IMWireError { throw error } catch { fatalError("not an IMWireError: \(error)") }
    }

    // MARK: Binary

    /// A message of exactly `size` encoded bytes: a 20-byte message ID (over 15 bytes, so it is
    /// written as it lies, not through the small-string window, which reserves 16 bytes whatever the
    /// string's length), a text elem whose text pads it to `size`, and a topic ID and unknown fields
    /// after them, which the writer (back to front) writes first, so a buffer that grows in the
    /// text has bytes to move.
    static func binaryMessage(size: Int) throws -> Message {
        let unknown: [UInt8] = [0xC0, 0x3E, 0x01]  // field 1000, varint 1
        func build(_ textCount: Int, _ idPadding: Int) throws -> Message {
            let text = textCount >= 4 ? String(repeating: "a", count: textCount - 4) + "😀" : String(repeating: "b", count: textCount)
            let message = Message(msgID: "boundary-msg-id-" + String(repeating: "0", count: 4 + idPadding), elems: [.text(text)],
                                  topicID: String(repeating: "t", count: 100))
            return try Message(serializedBytes: try message.serializedBytes() + unknown)
        }
        // The size grows with the text one byte per byte, but for a length prefix that gains a byte;
        // a size skipped there is reached with a message ID one byte longer.
        for idPadding in 0..<3 {
            var textCount = max(0, size - 200)
            for _ in 0..<4 {
                let encoded = try build(textCount, idPadding).serializedSize()
                if encoded == size { return try build(textCount, idPadding) }
                textCount += size - encoded
                if textCount < 0 { break }
            }
        }
        throw BoundaryError.noMessage(size: size)
    }

    enum BoundaryError: Error { case noMessage(size: Int) }

    /// Messages whose encoding is exactly each capacity, one byte less and one more, encode (into a
    /// new thread buffer: the one the encode starts from is the initial 4096 bytes), decode and view
    /// to themselves, and append the same bytes after a prefix. The buffer given back shows the
    /// boundary was met: a message of exactly a capacity fills it without growing it, one byte more
    /// doubles it.
    @Test(arguments: [4095, 4096, 4097, 8191, 8192, 8193, (1 << 20) - 1, 1 << 20, (1 << 20) + 1])
    func messagesOfExactlyTheBinaryWritersCapacityRoundTrip(size: Int) throws {
        let message = try Self.binaryMessage(size: size)
        let (encoded, capacities) = try withFreshScratch { try message.serializedBytes() }
        #expect(encoded.count == size)
        // The capacity it grew to: the smallest doubling of 4096 that holds the message. One past
        // what a thread keeps is freed, and the thread starts again from 4096.
        var grown = 4096
        while grown < size { grown *= 2 }
        if grown > 1 << 20 { grown = 4096 }
        #expect(capacities.bytes == grown, "\(size) bytes left a buffer of \(capacities.bytes)")

        let (sized, _) = try withFreshScratch { try message.serializedSize() }
        #expect(sized == size)
        var appended: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF]
        _ = try withFreshScratch { try message.appendSerializedBytes(to: &appended) }
        #expect(appended == [0xDE, 0xAD, 0xBE, 0xEF] + encoded)

        try withExactBytes(encoded) { bytes in
            #expect(try Message(serializedBytes: bytes) == message)
            let (viewed, _) = try withFreshScratch { try Message.withView(serializedBytes: bytes) { Message($0) } }
            #expect(viewed == message)
        }
    }

    /// Around the first capacity, every size from 40 bytes under to 40 over: the buffer grows in
    /// the middle of a different write each time (the text, its length, a tag, the message ID, the
    /// unknown fields), and what was written moves to the new buffer's end intact.
    @Test func everySizeAroundTheFirstCapacityRoundTrips() throws {
        for size in 4056...4136 {
            let message = try Self.binaryMessage(size: size)
            let (encoded, capacities) = try withFreshScratch { try message.serializedBytes() }
            #expect(encoded.count == size && capacities.bytes == (size <= 4096 ? 4096 : 8192), "\(size): \(capacities)")
            let decoded = try withExactBytes(encoded) { bytes in try Message(serializedBytes: bytes) }
            #expect(decoded == message, "\(size)")
        }
    }

    /// A value written into an empty buffer (the message's only field, so the first written) whose
    /// bytes are a doubling of the buffer, one byte less or one more: the buffer grows to the
    /// smallest doubling with room for it, in one step however many doublings that takes, and the
    /// message round-trips.
    @Test(arguments: [8192, 16384, 1 << 20])
    func aValueOfExactlyADoublingOfTheBufferGrowsItOnce(doubling: Int) throws {
        for count in (doubling - 1)...(doubling + 1) {
            // Not all one byte: its first and last bytes differ from the rest.
            var data = [UInt8](repeating: 0xA5, count: count)
            (data[0], data[count - 1]) = (1, 2)
            let message = Message(cloudCustomData: data)
            let (encoded, capacities) = try withFreshScratch { try message.serializedBytes() }
            #expect(encoded.count == 1 + Varint.encode(UInt64(count)).count + count)
            var grown = 4096
            while grown < encoded.count { grown *= 2 }
            if grown > 1 << 20 { grown = 4096 }
            #expect(capacities.bytes == grown, "\(count) bytes left a buffer of \(capacities.bytes)")
            let decoded = try withExactBytes(encoded) { bytes in try Message(serializedBytes: bytes) }
            #expect(decoded == message, "\(count) bytes")
        }
    }

    // MARK: JSON

    /// The JSON writer's capacities: its initial one and the doublings after it (a JSON view's copy
    /// of its input is the thread's 4096 bytes up to that size, exactly the input past it).
    static let jsonCapacities = [256, 512, 1024, 2048, 4096, 8192]

    /// What ends the text of the JSON messages below, so that its escapes and multi-byte characters
    /// fall on each side of each capacity: nothing, a two-byte escape, a six-byte one, raw 2-, 3- and
    /// 4-byte UTF-8, and all of them.
    static let endings = ["", "\n", "\"", "\u{01}", "é", "中", "😀", "é\n中\u{1F}😀\\\t"]

    /// Messages whose JSON is each size from 12 under to 12 over each capacity, their text ending
    /// with each of ``endings``: every size in that range is met, and each encodes, decodes and
    /// views (the JSON view under a new thread buffer) to itself, and appends the same text after a
    /// prefix.
    @Test(arguments: 0..<8)
    func jsonOfEverySizeAroundTheWritersCapacitiesRoundTrips(endingIndex: Int) throws {
        let ending = Self.endings[endingIndex]
        for capacity in Self.jsonCapacities {
            var sizes: Set<Int> = []
            for count in max(0, capacity - 80)...(capacity - 20) {
                let message = Message(elems: [.text(String(repeating: "a", count: count) + ending)])
                let json = try message.jsonUTF8Bytes()
                guard json.count >= capacity - 12 && json.count <= capacity + 12 else { continue }
                sizes.insert(json.count)
                var appended = Array("[".utf8)
                try message.appendJSONUTF8Bytes(to: &appended)
                #expect(appended == Array("[".utf8) + json)
                try withExactBytes(json) { bytes in
                    #expect(try Message(jsonUTF8Bytes: bytes) == message, "\(json.count) bytes")
                    let (viewed, _) = try withFreshScratch { try Message.withView(jsonUTF8Bytes: bytes) { Message($0) } }
                    #expect(viewed == message, "\(json.count) bytes")
                }
            }
            #expect(sizes.isSuperset(of: (capacity - 12)...(capacity + 12)), "capacity \(capacity), ending \(Array(ending.utf8)): \(sizes.sorted())")
        }
    }

    /// The JSON text writer into an output of its smallest capacity (16 bytes): strings of every
    /// length up to 40, each from a heap block of its exact size (the writer loads eight bytes at a
    /// time while it may), with a byte to escape at the end or none, come out as their literal.
    @Test func stringLiteralsOfEveryLengthCrossTheOutputsCapacityIntact() {
        for count in 0...40 {
            for last: UInt8 in [UInt8(ascii: "z"), UInt8(ascii: "\""), 0x0A, 0x1F] {
                let text = Array(repeating: UInt8(ascii: "a"), count: max(0, count - 1)) + (count > 0 ? [last] : [])
                var writer = JSONTextWriter(into: OutputBytes(capacity: 16))
                withExactBytes(text) { writer.string(utf8: $0) }
                writer.append(UInt8(ascii: "!"))
                let written = writer.output.bytes()
                writer.output.deallocate()
                let expected = "\"" + String(decoding: text.dropLast(count > 0 ? 1 : 0), as: UTF8.self)
                    + (count == 0 ? "" : [UInt8(ascii: "z"): "z", UInt8(ascii: "\""): "\\\"", 0x0A: "\\n", 0x1F: "\\u001f"][last]!) + "\"!"
                #expect(String(decoding: written, as: UTF8.self) == expected, "\(count) bytes ending \(last)")
            }
        }
    }

    // MARK: Base64

    /// `count` bytes whose base64 has `+` and `/` (so the URL-safe alphabet differs) and every
    /// remainder of a group of three.
    static func data(_ count: Int) -> [UInt8] {
        (0..<count).map { [0xFB, 0xFF, 0xBF, 0x00, 0x10, 0x83, 0xF8][$0 % 7] ^ UInt8(truncatingIfNeeded: $0 / 7) }
    }

    /// The spellings of a base64 text the decoder accepts: as written (standard, padded), URL-safe,
    /// unpadded, and both.
    static func spellings(_ base64: String) -> [String] {
        let urlSafe = String(base64.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        return [base64, urlSafe, String(base64.filter { $0 != "=" }), String(urlSafe.filter { $0 != "=" })]
    }

    /// A JSON view copies the input into the thread's buffer from its first escaped value on, and
    /// every value after it: a plain last value is copied whole, up to two bytes before the input's
    /// end (its closing quote and brace). Documents of every size around the buffer's 4096 bytes
    /// (past it the copy is a block of exactly the input's size) view what they decode.
    @Test func aJSONViewsCopyReachesTheLastValuesEndAroundTheThreadBuffersSize() throws {
        for size in 4086...4106 {
            let head = #"{"sender":"a\n\u00e9","msgId":""#
            let document = Array((head + String(repeating: "m", count: size - head.utf8.count - 2) + #""}"#).utf8)
            #expect(document.count == size)
            let decoded = try Message(jsonUTF8Bytes: document)
            #expect(decoded.sender == "a\né" && decoded.msgID.utf8.count == size - head.utf8.count - 2)
            try withExactBytes(document) { bytes in
                let (viewed, capacities) = try withFreshScratch { try Message.withView(jsonUTF8Bytes: bytes) { Message($0) } }
                #expect(viewed == decoded, "\(size) bytes")
                #expect(capacities.bytes == max(4096, size), "\(size) bytes: a copy of \(capacities.bytes)")
            }
        }
    }

    /// `cloudCustomData` of every length 0...70 (every remainder of three, the decoder's four-at-a-
    /// time loop and its tail) and 170...200 (where the JSON output crosses its first capacity
    /// inside the base64): written, and read back in each spelling by the decoder and the JSON view,
    /// alone and as the last value of a document over 4096 bytes (so a view's copy of the input is
    /// a block of exactly the input's size, the value decoded into it just before its end).
    @Test func bytesOfEveryLengthRoundTripThroughBase64InEverySpelling() throws {
        var sawBoth = false
        for count in Array(0...70) + Array(170...200) {
            let data = Self.data(count)
            let message = Message(cloudCustomData: data)
            let json = try message.jsonUTF8Bytes()
            #expect(try Message(jsonUTF8Bytes: json) == message)
            let text = String(decoding: json, as: UTF8.self)
            let prefix = #"{"cloudCustomData":""#
            guard text.hasPrefix(prefix) || count == 0, text.hasSuffix("\"}") || count == 0 else {
                Issue.record("\(count) bytes: \(text)")
                continue
            }
            let base64 = count == 0 ? "" : String(text.dropFirst(prefix.count).dropLast(2))
            #expect(base64.count == (count + 2) / 3 * 4)
            sawBoth = sawBoth || (base64.contains("+") && base64.contains("/"))
            // Text that pads a document past the thread buffer's 4096 bytes.
            let padding = #"{"elems":[{"text":{"text":""# + String(repeating: "p", count: 4200) + #""}}]"#
            let padded = Message(elems: [.text(String(repeating: "p", count: 4200))], cloudCustomData: data)
            for spelling in Self.spellings(base64) {
                for (document, expected) in [(#"{"cloudCustomData":""# + spelling + #""}"#, message), (padding + #","cloudCustomData":""# + spelling + #""}"#, padded)] {
                    let bytes = Array(document.utf8)
                    try withExactBytes(bytes) { bytes in
                        #expect(try Message(jsonUTF8Bytes: bytes) == expected, "\(count) bytes as \(spelling)")
                        let (viewed, _) = try withFreshScratch { try Message.withView(jsonUTF8Bytes: bytes) { Message($0) } }
                        #expect(viewed == expected, "\(count) bytes as \(spelling), viewed")
                    }
                }
            }
        }
        #expect(sawBoth, "no base64 text had both + and /")
    }

    /// Base64 one character short of a whole group (4k + 1 characters) is refused, by the decoder
    /// and the view alike, at the value's opening quote.
    @Test func base64OfALengthNoBytesHaveIsRefusedByTheDecoderAndTheViewAlike() throws {
        for groups in 0...17 {
            let document = Array((#"{"cloudCustomData":""# + String(repeating: "QUJD", count: groups) + #"Q"}"#).utf8)
            let (decoded, viewed) = withExactBytes(document) { bytes in
                (Result { () throws(IMWireError) in try Message(jsonUTF8Bytes: bytes) },
                 Result { () throws(IMWireError) in try Self.typed { try Message.withView(jsonUTF8Bytes: bytes) { Message($0) } } })
            }
            guard case .failure(let error) = decoded, case .failure(let viewError) = viewed else {
                Issue.record("\(groups) groups and one character: decoder \(decoded), view \(viewed)")
                continue
            }
            #expect(error.code == .invalidBase64 && error.offset == 19, "\(error)")
            #expect(viewError == error && viewError.offset == error.offset && viewError.reason == error.reason, "\(viewError) vs \(error)")
        }
    }
}
