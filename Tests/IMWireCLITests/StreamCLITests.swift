import Foundation
import IMWire
import IMWireTestSupport
import IMWireCLI
import Synchronization
import Testing

/// `imwire convert --stream`: length-delimited binary and NDJSON, record by record.
@Suite struct StreamCLITests {
    /// Runs the CLI on `stdin`, read in chunks of `chunkSize` bytes.
    static func run(_ arguments: [String], stdin: [UInt8], chunkSize: Int = 64 * 1024, live: CLILiveOutput? = nil) -> CLI.Result {
        var input = CLIInput(
            readStandardInput: { limit in Array(stdin.prefix(limit)) },
            readFile: { path, _ in throw CLITests.CLIInputError.missing(path) },
            live: live)
        input.openChunks = { path in
            guard path == nil || path == "-" else { throw CLITests.CLIInputError.missing(path!) }
            return CLIBytesReader(stdin, chunkSize: chunkSize)
        }
        return CLI.run(arguments: arguments, io: input)
    }

    static let toJSON = ["convert", "--stream", "--from", "binary", "--to", "json"]
    static let toBinary = ["convert", "--stream", "--from", "json", "--to", "binary"]

    @Test(arguments: [64 * 1024, 1, 7])
    func binaryToJSONToBinaryGivesBackTheInputBytes(_ chunkSize: Int) throws {
        let messages = StreamSamples.messages(200, json: true)
        let binary = try StreamSamples.delimited(messages)
        let json = Self.run(Self.toJSON, stdin: binary, chunkSize: chunkSize)
        #expect(json.status == 0)
        #expect(json.stdout == (try StreamSamples.jsonLines(messages)))
        #expect(json.stderr == "converted 200 records (0 bad)\n")
        let back = Self.run(Self.toBinary, stdin: json.stdout, chunkSize: chunkSize)
        #expect(back.status == 0)
        #expect(back.stdout == binary)
        #expect(back.stderr == "converted 200 records (0 bad)\n")
    }

    @Test func binaryToBinaryCanonicalisesEachRecordAndKeepsUnknownFields() throws {
        let messages = StreamSamples.messages(50)
        let binary = try StreamSamples.delimited(messages)
        let result = Self.run(["convert", "--stream", "--from", "binary", "--to", "binary"], stdin: binary, chunkSize: 3)
        #expect(result.status == 0)
        #expect(result.stdout == binary)
    }

    @Test func jsonLinesInputMayHaveBlankLinesCRLFAndNoFinalNewline() {
        let input = Array("\n{\"sender\":\"a\"}\r\n\r\n  {\"sender\" : \"b\"}\n{\"sender\":\"c\"}".utf8)
        let result = Self.run(["convert", "--stream", "--from", "json", "--to", "json"], stdin: input, chunkSize: 2)
        #expect(result.status == 0)
        #expect(result.stdout == Array("{\"sender\":\"a\"}\n{\"sender\":\"b\"}\n{\"sender\":\"c\"}\n".utf8))
        #expect(result.stderr == "converted 3 records (0 bad)\n")
    }

    @Test func timRESTLines() throws {
        let messages = [Message(sender: "a", target: .receiver("b"), elems: [.text("x")]), Message(target: .groupID("g"), elems: [.text("y")])]
        let binary = try StreamSamples.delimited(messages)
        let rest = Self.run(["convert", "--stream", "--from", "binary", "--to", "tim-rest"], stdin: binary)
        #expect(rest.status == 0)
        var expected: [UInt8] = []
        for message in messages { expected += try message.timRESTUTF8Bytes() + [0x0A] }
        #expect(rest.stdout == expected)
        let back = Self.run(["convert", "--stream", "--from", "tim-rest", "--to", "binary"], stdin: rest.stdout)
        #expect(back.status == 0)
        #expect(back.stdout == binary)
    }

    /// A stream whose records 1 and 3 have bodies that do not decode, and the offsets of each record.
    static func streamWithBadRecords() throws -> (bytes: [UInt8], offsets: [Int], good: [Message]) {
        let good = (0..<5).map { Message(msgID: "m\($0)", elems: [.text("t\($0)")]) }
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        for (index, message) in good.enumerated() {
            offsets.append(bytes.count)
            if index == 1 || index == 3 {
                bytes += [0x03, 0x0A, 0x01, 0xFF]  // msg_id holding the byte 0xFF: not UTF-8
            } else {
                try LengthDelimited.append(message, to: &bytes)
            }
        }
        return (bytes, offsets, [good[0], good[2], good[4]])
    }

    @Test func continueOnErrorReportsEachBadRecordAndExitsNonZero() throws {
        let (bytes, offsets, good) = try Self.streamWithBadRecords()
        let result = Self.run(Self.toJSON + ["--continue-on-error"], stdin: bytes, chunkSize: 5)
        #expect(result.status == 1)
        #expect(result.stdout == (try StreamSamples.jsonLines(good)))
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines[0].hasPrefix("error: record 1: invalid_utf8: "))
        #expect(lines[0].hasSuffix("(at byte \(offsets[1] + 3))"))
        #expect(lines[1].hasPrefix("error: record 3: invalid_utf8: "))
        #expect(lines[1].hasSuffix("(at byte \(offsets[3] + 3))"))
        #expect(lines[2] == "converted 3 records (2 bad)")
    }

    @Test func withoutContinueOnErrorTheFirstBadRecordStopsAfterTheRecordsBeforeIt() throws {
        let (bytes, offsets, good) = try Self.streamWithBadRecords()
        let result = Self.run(Self.toJSON, stdin: bytes)
        #expect(result.status == 1)
        #expect(result.stdout == (try StreamSamples.jsonLines([good[0]])))
        #expect(result.stderr.hasPrefix("error: record 1: invalid_utf8: "))
        #expect(result.stderr.hasSuffix("(at byte \(offsets[1] + 3))\nconverted 1 record (1 bad)\n"), "\(result.stderr)")
    }

    @Test(arguments: [
        // A truncated last record: it starts at 6 (after a 6-byte record).
        ([0x05, 0x0A, 0x01, 0x61, 0x12, 0x00, 0x05, 0x0A], "error: record 1: truncated: ", 6),
        // A prefix over ten bytes.
        ([0x05, 0x0A, 0x01, 0x61, 0x12, 0x00] + [UInt8](repeating: 0x80, count: 10) + [0x01], "error: record 1: varint_too_long: ", 6),
        // A record over --max-input-size (100 here): refused from its prefix.
        ([0x05, 0x0A, 0x01, 0x61, 0x12, 0x00, 0x65, 0x00], "error: record 1: input_too_large: ", 6),
    ] as [([UInt8], String, Int)])
    func aBrokenFrameStopsEvenWithContinueOnError(_ bytes: [UInt8], _ prefix: String, _ offset: Int) {
        let result = Self.run(Self.toJSON + ["--continue-on-error", "--max-input-size", "100"], stdin: bytes, chunkSize: 1)
        #expect(result.status == 1)
        #expect(result.stdout == Array("{\"msgId\":\"a\"}\n".utf8))
        #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("(at byte \(offset))\nconverted 1 record (1 bad)\n"), "\(result.stderr)")
    }

    @Test func anOverlongLineStops() {
        let input = Array(("{\"sender\":\"a\"}\n{\"sender\":\"" + String(repeating: "x", count: 300) + "\"}\n").utf8)
        let result = Self.run(Self.toBinary + ["--max-input-size", "100"], stdin: input, chunkSize: 16)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: record 1: input_too_large: "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("(at byte 15)\nconverted 1 record (1 bad)\n"))
    }

    @Test func aProfileViolationIsABadRecord() throws {
        let messages = [Message(elems: [.text("ok")]), Message(elems: [.text(String(repeating: "x", count: 13_000))]), Message(elems: [.text("ok")])]
        let result = Self.run(Self.toJSON + ["--profile", "tencent", "--continue-on-error"], stdin: try StreamSamples.delimited(messages))
        #expect(result.status == 1)
        #expect(result.stdout == (try StreamSamples.jsonLines([messages[0], messages[2]])))
        #expect(result.stderr.hasPrefix("error: record 1: "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("converted 2 records (1 bad)\n"))
    }

    @Test(arguments: [
        ["convert", "--from", "binary", "--to", "json", "--continue-on-error"],
        ["convert", "--stream", "--from", "binary", "--to", "json", "--pretty"],
    ])
    func usageErrors(_ arguments: [String]) {
        let result = Self.run(arguments, stdin: [])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
    }

    /// With live output (the real process), output goes out in pieces of about 64 KiB as the input is
    /// read, never all at the end; standard error that is not a terminal gets no progress line.
    @Test func liveOutputIsWrittenInPiecesAsTheInputIsRead() throws {
        let writes = Mutex<[Int]>([])
        let errors = Mutex<String>("")
        let live = CLILiveOutput(
            writeStandardOutput: { bytes in writes.withLock { $0.append(bytes.count) } },
            writeStandardError: { text in errors.withLock { $0 += text } },
            standardErrorIsTerminal: false)
        let messages = StreamSamples.messages(3000, json: true)
        let binary = try StreamSamples.delimited(messages)
        let expectedSize = try StreamSamples.jsonLines(messages).count
        #expect(expectedSize > 1_000_000)
        let result = Self.run(Self.toJSON, stdin: binary, live: live)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty, "written live, not collected")
        let sizes = writes.withLock { $0 }
        #expect(sizes.reduce(0, +) == expectedSize)
        #expect(sizes.count > expectedSize / (128 * 1024))
        #expect(sizes.dropLast().allSatisfy { $0 >= 64 * 1024 && $0 < 128 * 1024 }, "\(sizes)")
        #expect(errors.withLock { $0 } == "converted 3000 records (0 bad)\n")
    }

    /// On a terminal, a progress line is drawn (here: the reader pauses 300 ms between chunks, more
    /// than the 250 ms between redraws) and cleared before the summary.
    @Test func aTerminalGetsAProgressLine() throws {
        let errors = Mutex<String>("")
        let live = CLILiveOutput(
            writeStandardOutput: { _ in },
            writeStandardError: { text in errors.withLock { $0 += text } },
            standardErrorIsTerminal: true)
        let binary = try StreamSamples.delimited(StreamSamples.messages(40))
        var input = CLIInput(readStandardInput: { _ in [] }, readFile: { _, _ in [] }, live: live)
        input.openChunks = { _ in SlowReader(binary, chunks: 3) }
        let result = CLI.run(arguments: Self.toJSON, io: input)
        #expect(result.status == 0)
        let text = errors.withLock { $0 }
        #expect(text.hasPrefix("\r"), "\(text.debugDescription)")
        #expect(text.contains(" records (0 bad), "))
        #expect(text.contains(" MB/s"))
        #expect(text.hasSuffix("\r\u{1B}[Kconverted 40 records (0 bad)\n"), "\(text.debugDescription)")
    }
}

/// Serves `bytes` in `chunks` pieces, sleeping 300 ms before each.
final class SlowReader: CLIChunkReader {
    private let reader: CLIBytesReader

    init(_ bytes: [UInt8], chunks: Int) {
        reader = CLIBytesReader(bytes, chunkSize: (bytes.count + chunks - 1) / chunks)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        Thread.sleep(forTimeInterval: 0.3)
        return try reader.read(into: buffer)
    }
}
