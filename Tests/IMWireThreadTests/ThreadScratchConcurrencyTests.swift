// The per-thread scratch buffers (`Scratch.words`: a message view's words; `Scratch.bytes`: the
// binary writer's bytes and a JSON view's unescaped text) under concurrent use: many tasks viewing,
// decoding and encoding messages that fit the buffers, outgrow them, and outgrow what a thread keeps;
// views nested on one thread; threads that exit (the key's destructor frees their buffers) while
// others work; and the model's copy-on-write storage (`@unchecked Sendable` boxes with
// `@exclusivity(unchecked)` fields) shared across tasks. Every test checks its results; CI also runs
// them under ThreadSanitizer (`swift test --sanitize=thread`), where a data race fails the run even
// when every result is right.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IMWire
import IMWireTestSupport
import Testing

@Suite("Concurrency of the thread buffers")
struct ThreadScratchConcurrencyTests {
    // MARK: Samples

    /// A message with its encodings, computed once: what every use on every thread must give back.
    struct Sample: Sendable {
        let name: String
        let message: Message
        let binary: [UInt8]
        let json: [UInt8]
        /// `json` decoded: the value a JSON view must copy out (`message` itself for the hand-built
        /// samples, whose every value JSON carries exactly).
        let fromJSON: Message

        init(_ name: String, _ message: Message) {
            self.name = name
            self.message = message
            // Cannot throw: the samples nest far less deep than the encoders' limit.
            binary = try! message.serializedBytes()
            json = try! message.jsonUTF8Bytes()
            fromJSON = try! Message(jsonUTF8Bytes: json)
        }
    }

    /// A chat message: a few hundred bytes, within both buffers' initial capacity. Its JSON has
    /// escapes and bytes, so a JSON view of it takes `Scratch.bytes` too.
    static let small = Sample("small", chat(1))

    /// About 5 KB and 800 view words: both buffers grow past their initial capacity (4096 bytes,
    /// 512 words) and are kept for the thread's next use. (Forwarded messages are 18 words each,
    /// however empty.)
    static let medium = Sample("medium", {
        var message = chat(2)
        for index in 0..<24 {
            message.elems.append(.text("line \(index): \"quoted\"\n\t中文 😀 " + String(repeating: "abcdefgh", count: 20)))
        }
        let forwarded = (0..<32).map { Message(msgID: $0 % 8 == 0 ? "f\($0)" : "") }
        message.elems.append(.merger(MergerElem(title: "history", abstractList: ["a: hi", "b: \"yo\""], messages: forwarded)))
        return message
    }())

    /// Past what a thread keeps of either buffer (1 MiB of bytes, 2^17 words): a text of over
    /// 1 MiB (so the binary writer's buffer and the JSON view's copy grow past it), and a merger of
    /// 8,000 forwarded messages, 18 view words each. The buffers are freed after each use, not kept.
    /// (A string, not a bytes field: copying a 1 MiB `BytesView` out with `Array(_:)` takes most of
    /// a second in a debug build.)
    static let large = Sample("large", {
        var message = chat(5)
        message.elems.append(.text("a \"long\" text: " + String(repeating: "0123456789abcdef", count: (1 << 16) + 4096)))
        let forwarded = (0..<8_000).map { Message(msgID: $0 % 1000 == 0 ? "f\($0)" : "") }
        message.elems.append(.merger(MergerElem(title: "archive", messages: forwarded)))
        return message
    }())

    /// A random message of every field (unknown fields and NaN payloads aside, which JSON does
    /// not carry), from the property tests' generator with a fixed seed.
    static let generated: Sample = {
        var generator = ModelGenerator(seed: 0x5C7A_7C40, options: MessageGenerationOptions.full.jsonExact())
        return Sample("generated", generator.message())
    }()

    /// A chat message numbered `number`: escapes in its strings, bytes, a merger, cold fields.
    static func chat(_ number: Int) -> Message {
        Message(
            msgID: "m-\(number)", sender: "alice_\(number)", target: .groupID("g\"\(number)\""),
            timestampMs: 1_700_000_000_000 &+ UInt64(number), seq: UInt64(number), random: 0xFFFF_FFFF, priority: .high,
            elems: [
                .text("hi \"bob\"\nhow are you? 😀 \\ \(number)"),
                .custom(CustomElem(data: [0, 1, 2, 0xFF, UInt8(number & 0xFF)], desc: "tab\there", ext: "{\"k\":1}")),
                .image(ImageElem(format: .png, images: [Image(type: .origin, uuid: "u-\(number)", size: 1024, width: 64, height: 48, url: "https://x/y?a=1&b=\"2\"")])),
            ],
            atUserList: ["bob", "__kImSDK_MesssageAtALL__"], cloudCustomData: [0xFF, 0x00, 0x80, UInt8(number & 0xFF)],
            offlinePushInfo: OfflinePushInfo(title: "t\u{1}t", desc: "new message", ext: "é"), needReadReceipt: true, topicID: "topic/\(number)"
        )
    }

    // MARK: One round of every use of the buffers

    /// What a round of uses found: how many checks ran, and the ones that failed.
    struct Outcome: Sendable {
        var checks = 0
        var mismatches: [String] = []

        mutating func check(_ passed: Bool, _ what: @autoclosure () -> String) {
            checks += 1
            if !passed { mismatches.append(what()) }
        }

        static func + (lhs: Outcome, rhs: Outcome) -> Outcome {
            Outcome(checks: lhs.checks + rhs.checks, mismatches: lhs.mismatches + rhs.mismatches)
        }
    }

    /// The checks ``exercise(_:_:)`` makes per sample.
    static let checksPerExercise = 10

    /// Every use of the thread's buffers on `sample`, each result compared with the one computed up
    /// front: decode; binary view, every field read (`Message(view)`), a field read again after
    /// the copy; JSON view (its escapes and base64 copied into `Scratch.bytes`); binary encoding
    /// (`Scratch.bytes`) and JSON encoding.
    static func exercise(_ sample: Sample, _ label: String) -> Outcome {
        var outcome = Outcome()
        let at = "\(sample.name) (\(label))"
        do {
            let decoded = try Message(serializedBytes: sample.binary)
            outcome.check(decoded == sample.message, "\(at): the decoded message differs")
            let (viewed, senderBefore, senderAfter, elemCount) = try Message.withView(serializedBytes: sample.binary) { view in
                let senderBefore = String(view.sender)
                let copy = Message(view)
                return (copy, senderBefore, String(view.sender), view.elems.count)
            }
            outcome.check(viewed == decoded, "\(at): the binary view differs from the decoded message")
            outcome.check(senderBefore == sample.message.sender && senderAfter == senderBefore, "\(at): the view's sender changed while it was read")
            outcome.check(elemCount == sample.message.elems.count, "\(at): the binary view has \(elemCount) elems")
            let (fromJSONView, msgIDAfter) = try Message.withView(jsonUTF8Bytes: sample.json) { view in
                (Message(view), String(view.msgID))
            }
            outcome.check(fromJSONView == sample.fromJSON, "\(at): the JSON view differs from the decoded JSON")
            outcome.check(msgIDAfter == sample.fromJSON.msgID, "\(at): the JSON view's msgID changed while it was read")
            outcome.check(try Message(jsonUTF8Bytes: sample.json) == sample.fromJSON, "\(at): the decoded JSON differs")
            outcome.check(try decoded.serializedBytes() == sample.binary, "\(at): the binary encoding differs")
            outcome.check(try decoded.serializedSize() == sample.binary.count, "\(at): the binary size differs")
            outcome.check(try decoded.jsonUTF8Bytes() == sample.json, "\(at): the JSON encoding differs")
        } catch {
            outcome.mismatches.append("\(at): threw \(error)")
        }
        return outcome
    }

    /// The capacity of the buffer the calling thread keeps in `scratch`: the initial capacity when
    /// it keeps none (taking one then allocates it, and giving it back keeps it).
    static func keptCapacity<Element: BitwiseCopyable>(_ scratch: ThreadScratch<Element>) -> Int {
        let (buffer, capacity) = scratch.take()
        scratch.giveBack(buffer, capacity: capacity)
        return capacity
    }

    // MARK: The samples reach every path

    /// Synchronous, so that every step runs on one thread and reads that thread's buffers: the
    /// medium sample grows each buffer and the thread keeps it; the large one grows each past
    /// what a thread keeps and it is freed, so the next use starts from a new initial buffer.
    @Test func theSamplesGrowTheBuffersAndOutgrowWhatAThreadKeeps() throws {
        #expect(Self.small.json.contains(UInt8(ascii: "\\")) && !Self.small.message.cloudCustomData.isEmpty)
        #expect(Self.large.binary.count > Scratch.bytes.keptCapacity && Self.large.json.count > Scratch.bytes.keptCapacity)
        for sample in [Self.small, Self.medium, Self.large] {
            #expect(sample.fromJSON == sample.message, "\(sample.name): JSON does not carry the message exactly")
        }

        _ = try Message.withView(serializedBytes: Self.large.binary) { $0.elems.count }
        _ = try Self.large.message.serializedBytes()
        let initialWords = Self.keptCapacity(Scratch.words)
        let initialBytes = Self.keptCapacity(Scratch.bytes)

        _ = try Message.withView(serializedBytes: Self.medium.binary) { $0.elems.count }
        let mediumWords = Self.keptCapacity(Scratch.words)
        #expect(mediumWords > initialWords && mediumWords <= Scratch.words.keptCapacity, "medium view: \(mediumWords) words kept")
        _ = try Message.withView(serializedBytes: Self.large.binary) { $0.elems.count }
        #expect(Self.keptCapacity(Scratch.words) == initialWords, "the large view's words were kept")

        _ = try Self.medium.message.serializedBytes()
        let mediumBytes = Self.keptCapacity(Scratch.bytes)
        #expect(mediumBytes > initialBytes && mediumBytes <= Scratch.bytes.keptCapacity, "medium encoding: \(mediumBytes) bytes kept")
        _ = try Self.large.message.serializedBytes()
        #expect(Self.keptCapacity(Scratch.bytes) == initialBytes, "the large encoding's bytes were kept")

        // The JSON view takes the bytes for the first escape or base64 value and grows them to the
        // input's size.
        _ = try Message.withView(jsonUTF8Bytes: Self.medium.json) { $0.elems.count }
        #expect(Self.keptCapacity(Scratch.bytes) >= Self.medium.json.count, "the medium JSON view did not take the bytes")
        _ = try Message.withView(jsonUTF8Bytes: Self.large.json) { $0.elems.count }
        #expect(Self.keptCapacity(Scratch.bytes) == initialBytes, "the large JSON view's bytes were kept")
        #expect(Self.keptCapacity(Scratch.words) == initialWords, "the large JSON view's words were kept")
    }

    // MARK: 1. Many tasks at once

    static let taskCount = 8
    static let iterations = 60

    /// The sample task `task` uses at `iteration`: small ones half the time, medium and generated
    /// ones a quarter each, and once in every other task (at a different time in each) a large one.
    static func sample(task: Int, iteration: Int) -> Sample {
        if task % 2 == 0 && iteration == 10 + 5 * task { return large }
        switch iteration % 4 {
        case 1: return medium
        case 3: return generated
        default: return small
        }
    }

    /// Tasks on the pool's threads, each with its own buffers, use them at once — each buffer taken,
    /// grown, given back, kept or freed while the other threads do the same with theirs — and every
    /// result is the one computed up front.
    @Test func manyTasksViewDecodeAndEncodeMessagesOfEverySizeAtOnce() async {
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var outcome = Outcome()
                    for iteration in 0..<Self.iterations {
                        let sample = Self.sample(task: task, iteration: iteration)
                        outcome = outcome + Self.exercise(sample, "task \(task), iteration \(iteration)")
                        if outcome.mismatches.count >= 5 { break }
                    }
                    return outcome
                }
            }
            return await group.reduce(Outcome(), +)
        }
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches.prefix(10).joined(separator: "\n"))")
        #expect(outcome.checks == Self.taskCount * Self.iterations * Self.checksPerExercise)
    }

    // MARK: 2. Nested on one thread

    /// What runs inside the outer view's closure.
    enum Nesting: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case binaryViewInBinaryView, jsonViewInBinaryView, jsonViewInJSONView, binaryViewInJSONView
        case encodingInBinaryView, encodingInJSONView
        var testDescription: String { rawValue }
        var outerIsJSON: Bool { self == .jsonViewInJSONView || self == .binaryViewInJSONView || self == .encodingInJSONView }
    }

    /// What the outer view's closure saw.
    struct NestedResult {
        var outerBefore = Message()
        var outerAfter = Message()
        /// A string view of the outer view, taken before the inner use and read after it.
        var senderAfterInner = ""
        var elemCountAfterInner = 0
        var inner = Message()
        var innerBinary: [UInt8] = []
        var innerJSON: [UInt8] = []
    }

    /// Synchronous: the outer view's words (and, from JSON, its copied text) are the thread's
    /// buffers, taken out of their slots; the inner use takes new ones and grows them (medium) or
    /// grows them past what the thread keeps, which frees them (large). The outer view must read
    /// the same afterwards — a copy of every field, and a string view taken before the inner use —
    /// and the thread's buffers must still work after both.
    @Test(arguments: Nesting.allCases)
    func aUseOfTheBuffersInsideAViewsClosureLeavesTheOuterViewIntact(_ nesting: Nesting) throws {
        let outer = Self.small
        for inner in [Self.medium, Self.large] {
            func inside(_ view: Message.View) throws -> NestedResult {
                var result = NestedResult()
                result.outerBefore = Message(view)
                let sender = view.sender
                switch nesting {
                case .binaryViewInBinaryView, .binaryViewInJSONView:
                    result.inner = try Message.withView(serializedBytes: inner.binary) { Message($0) }
                case .jsonViewInBinaryView, .jsonViewInJSONView:
                    result.inner = try Message.withView(jsonUTF8Bytes: inner.json) { Message($0) }
                case .encodingInBinaryView, .encodingInJSONView:
                    result.inner = inner.message
                    result.innerBinary = try inner.message.serializedBytes()
                    result.innerJSON = try inner.message.jsonUTF8Bytes()
                }
                result.senderAfterInner = String(sender)
                result.elemCountAfterInner = view.elems.count
                result.outerAfter = Message(view)
                return result
            }
            let result =
                nesting.outerIsJSON
                ? try Message.withView(jsonUTF8Bytes: outer.json, inside) : try Message.withView(serializedBytes: outer.binary, inside)
            let label = "\(nesting) with the \(inner.name) sample inside"
            #expect(result.outerBefore == outer.message, "\(label): the outer view read wrong before")
            #expect(result.outerAfter == outer.message, "\(label): the outer view changed")
            #expect(result.senderAfterInner == outer.message.sender, "\(label): the outer view's sender changed")
            #expect(result.elemCountAfterInner == outer.message.elems.count, "\(label): the outer view's elems changed")
            // Compared first, so that a failure does not print the large sample (over a megabyte).
            let innerMatches = result.inner == inner.message
            #expect(innerMatches, "\(label): the inner view read wrong")
            if nesting == .encodingInBinaryView || nesting == .encodingInJSONView {
                let (binaryMatches, jsonMatches) = (result.innerBinary == inner.binary, result.innerJSON == inner.json)
                #expect(binaryMatches, "\(label): the inner binary encoding differs")
                #expect(jsonMatches, "\(label): the inner JSON encoding differs")
            }
            let after = Self.exercise(Self.small, "after \(label)") + Self.exercise(Self.medium, "after \(label)")
            #expect(after.mismatches.isEmpty, "\(after.mismatches.joined(separator: "\n"))")
        }
    }

    // MARK: 3. Threads that exit

    static let threadWaves = 4
    static let threadsPerWave = 12

    /// What thread `index` does once before it exits: everything on a small or a medium sample
    /// (its buffers grown and kept, so its exit frees grown ones), or only a binary view (it keeps
    /// words and no bytes), or only encodings (bytes and no words).
    static func threadJob(_ index: Int) -> Outcome {
        let label = "thread \(index)"
        switch index % 4 {
        case 0: return exercise(small, label)
        case 1: return exercise(medium, label)
        case 2:
            var outcome = Outcome()
            let viewed = try? Message.withView(serializedBytes: medium.binary) { Message($0) }
            outcome.check(viewed == medium.message, "medium (\(label)): the binary view differs")
            return outcome
        default:
            var outcome = Outcome()
            outcome.check((try? medium.message.serializedBytes()) == medium.binary, "medium (\(label)): the binary encoding differs")
            outcome.check((try? small.message.jsonUTF8Bytes()) == small.json, "small (\(label)): the JSON encoding differs")
            return outcome
        }
    }

    static func checks(ofThreadJob index: Int) -> Int {
        switch index % 4 {
        case 0, 1: checksPerExercise
        case 2: 1
        default: 2
        }
    }

    /// Waves of POSIX threads, each using the buffers once and exiting — its key's destructor frees
    /// its buffers while the wave's other threads, and tasks on the pool, use theirs. Every thread's
    /// results are checked after `pthread_join` (which returns once the destructors have run); then
    /// the buffers still work, on this thread and on new threads.
    @Test func threadsThatUseTheBuffersAndExitLeaveTheProcessWorking() async {
        async let onThePool = withTaskGroup(of: Outcome.self) { group in
            for task in 0..<2 {
                group.addTask {
                    var outcome = Outcome()
                    for iteration in 0..<30 { outcome = outcome + Self.exercise(iteration % 2 == 0 ? Self.small : Self.medium, "pool task \(task)") }
                    return outcome
                }
            }
            return await group.reduce(Outcome(), +)
        }

        var fromThreads = Outcome()
        var expectedChecks = 0
        for wave in 0..<Self.threadWaves {
            let threads = (0..<Self.threadsPerWave).map { slot in
                let index = wave * Self.threadsPerWave + slot
                expectedChecks += Self.checks(ofThreadJob: index)
                return OneShotThread { Self.threadJob(index) }
            }
            for thread in threads { thread.start() }
            for thread in threads { fromThreads = fromThreads + thread.join() }
        }
        #expect(fromThreads.mismatches.isEmpty, "\(fromThreads.mismatches.prefix(10).joined(separator: "\n"))")
        #expect(fromThreads.checks == expectedChecks, "not every thread ran its job")

        let pool = await onThePool
        #expect(pool.mismatches.isEmpty, "\(pool.mismatches.prefix(10).joined(separator: "\n"))")
        #expect(pool.checks == 60 * Self.checksPerExercise)

        var afterwards = Outcome()
        for sample in [Self.small, Self.medium, Self.large] { afterwards = afterwards + Self.exercise(sample, "after the threads exited") }
        let late = (0..<4).map { index in OneShotThread { Self.exercise(index % 2 == 0 ? Self.small : Self.medium, "late thread \(index)") } }
        for thread in late { thread.start() }
        for thread in late { afterwards = afterwards + thread.join() }
        #expect(afterwards.mismatches.isEmpty, "\(afterwards.mismatches.prefix(10).joined(separator: "\n"))")
        #expect(afterwards.checks == 7 * Self.checksPerExercise)
    }

    // MARK: 4. Copy on write across tasks

    /// A message whose every kind of storage is reachable: the cold box (`atUserList`,
    /// `offlinePushInfo`), elems with storage classes, and a merger's nested messages.
    static let conversation = Sample("conversation", {
        var message = chat(10)
        message.elems.insert(.merger(MergerElem(title: "forwarded", abstractList: ["a: 1"], messages: [chat(11), chat(12)])), at: 1)
        return message
    }())

    /// `original` as task `task` changes its own copy: an elem appended, the sender changed, a user
    /// mentioned (the cold box), and the first forwarded message inside the merger changed.
    static func edited(_ original: Message, by task: Int) -> Message {
        var copy = original
        copy.elems.append(.text("appended by task \(task)"))
        copy.sender = "sender_\(task)"
        copy.atUserList.append("user_\(task)")
        for index in copy.elems.indices {
            guard case .merger(var merger)? = copy.elems[index].content else { continue }
            merger.messages[0].msgID = "forwarded-\(task)"
            merger.messages[0].elems[0] = .text("edited by task \(task)")
            copy.elems[index].content = .merger(merger)
        }
        return copy
    }

    static let editingTasks = 8
    static let rounds = 20

    /// One decoded message shared by every task: half of them copy it and change their copy (each
    /// change copies only the storage it writes, the rest stays shared with the original and with
    /// the other tasks' copies) while the others compare, hash and encode the original. Each copy
    /// must be what the same edit of an unshared value gives, and the original must not change.
    @Test func copiesOfASharedMessageChangedOnManyTasksLeaveTheOriginalUnchanged() async throws {
        let sample = Self.conversation
        let shared = try Message(serializedBytes: sample.binary)
        // Decoded separately: equal to `shared`, sharing no storage with it.
        let reference = try Message(serializedBytes: sample.binary)
        let referenceHash = reference.hashValue
        let expected = (0..<Self.editingTasks).map { Self.edited(reference, by: $0) }
        let expectedBinary = try expected.map { try $0.serializedBytes() }
        let expectedJSON = try expected.map { try $0.jsonUTF8Bytes() }
        #expect(Set(expectedBinary).count == Self.editingTasks && !expectedBinary.contains(sample.binary))

        let outcome = await withTaskGroup(of: Outcome.self) { group in
            for task in 0..<2 * Self.editingTasks {
                group.addTask {
                    var outcome = Outcome()
                    let at = "task \(task)"
                    for round in 0..<Self.rounds {
                        if task % 2 == 0 {
                            let editor = task / 2
                            let copy = Self.edited(shared, by: editor)
                            outcome.check(copy == expected[editor], "\(at), round \(round): the edited copy differs")
                            outcome.check(copy.sender == "sender_\(editor)" && copy.elems.count == sample.message.elems.count + 1, "\(at): the edit is missing")
                            outcome.check((try? copy.serializedBytes()) == expectedBinary[editor], "\(at), round \(round): the copy's binary differs")
                            outcome.check((try? copy.jsonUTF8Bytes()) == expectedJSON[editor], "\(at), round \(round): the copy's JSON differs")
                            outcome.check(copy != shared && copy.hashValue == expected[editor].hashValue, "\(at), round \(round): the copy's hash differs")
                        } else {
                            outcome.check(shared == reference, "\(at), round \(round): the original changed")
                            outcome.check(shared.hashValue == referenceHash, "\(at), round \(round): the original's hash changed")
                            outcome.check((try? shared.serializedBytes()) == sample.binary, "\(at), round \(round): the original's binary changed")
                            outcome.check((try? shared.jsonUTF8Bytes()) == sample.json, "\(at), round \(round): the original's JSON changed")
                            guard case .merger(let merger)? = shared.elems[1].content else {
                                outcome.check(false, "\(at): the original lost its merger")
                                continue
                            }
                            outcome.check(merger.messages[0].msgID == "m-11" && shared.sender == "alice_10", "\(at), round \(round): the original's fields changed")
                        }
                        if outcome.mismatches.count >= 5 { break }
                    }
                    return outcome
                }
            }
            return await group.reduce(Outcome(), +)
        }
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches.prefix(10).joined(separator: "\n"))")
        #expect(outcome.checks == 2 * Self.editingTasks * Self.rounds * 5)
        #expect(shared == reference && shared == sample.message)
        #expect(try shared.serializedBytes() == sample.binary)
    }

    // MARK: 5. A value sent to another task

    /// A message built on this task is sent to a detached task (the capture list is the send),
    /// which compares it with an equal value built separately, hashes it, looks it up in a set and
    /// encodes it, while this task keeps reading the same value: both sides must see it whole.
    @Test func aValueSentToAnotherTaskComparesAndHashesThereWhileTheSenderReadsIt() async throws {
        let built = Self.edited(Self.conversation.message, by: 99)
        let twin = Self.edited(Self.conversation.message, by: 99)  // built again: equal, no storage shared
        let twinHash = twin.hashValue
        let twinBinary = try twin.serializedBytes()
        let twinJSON = try twin.jsonUTF8Bytes()
        let other = Self.edited(Self.conversation.message, by: 98)

        let receiver = Task.detached { [built] () -> Outcome in
            var outcome = Outcome()
            let set: Set<Message> = [twin, other]
            for round in 0..<Self.rounds {
                outcome.check(built == twin && built != other, "receiver, round \(round): the comparison changed")
                outcome.check(built.hashValue == twinHash, "receiver, round \(round): the hash changed")
                outcome.check(set.contains(built) && Set([built, twin]).count == 1, "receiver, round \(round): the set lookup failed")
                outcome.check((try? built.serializedBytes()) == twinBinary, "receiver, round \(round): the binary differs")
                outcome.check((try? built.jsonUTF8Bytes()) == twinJSON, "receiver, round \(round): the JSON differs")
            }
            return outcome
        }

        var sender = Outcome()
        for round in 0..<Self.rounds {
            sender.check(built.sender == "sender_99" && built.elems.count == twin.elems.count, "sender, round \(round): the fields changed")
            if case .merger(let merger)? = built.elems[1].content {
                sender.check(merger.messages[0].msgID == "forwarded-99", "sender, round \(round): the merger changed")
            } else {
                sender.check(false, "sender, round \(round): the merger is missing")
            }
            sender.check(built.hashValue == twinHash && built == twin, "sender, round \(round): the hash or the comparison changed")
            sender.check((try? built.serializedBytes()) == twinBinary, "sender, round \(round): the binary differs")
            let viewed = try? Message.withView(serializedBytes: twinBinary) { Message($0) }
            sender.check(viewed == built, "sender, round \(round): the view differs")
        }
        let received = await receiver.value
        #expect(sender.mismatches.isEmpty, "\(sender.mismatches.prefix(10).joined(separator: "\n"))")
        #expect(received.mismatches.isEmpty, "\(received.mismatches.prefix(10).joined(separator: "\n"))")
        #expect(sender.checks == Self.rounds * 5 && received.checks == Self.rounds * 5)
        #expect(built == twin)
    }
}

/// A POSIX thread that runs its body once and exits. ``join()`` waits for the exit — which runs
/// the thread-specific destructors, the scratch buffers' among them — and returns what the body
/// returned.
private final class OneShotThread: @unchecked Sendable {
    private let body: @Sendable () -> ThreadScratchConcurrencyTests.Outcome
    /// Written by the thread before it exits, read after `pthread_join`, which orders the two.
    private var result = ThreadScratchConcurrencyTests.Outcome()
    #if canImport(Darwin)
    private var thread: pthread_t? = nil
    #else
    private var thread = pthread_t()
    #endif

    init(_ body: @escaping @Sendable () -> ThreadScratchConcurrencyTests.Outcome) {
        self.body = body
    }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let this = Unmanaged<OneShotThread>.fromOpaque(OneShotThread.nonNil(context)).takeRetainedValue()
            this.result = this.body()
            return nil
        }, context)
        precondition(created == 0, "pthread_create failed: \(created)")
    }

    func join() -> ThreadScratchConcurrencyTests.Outcome {
        #if canImport(Darwin)
        let joined = pthread_join(thread!, nil)
        #else
        let joined = pthread_join(thread, nil)
        #endif
        precondition(joined == 0, "pthread_join failed: \(joined)")
        return result
    }

    /// The start routine's argument (optional on Linux, not on Darwin).
    private static func nonNil(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer { pointer! }
}
