// Streams of messages: length-delimited binary (LengthDelimited, lengthDelimitedMessages) and
// newline-delimited JSON (JSONLines, jsonLinesMessages). Round trips under every chunking, errors with
// the exact record index and stream offset, bounded buffering.

import IMWire
import IMWireTestSupport
import Testing


@Suite struct StreamTests {
    // MARK: - Sync round trips

    @Test func lengthDelimitedRoundTripsManyMessages() throws {
        let messages = StreamSamples.messages(400)
        let stream = try StreamSamples.delimited(messages)
        // Each record is the varint of the canonical encoding's size, then the encoding.
        var expected: [UInt8] = []
        for message in messages {
            let body = try message.serializedBytes()
            expected += Varint.encode(UInt64(body.count)) + body
        }
        #expect(stream == expected)

        var decoded: [Message] = []
        var rest = stream[...]
        while let (message, count) = try LengthDelimited.read(from: rest) {
            decoded.append(message)
            rest = rest.dropFirst(count)
        }
        #expect(rest.isEmpty)
        #expect(decoded == messages)
    }

    @Test func lengthDelimitedAppendsToAnyRangeReplaceableBuffer() throws {
        let message = Message(sender: "alice", elems: [.text("hi")])
        var slice: ArraySlice<UInt8> = [0xFF]
        try LengthDelimited.append(message, to: &slice)
        let body = try message.serializedBytes()
        #expect(Array(slice) == [0xFF, UInt8(body.count)] + body)
        // A collection without contiguous storage reads too.
        let scattered = NonContiguousBytes(bytes: Array(slice.dropFirst()))
        #expect(try LengthDelimited.read(from: scattered)?.message == message)
        #expect(try LengthDelimited.read(from: scattered)?.byteCount == scattered.count)
    }

    @Test func lengthDelimitedReadReturnsNilUntilARecordIsComplete() throws {
        let message = Message(sender: String(repeating: "x", count: 200), elems: [.text("hi")])
        let stream = try StreamSamples.delimited([message])
        #expect(stream[0] & 0x80 != 0, "a two-byte prefix")
        for end in 0..<stream.count {
            #expect(try LengthDelimited.read(from: stream[..<end]) == nil, "prefix of \(end) bytes")
        }
        let read = try #require(try LengthDelimited.read(from: stream + [0x01]))
        #expect(read.message == message)
        #expect(read.byteCount == stream.count)
    }

    @Test func jsonLinesRoundTripsManyMessages() throws {
        let messages = StreamSamples.messages(400, json: true)
        let stream = try StreamSamples.jsonLines(messages)
        var expected: [UInt8] = []
        for message in messages { expected += try message.jsonUTF8Bytes() + [0x0A] }
        #expect(stream == expected)
        #expect(stream.filter { $0 == 0x0A }.count == messages.count, "one line per message")

        var decoded: [Message] = []
        var rest = stream[...]
        while let (message, count) = try JSONLines.read(from: rest) {
            decoded.append(message)
            rest = rest.dropFirst(count)
        }
        #expect(rest.isEmpty)
        #expect(decoded == messages)
    }

    @Test func jsonLinesAppendIgnoresPrettyPrinting() throws {
        let message = Message(sender: "a", elems: [.text("x\ny")])
        var line: [UInt8] = []
        try JSONLines.append(message, to: &line, options: JSONEncodingOptions(prettyPrinted: true))
        #expect(line == Array(#"{"sender":"a","elems":[{"text":{"text":"x\ny"}}]}"#.utf8) + [0x0A])
    }

    @Test func jsonLinesReadSkipsBlankLinesAndAcceptsCRLF() throws {
        let text = "\n  \t\r\n{\"sender\":\"a\"}\r\n\n{\"sender\":\"b\"}\n{\"sender\":\"c\"}"
        let bytes = Array(text.utf8)
        let first = try #require(try JSONLines.read(from: bytes))
        #expect(first.message.sender == "a")
        #expect(first.byteCount == Array("\n  \t\r\n{\"sender\":\"a\"}\r\n".utf8).count)
        let second = try #require(try JSONLines.read(from: bytes.dropFirst(first.byteCount)))
        #expect(second.message.sender == "b")
        // The last line has no newline: not complete for the sync reader.
        #expect(try JSONLines.read(from: bytes.dropFirst(first.byteCount + second.byteCount)) == nil)
        #expect(try JSONLines.read(from: Array("\n\r\n \n".utf8)) == nil)
    }

    @Test func jsonLinesReadReportsTheOffsetOfABadLine() throws {
        let bytes = Array("\n\n{\"sender\":1}\n".utf8)
        let error = try #require(throws: IMWireError.self) { try JSONLines.read(from: bytes) }
        #expect(error.code == .invalidValue)
        #expect(error.offset == 2 + 10, "\(error)")
        #expect(error.recordIndex == nil)
    }

    @Test func jsonLinesReadRefusesALongLineWithoutLookingForItsEnd() throws {
        let options = JSONDecodingOptions(maxInputSize: 20)
        let fits = Array(#"{"sender":"123456"}"#.utf8)
        #expect(fits.count == 19)
        #expect(try JSONLines.read(from: fits + [0x0D, 0x0A], options: options)?.message.sender == "123456")
        let long = Array(#"{"sender":"1234567890"}"#.utf8)
        // No newline at all: refused once the limit is passed; short of it, not complete yet.
        let error = try #require(throws: IMWireError.self) { try JSONLines.read(from: long, options: options) }
        #expect(error.code == .inputTooLarge)
        #expect(try JSONLines.read(from: long.prefix(21), options: options) == nil)
        #expect(throws: IMWireError.matching(.inputTooLarge)) { try JSONLines.read(from: long + [0x0A], options: options) }
    }

    // MARK: - Sync errors

    @Test func lengthDelimitedReadErrorsCarryTheOffsetInTheBuffer() throws {
        // Record body: field 1 with wire type 7 at body offset 2.
        let body: [UInt8] = [0x12, 0x00, 0x0F]
        let error = try #require(throws: IMWireError.self) { try LengthDelimited.read(from: [UInt8(body.count)] + body) }
        #expect(error.code == .invalidWireType)
        #expect(error.offset == 1 + 2)
        #expect(error.recordIndex == nil)
        #expect(error.description.hasSuffix("(at byte 3)"))
    }

    @Test(arguments: [
        // Prefix over 10 bytes.
        ([UInt8](repeating: 0x80, count: 10) + [0x01], IMWireError.Code.varintTooLong),
        // 2^31: above Int32.max.
        ([0x80, 0x80, 0x80, 0x80, 0x08], .lengthOutOfBounds),
        // 2^64 - 1 (ten bytes).
        ([UInt8](repeating: 0xFF, count: 9) + [0x01], .lengthOutOfBounds),
        // 1 GiB: over the default 8 MiB limit, refused from the prefix alone.
        ([0x80, 0x80, 0x80, 0x80, 0x04, 0x0A, 0x00], .inputTooLarge),
    ])
    func lengthDelimitedReadRefusesBadPrefixes(_ bytes: [UInt8], _ code: IMWireError.Code) throws {
        let error = try #require(throws: IMWireError.self) { try LengthDelimited.read(from: bytes) }
        #expect(error.code == code)
        #expect(error.offset == 0)
    }

    @Test func lengthDelimitedReadAcceptsAnOverlongPrefixOfTenBytes() throws {
        let message = Message(sender: "a")
        let body = try message.serializedBytes()
        let prefix = [UInt8(body.count) | 0x80] + [UInt8](repeating: 0x80, count: 8) + [0x00]
        let read = try #require(try LengthDelimited.read(from: prefix + body))
        #expect(read.message == message)
        #expect(read.byteCount == 10 + body.count)
    }

    @Test func recordLimitIsThePerRecordMaxInputSize() throws {
        let message = Message(sender: String(repeating: "s", count: 100))
        let body = try message.serializedBytes()
        let stream = try StreamSamples.delimited([message])
        #expect(try LengthDelimited.read(from: stream, options: BinaryDecodingOptions(maxInputSize: body.count))?.message == message)
        let error = try #require(throws: IMWireError.self) {
            try LengthDelimited.read(from: stream, options: BinaryDecodingOptions(maxInputSize: body.count - 1))
        }
        #expect(error.code == .inputTooLarge)
    }

    // MARK: - Async round trips

    @Test(arguments: StreamSamples.Chunking.allCases)
    func asyncLengthDelimitedRoundTripsUnderEveryChunking(_ chunking: StreamSamples.Chunking) async throws {
        let messages = StreamSamples.messages(120)
        let stream = try StreamSamples.delimited(messages)
        let decoded = try await collect(Chunks(chunking.cut(stream)).lengthDelimitedMessages())
        #expect(decoded == messages)
    }

    @Test(arguments: StreamSamples.Chunking.allCases)
    func asyncJSONLinesRoundTripsUnderEveryChunking(_ chunking: StreamSamples.Chunking) async throws {
        let messages = StreamSamples.messages(120, json: true)
        let stream = try StreamSamples.jsonLines(messages)
        let decoded = try await collect(Chunks(chunking.cut(stream)).jsonLinesMessages())
        #expect(decoded == messages)
    }

    @Test func asyncSequencesTakeChunksWithoutContiguousStorage() async throws {
        let messages = StreamSamples.messages(20)
        let stream = try StreamSamples.delimited(messages)
        let chunks = StreamSamples.Chunking.randomSeeded.cut(stream).map { NonContiguousBytes(bytes: $0) }
        #expect(try await collect(Chunks(chunks).lengthDelimitedMessages()) == messages)
    }

    /// A record whose length prefix takes three bytes, cut at every point of its first bytes.
    @Test func aRecordSplitInsideItsLengthPrefixDecodes() async throws {
        let big = Message(sender: "big", elems: [.text(String(repeating: "长", count: 6000))])
        let messages = [Message(sender: "a"), big, Message(sender: "b")]
        let stream = try StreamSamples.delimited(messages)
        let bigStart = try StreamSamples.delimited([messages[0]]).count
        #expect(stream[bigStart] & 0x80 != 0 && stream[bigStart + 1] & 0x80 != 0 && stream[bigStart + 2] & 0x80 == 0)
        for cut in bigStart...(bigStart + 4) {
            for second in (cut + 1)...(cut + 3) {
                let chunks = [Array(stream[..<cut]), Array(stream[cut..<second]), Array(stream[second...])]
                #expect(try await collect(Chunks(chunks).lengthDelimitedMessages()) == messages, "cut at \(cut), \(second)")
            }
        }
    }

    @Test func asyncJSONLinesSkipsBlankLinesAcceptsCRLFAndAFinalLineWithoutNewline() async throws {
        let text = "\r\n{\"sender\":\"a\"}\r\n \t\n\n{\"sender\":\"b\"}\n{\"sender\":\"c\"}"
        for chunking in StreamSamples.Chunking.allCases {
            let decoded = try await collect(Chunks(chunking.cut(Array(text.utf8))).jsonLinesMessages())
            #expect(decoded.map(\.sender) == ["a", "b", "c"], "\(chunking)")
        }
        #expect(try await collect(Chunks([Array("\n\n  \r\n".utf8)]).jsonLinesMessages()).isEmpty)
        #expect(try await collect(Chunks([[UInt8]]()).lengthDelimitedMessages()).isEmpty)
    }

    @Test func asyncSequenceIsSendableWhenItsBaseIs() async throws {
        let stream = try StreamSamples.delimited(StreamSamples.messages(5))
        let sequence = Chunks([stream]).lengthDelimitedMessages()
        let count = try await Task.detached { try await collect(sequence).count }.value
        #expect(count == 5)
    }

    /// Any message type of the schema streams, not only Message.
    @Test func streamsOfOtherMessageTypes() async throws {
        let members = (0..<30).map { GroupMemberInfo(userID: "u\($0)", role: $0 % 2 == 0 ? .admin : .member) }
        var binary: [UInt8] = []
        for member in members { try LengthDelimited.append(member, to: &binary) }
        var rest = binary[...]
        var decoded: [GroupMemberInfo] = []
        while let (member, count) = try LengthDelimited.read(GroupMemberInfo.self, from: rest) {
            decoded.append(member)
            rest = rest.dropFirst(count)
        }
        #expect(decoded == members)
        let chunks = StreamSamples.Chunking.oneByte.cut(binary)
        #expect(try await collectAll(Chunks(chunks).lengthDelimitedMessages(of: GroupMemberInfo.self)) == members)

        let elems: [Elem] = [.text("a"), .face(FaceElem(index: 3)), .text("b")]
        var lines: [UInt8] = []
        for elem in elems { try JSONLines.append(elem, to: &lines) }
        #expect(try JSONLines.read(Elem.self, from: lines)?.message == elems[0])
        #expect(try await collectAll(Chunks(StreamSamples.Chunking.randomWithEmptyChunks.cut(lines)).jsonLinesMessages(of: Elem.self)) == elems)
    }

    // MARK: - Async errors: record index and stream offset

    /// Offsets of each record's prefix in `stream`.
    static func recordOffsets(_ messages: [Message]) throws -> [Int] {
        var offsets: [Int] = []
        var total = 0
        for message in messages {
            offsets.append(total)
            total += try StreamSamples.delimited([message]).count
        }
        return offsets
    }

    @Test(arguments: [StreamSamples.Chunking.whole, .oneByte, .randomWithEmptyChunks])
    func aCorruptBodyReportsItsRecordAndStreamOffset(_ chunking: StreamSamples.Chunking) async throws {
        var messages = StreamSamples.messages(10)
        messages[6] = Message(sender: "placeholder")
        var stream = try StreamSamples.delimited(messages)
        let offsets = try Self.recordOffsets(messages)
        // Record 6's body becomes: field 2 (sender) "ab", then a tag with wire type 7.
        let badBody: [UInt8] = [0x12, 0x02, 0x61, 0x62, 0x1F]
        let original = try StreamSamples.delimited([messages[6]])
        stream.replaceSubrange(offsets[6]..<(offsets[6] + original.count), with: [UInt8(badBody.count)] + badBody)

        let (decoded, error) = await collectUntilError(Chunks(chunking.cut(stream)).lengthDelimitedMessages())
        #expect(decoded == Array(messages[..<6]))
        let imwire = try #require(error as? IMWireError)
        #expect(imwire.code == .invalidWireType)
        #expect(imwire.recordIndex == 6)
        #expect(imwire.offset == offsets[6] + 1 + 4, "the tag's offset in the stream")
        #expect(imwire.description.hasSuffix("(record 6, at byte \(offsets[6] + 5))"), "\(imwire)")
    }

    @Test(arguments: [StreamSamples.Chunking.whole, .oneByte])
    func aPrefixOverTenBytesReportsItsRecord(_ chunking: StreamSamples.Chunking) async throws {
        let messages = StreamSamples.messages(3)
        let stream = try StreamSamples.delimited(messages) + [UInt8](repeating: 0xFF, count: 10) + [0x00, 0x01, 0x02]
        let (decoded, error) = await collectUntilError(Chunks(chunking.cut(stream)).lengthDelimitedMessages())
        #expect(decoded == messages)
        let imwire = try #require(error as? IMWireError)
        #expect(imwire.code == .varintTooLong)
        #expect(imwire.recordIndex == 3)
        #expect(imwire.offset == (try StreamSamples.delimited(messages)).count)
    }

    @Test(arguments: [StreamSamples.Chunking.whole, .oneByte])
    func aTruncatedFinalRecordReportsItsRecord(_ chunking: StreamSamples.Chunking) async throws {
        let messages = StreamSamples.messages(4)
        let full = try StreamSamples.delimited(messages)
        let offsets = try Self.recordOffsets(messages)
        // Cut inside the last body, and inside a two-byte prefix of one more record.
        for stream in [Array(full.dropLast()), full + [0x80]] {
            let (decoded, error) = await collectUntilError(Chunks(chunking.cut(stream)).lengthDelimitedMessages())
            let imwire = try #require(error as? IMWireError)
            #expect(imwire.code == .truncated)
            if stream.count < full.count {
                #expect(decoded == Array(messages.dropLast()))
                #expect(imwire.recordIndex == 3)
                #expect(imwire.offset == offsets[3])
            } else {
                #expect(decoded == messages)
                #expect(imwire.recordIndex == 4)
                #expect(imwire.offset == full.count)
            }
        }
    }

    @Test func aRecordOverTheLimitFailsFromItsPrefixWithoutBeingBuffered() async throws {
        // A record claiming 1 GiB, ten bytes of it present, and a base that would go on forever.
        let prefix: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x04]
        let counter = PullCounter()
        let endless = EndlessChunks(first: prefix + [UInt8](repeating: 0, count: 10), counter: counter)
        let (decoded, error) = await collectUntilError(endless.lengthDelimitedMessages())
        #expect(decoded.isEmpty)
        let imwire = try #require(error as? IMWireError)
        #expect(imwire.code == .inputTooLarge)
        #expect(imwire.recordIndex == 0)
        #expect(imwire.offset == 0)
        #expect(counter.pulls == 1, "only the chunk holding the prefix was read")

        // The same through the framer: it throws as soon as the prefix is complete.
        var framer = DelimitedFramer(maxRecordSize: 1000)
        let good = try StreamSamples.delimited([Message(sender: "a")])
        (good + [0xE9, 0x07] + [UInt8](repeating: 1, count: 10)).withUnsafeBytes { framer.feed($0) }
        #expect(try framer.next(atEnd: false) != nil)
        let framed = try #require(throws: IMWireError.self) { try framer.next(atEnd: false) }
        #expect(framed.code == .inputTooLarge)
        #expect(framed.recordIndex == 1)
        #expect(framed.offset == good.count)
        #expect(framed.reason.contains("1001"))
    }

    @Test func anOverlongLineFailsWithoutBufferingTheRestOfIt() async throws {
        let counter = PullCounter()
        let options = JSONDecodingOptions(maxInputSize: 1000)
        let endless = EndlessChunks(first: Array("{\"sender\":\"a\"}\n{\"sender\":\"".utf8), counter: counter, fill: UInt8(ascii: "x"), size: 100)
        let (decoded, error) = await collectUntilError(endless.jsonLinesMessages(options: options))
        #expect(decoded.map(\.sender) == ["a"])
        let imwire = try #require(error as? IMWireError)
        #expect(imwire.code == .inputTooLarge)
        #expect(imwire.recordIndex == 1)
        #expect(imwire.offset == 15)
        #expect(counter.pulls <= 11, "\(counter.pulls) chunks read")
    }

    @Test func jsonLinesErrorsCountRecordsNotLines() async throws {
        let text = "\n{\"sender\":\"a\"}\r\n\r\n\n{\"sender\":\"b\"}\n  \n{\"sender\":\"c\",\"bogus\":1}\n{\"sender\":\"d\"}\n"
        let bytes = Array(text.utf8)
        let badLine = bytes.count - Array("{\"sender\":\"c\",\"bogus\":1}\n{\"sender\":\"d\"}\n".utf8).count
        for chunking in StreamSamples.Chunking.allCases {
            let (decoded, error) = await collectUntilError(Chunks(chunking.cut(bytes)).jsonLinesMessages())
            #expect(decoded.map(\.sender) == ["a", "b"])
            let imwire = try #require(error as? IMWireError)
            #expect(imwire.code == .unknownField)
            #expect(imwire.recordIndex == 2)
            #expect(imwire.offset == badLine + 14, "\(imwire)")
        }
    }

    @Test func theBaseSequencesErrorsPassThrough() async throws {
        struct Broken: Error, Equatable {}
        let stream = try StreamSamples.delimited(StreamSamples.messages(2))
        let failing = Chunks([stream, [0x02]], failure: Broken())
        let (decoded, error) = await collectUntilError(failing.lengthDelimitedMessages())
        #expect(decoded.count == 2)
        #expect(error as? Broken == Broken())
    }

    @Test func aSequenceEndsAfterAnError() async throws {
        var iterator = Chunks([[0x01, 0x0F], try StreamSamples.delimited([Message(sender: "a")])]).lengthDelimitedMessages().makeAsyncIterator()
        await #expect(throws: IMWireError.matching(.invalidWireType)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    // MARK: - Framers

    /// Whatever the chunking, a framer holds at most one record (with its prefix) and one chunk.
    @Test(arguments: [StreamSamples.Chunking.oneByte, .randomSeeded, .whole])
    func framersHoldAtMostOneRecordAndOneChunk(_ chunking: StreamSamples.Chunking) throws {
        let messages = StreamSamples.messages(60)
        let binary = try StreamSamples.delimited(messages)
        let lines = try StreamSamples.jsonLines(StreamSamples.messages(60, json: true))
        let largest = try messages.map { try $0.serializedBytes().count + 10 }.max()!
        let longestLine = lines.split(separator: 0x0A).map(\.count).max()! + 1
        func drive<F: RecordFramer>(_ framer: inout F, _ bytes: [UInt8], record: Int) throws -> Int {
            var frames = 0
            for chunk in chunking.cut(bytes) {
                chunk.withUnsafeBytes { framer.feed($0) }
                #expect(framer.bytesBuffered <= record + chunk.count)
                while let frame = try framer.next(atEnd: false) {
                    frames += 1
                    #expect(frame.index == frames - 1)
                }
            }
            while try framer.next(atEnd: true) != nil { frames += 1 }
            #expect(framer.bytesFed == bytes.count)
            return frames
        }
        var delimited = DelimitedFramer(maxRecordSize: .max)
        #expect(try drive(&delimited, binary, record: largest) == 60)
        var lineFramer = LineFramer(maxRecordSize: .max)
        #expect(try drive(&lineFramer, lines, record: longestLine) == 60)
    }
}

// MARK: - Async helpers

/// Bytes in a collection without contiguous storage (its `withContiguousStorageIfAvailable` is nil).
struct NonContiguousBytes: Collection, Sendable {
    let bytes: [UInt8]
    var startIndex: Int { 0 }
    var endIndex: Int { bytes.count }
    subscript(position: Int) -> UInt8 { bytes[position] }
    func index(after index: Int) -> Int { index + 1 }
}

/// How many chunks an ``EndlessChunks`` handed out.
final class PullCounter: @unchecked Sendable {
    var pulls = 0
}

/// `first`, then chunks of `size` bytes of `fill`, forever.
struct EndlessChunks: AsyncSequence, Sendable {
    let first: [UInt8]
    let counter: PullCounter
    var fill: UInt8 = 0
    var size = 64 * 1024

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: EndlessChunks
        mutating func next() async -> [UInt8]? {
            sequence.counter.pulls += 1
            return sequence.counter.pulls == 1 ? sequence.first : [UInt8](repeating: sequence.fill, count: sequence.size)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
}

/// The messages before the first error, and that error.
func collectUntilError<S: AsyncSequence>(_ sequence: S) async -> ([Message], (any Error)?) where S.Element == Message {
    var messages: [Message] = []
    do {
        for try await message in sequence { messages.append(message) }
        return (messages, nil)
    } catch {
        return (messages, error)
    }
}
