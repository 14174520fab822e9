import IMWire
import IMWireTestSupport
import Testing

/// A part of a decoded message kept on its own keeps only itself alive: a decoded value holds its
/// fields, not the input it was read from nor the rest of the message. Measured as the heap in use
/// while 400 parts of 400 messages are kept, each message carrying a 64 KiB text besides the part:
/// kept with it, that text would be 64 KiB a part. The heap is the process's, and other suites run
/// at the same time, so a part may be charged some of their allocations: the bound (16 KiB a part)
/// leaves room for that and is a quarter of what a kept text would cost, and a measurement over it is
/// made again, up to five times, as the linear-time tests do.
@Suite(.serialized) struct RetentionTests {
    static let count = 400
    static let bulk = String(repeating: "x", count: 64 * 1024)
    static let bound = 16 * 1024

    /// The heap held per kept value while the values `keep` makes from the decoded messages are alive
    /// (the lowest of up to five attempts, measured again only while over `bound`).
    static func bytesKept<Part>(_ inputs: [[UInt8]], _ keep: (Message) -> Part) throws -> Int {
        var lowest = Int.max
        for _ in 0..<5 where lowest >= bound {
            var kept: [Part] = []
            kept.reserveCapacity(inputs.count)
            let before = try #require(heapInUse())
            for input in inputs { kept.append(keep(try Message(serializedBytes: input))) }
            let after = try #require(heapInUse())
            withExtendedLifetime(kept) {}
            lowest = min(lowest, (after - before) / inputs.count)
        }
        return lowest
    }

    @Test func keepingTheFirstElemKeepsNeitherTheInputNorTheOtherElems() throws {
        let inputs = try (0..<Self.count).map { index in
            try Message(msgID: "m\(index)", sender: "alice", target: .groupID("g"),
                        elems: [.text("short text number \(index)"), .text(Self.bulk)]).serializedBytes()
        }
        let perElem = try Self.bytesKept(inputs) { $0.elems[0] }
        // The elem (32 B in the array) and its text's storage (about 48 B): nowhere near the 64 KiB beside it.
        #expect(perElem < Self.bound, "one kept elem holds \(perElem) B")
        let perText = try Self.bytesKept(inputs) { message -> TextElem? in
            if case .text(let text)? = message.elems[0].content { return text }
            return nil
        }
        #expect(perText < Self.bound, "one kept text holds \(perText) B")
    }

    @Test func keepingOneMessageOfAMergerKeepsOnlyThatMessage() throws {
        let inputs = try (0..<Self.count).map { index in
            let small = Message(msgID: "inner \(index)", sender: "bob", elems: [.text("hi")])
            let large = Message(msgID: "inner large", sender: "bob", elems: [.text(Self.bulk)])
            return try Message(sender: "alice", elems: [.merger(MergerElem(title: "t", messages: [small, large]))])
                .serializedBytes()
        }
        let perMessage = try Self.bytesKept(inputs) { message -> Message? in
            if case .merger(let merger)? = message.elems[0].content { return merger.messages[0] }
            return nil
        }
        // The message inline (its cold fields out of line, not allocated) and its elems array.
        #expect(perMessage < Self.bound, "one kept merged message holds \(perMessage) B")
    }

    @Test func keepingTheEnvelopeStringsKeepsOnlyThem() throws {
        let inputs = try (0..<Self.count).map { index in
            try Message(msgID: "144115233002212345-1700000000-\(index)", sender: "alice", target: .groupID("g"),
                        elems: [.text(Self.bulk)]).serializedBytes()
        }
        let perID = try Self.bytesKept(inputs) { $0.msgID }
        #expect(perID < Self.bound, "one kept msg id holds \(perID) B")
    }
}
