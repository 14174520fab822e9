// The one-pass tim-rest reader is held to the tape decoder: on every input, it returns the message the
// tape decoder returns, or nothing when the tape decoder refuses the input (which then decodes it and
// gives the error); and on what IMWire writes, in its own key order, pretty-printed or with every
// object's keys shuffled, it returns the message, so that the speed it is there for is not lost to the
// fallback without a test noticing.
//
// Iteration counts: each test's default below, or IMWIRE_PROPERTY_ITERATIONS for all of them.

import Foundation
import IMWire
import IMWireTIMREST
import IMWireTestSupport
import PropertyBased
import Testing

@Suite("tim-rest one-pass reader")
struct TIMRESTReaderTests {
    /// The reader's answer and the tape decoder's on `text`, as encodings (nil: refused).
    static func both(_ text: [UInt8], options: TIMRESTDecodingOptions = .init()) -> (reader: [UInt8]?, tape: [UInt8]?) {
        text.withUnsafeBufferPointer { buffer in
            let reader = TIMRESTReader.read(buffer, options: options)
            let tape = try? TIMRESTDecoder.decodeFromTape(buffer, options: options, skips: nil)
            return (try? reader?.serializedBytes(), try? tape?.serializedBytes())
        }
    }

    /// How many relays (mergers) nest in `message` at most.
    static func relayDepth(_ message: Message) -> Int {
        var depth = 0
        for elem in message.elems {
            guard case .merger(let merger)? = elem.content else { continue }
            depth = max(depth, 1 + (merger.messages.map(relayDepth).max() ?? 0))
        }
        return depth
    }

    @Test func readsWhatIMWireWritesInAnyKeyOrder() async {
        let input = IMWireGen.model(MessageGenerationOptions.full.withoutUnknownFields()) { generator -> (Message, UInt64) in
            (TIMRESTRepresentable.project(generator.message()), generator.rng.next())
        }
        await propertyCheck(count: PropertyIterations.count(default: 250), input: input) { message, seed in
            guard let canonical = try? message.timRESTUTF8Bytes() else {
                Issue.record("a representable message does not encode")
                return
            }
            let pretty = (try? message.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(prettyPrinted: true))) ?? []
            var rng = SplitMix(seed: seed)
            let shuffled = JSONShuffle.shuffled(canonical, using: &rng)
            let expected = try? message.serializedBytes()
            for (name, text) in [("canonical", canonical), ("pretty", pretty), ("shuffled", shuffled)] {
                let (reader, tape) = Self.both(text)
                // Shuffled, a content may come before its MsgType at every relay level: deeper than the
                // reader re-reads, it is the tape decoder's.
                let deep = name == "shuffled" && Self.relayDepth(message) >= TIMRESTReader.maxDeferrals
                #expect(reader != nil || deep, "the reader left \(name) text to the tape decoder: \(String(decoding: text, as: UTF8.self))")
                #expect(tape == expected, "\(name): the tape decoder does not read the message written")
                if reader != nil || !deep {
                    #expect(reader == tape, "\(name): the reader and the tape decoder disagree")
                    #expect(reader == expected, "\(name): not the message written")
                }
            }
        }
    }

    @Test func agreesWithTheTapeDecoderOnDamagedText() async {
        let input = IMWireGen.model(.small) { generator -> ([UInt8], Int, UInt8, UInt64) in
            let message = TIMRESTRepresentable.project(generator.message())
            let rest = (try? message.timRESTUTF8Bytes()) ?? []
            let position = rest.isEmpty ? 0 : generator.rng.int(0...rest.count - 1)
            let byte: UInt8 = generator.rng.pick([0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x30, 0x2D, 0x6E, 0x31, 0xFF, 0x00])
            return (rest, position, byte, generator.rng.next())
        }
        await propertyCheck(count: PropertyIterations.count(default: 400), input: input) { rest, position, byte, seed in
            guard !rest.isEmpty else { return }
            var replaced = rest
            replaced[position] = byte
            var rng = SplitMix(seed: seed)
            let shuffled = JSONShuffle.shuffled(replaced, using: &rng)
            for damaged in [Array(rest[..<position]), replaced, Array(rest[..<position] + rest[(position + 1)...]), shuffled] {
                let (reader, tape) = Self.both(damaged)
                if reader != nil {
                    #expect(reader == tape, "the reader accepts what the tape decoder reads otherwise: \(String(decoding: damaged, as: UTF8.self))")
                }
            }
        }
    }

    /// Every kept fuzz input (valid and not), and every tim-rest conformance fixture: where the
    /// reader answers, the tape decoder answers the same.
    @Test func agreesWithTheTapeDecoderOnTheKeptCorpus() throws {
        let folders = ["fuzz-corpus/tim-rest", "fuzz-regressions/tim-rest"]
        var answered = 0, inputs = 0
        for folder in folders {
            let directory = Fixtures.directory.appendingPathComponent(folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names.sorted() {
                let text = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
                inputs += 1
                for options in [TIMRESTDecodingOptions(), TIMRESTDecodingOptions(maxDepth: 4)] {
                    let (reader, tape) = Self.both(text, options: options)
                    if reader != nil {
                        answered += 1
                        #expect(reader == tape, "\(folder)/\(name) (maxDepth \(options.maxDepth))")
                    }
                }
            }
        }
        #expect(inputs > 500, "the kept corpus has \(inputs) inputs")
        #expect(answered > 100, "the reader answered on \(answered) inputs only")
    }

    /// Content before `MsgType`, nested deeper than the reader re-reads, is left to the tape decoder,
    /// which reads it: the message is the same, and each level is read a bounded number of times.
    @Test func deeplyDeferredContentsAreLeftToTheTapeDecoder() throws {
        var message = Message()
        var innermost = TextElem()
        innermost.text = "innermost"
        message.elems = [.text(innermost)]
        for level in 0..<(TIMRESTReader.maxDeferrals + 2) {
            var merger = MergerElem()
            merger.title = "level \(level)"
            merger.messages = [message]
            message = Message()
            message.elems = [.merger(merger)]
        }
        let canonical = try message.timRESTUTF8Bytes()
        // Every MsgContent before its MsgType: the tape decoder reads the message.
        let reordered = JSONShuffle.contentsFirst(canonical)
        let (readerAgain, tapeAgain) = Self.both(reordered)
        #expect(readerAgain == nil, "more deferred levels than the reader re-reads")
        #expect(try tapeAgain == message.serializedBytes())
        // Fewer are within them.
        var shallow = Message()
        var inner = TextElem()
        inner.text = "inner"
        shallow.elems = [.text(inner)]
        for _ in 0..<(TIMRESTReader.maxDeferrals - 1) {
            var merger = MergerElem()
            merger.messages = [shallow]
            shallow = Message()
            shallow.elems = [.merger(merger)]
        }
        let (readerShallow, tapeShallow) = Self.both(JSONShuffle.contentsFirst(try shallow.timRESTUTF8Bytes()))
        #expect(readerShallow != nil)
        #expect(try readerShallow == shallow.serializedBytes())
        #expect(readerShallow == tapeShallow)
    }

    /// Auditing decodes (a report, strict keys) go to the tape decoder, and errors are the tape
    /// decoder's, with their offsets.
    @Test func errorsAndReportsAreTheTapeDecoders() throws {
        let text = Array(#"{"MsgBody":[{"MsgContent":{"Text":"hi"},"MsgType":"TIMTextElem","Extra":1}],"From_Account":7}"#.utf8)
        #expect(throws: IMWireError.self) { try Message(timRESTUTF8Bytes: text) }
        do {
            _ = try Message(timRESTUTF8Bytes: text)
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.path == "From_Account")
        }
        let fine = Array(#"{"MsgBody":[{"MsgContent":{"Text":"hi"},"MsgType":"TIMTextElem","Extra":1}],"From_Account":"a"}"#.utf8)
        var report = DecodingReport()
        let message = try Message(timRESTUTF8Bytes: fine, report: &report)
        #expect(message.sender == "a")
        #expect(report.skippedKeys.map(\.path) == ["MsgBody[0].Extra"])
        #expect(throws: IMWireError.self) {
            try Message(timRESTUTF8Bytes: fine, options: TIMRESTDecodingOptions(rejectsUnknownKeys: true))
        }
    }
}

/// A small deterministic generator for the shuffles.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Reorders the members of every object of a JSON text, leaving values byte for byte. Text that is
/// not JSON comes back as it went in.
enum JSONShuffle {
    static func shuffled(_ text: [UInt8], using rng: inout SplitMix) -> [UInt8] {
        var order = Order(rng: rng)
        defer { rng = order.rng ?? rng }
        return rewrite(text, &order)
    }

    /// Every element's `MsgContent` before its `MsgType`, every envelope's keys after `MsgBody`.
    static func contentsFirst(_ text: [UInt8]) -> [UInt8] {
        var order = Order(rng: nil)
        return rewrite(text, &order)
    }

    /// How members are put in order: shuffled, or (without a generator) reversed.
    struct Order {
        var rng: SplitMix?

        mutating func apply(_ members: inout [[UInt8]]) {
            guard var generator = rng else {
                members.reverse()
                return
            }
            for index in stride(from: members.count - 1, to: 0, by: -1) {
                members.swapAt(index, Int(generator.next() % UInt64(index + 1)))
            }
            rng = generator
        }
    }

    static func rewrite(_ text: [UInt8], _ order: inout Order) -> [UInt8] {
        var position = 0
        guard let value = try? value(text, &position, &order) else { return text }
        return value
    }

    struct NotJSON: Error {}

    static func value(_ text: [UInt8], _ position: inout Int, _ order: inout Order) throws -> [UInt8] {
        skipSpace(text, &position)
        guard position < text.count else { throw NotJSON() }
        switch text[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [[UInt8]] = []
            skipSpace(text, &position)
            if position < text.count, text[position] == UInt8(ascii: "}") {
                position += 1
                return Array("{}".utf8)
            }
            while true {
                skipSpace(text, &position)
                var member = try string(text, &position)
                skipSpace(text, &position)
                guard position < text.count, text[position] == UInt8(ascii: ":") else { throw NotJSON() }
                position += 1
                member.append(UInt8(ascii: ":"))
                member += try value(text, &position, &order)
                members.append(member)
                skipSpace(text, &position)
                guard position < text.count else { throw NotJSON() }
                position += 1
                if text[position - 1] == UInt8(ascii: "}") { break }
                guard text[position - 1] == UInt8(ascii: ",") else { throw NotJSON() }
            }
            order.apply(&members)
            return [UInt8(ascii: "{")] + Array(members.joined(separator: [UInt8(ascii: ",")])) + [UInt8(ascii: "}")]
        case UInt8(ascii: "["):
            position += 1
            var elements: [[UInt8]] = []
            skipSpace(text, &position)
            if position < text.count, text[position] == UInt8(ascii: "]") {
                position += 1
                return Array("[]".utf8)
            }
            while true {
                elements.append(try value(text, &position, &order))
                skipSpace(text, &position)
                guard position < text.count else { throw NotJSON() }
                position += 1
                if text[position - 1] == UInt8(ascii: "]") { break }
                guard text[position - 1] == UInt8(ascii: ",") else { throw NotJSON() }
            }
            return [UInt8(ascii: "[")] + Array(elements.joined(separator: [UInt8(ascii: ",")])) + [UInt8(ascii: "]")]
        case UInt8(ascii: "\""):
            return try string(text, &position)
        default:
            let start = position
            while position < text.count, !",]} \n\r\t".utf8.contains(text[position]) { position += 1 }
            guard position > start else { throw NotJSON() }
            return Array(text[start..<position])
        }
    }

    static func string(_ text: [UInt8], _ position: inout Int) throws -> [UInt8] {
        guard position < text.count, text[position] == UInt8(ascii: "\"") else { throw NotJSON() }
        let start = position
        position += 1
        while position < text.count, text[position] != UInt8(ascii: "\"") {
            position += text[position] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard position < text.count else { throw NotJSON() }
        position += 1
        return Array(text[start..<position])
    }

    static func skipSpace(_ text: [UInt8], _ position: inout Int) {
        while position < text.count, " \n\r\t".utf8.contains(text[position]) { position += 1 }
    }
}
