import IMWire
import IMWireTestSupport
import Testing

/// Messages BUILT IN CODE nested far past any decoder's depth limit: every public path must give an
/// answer or a typed error, never a stack overflow — comparing, hashing, validating, counting,
/// searching for unknown fields, encoding, describing, and freeing the value.
///
/// Every body runs on a thread with a 512 KiB stack (less than a server's worker threads and than
/// the threads Swift Testing may run tests on), so a walk that recurses once per level fails here.
@Suite struct DeepModelTests {
    /// The depth of the issue: far past what any recursion fits in a thread's stack.
    static let layers = 100_000
    static let stackSize = 512 * 1024

    /// `layers` merger elems around `inner`, built iteratively; each merger has the title "t".
    static func deep(_ layers: Int, around inner: Message) -> Message {
        var message = inner
        for _ in 0..<layers {
            message = Message(elems: [.merger(MergerElem(title: "t", messages: [message]))])
        }
        return message
    }

    static func deep(_ layers: Int, innerText: String) -> Message {
        deep(layers, around: Message(elems: [.text(innerText)]))
    }

    /// A message with one unknown field (number 1000, varint 1) and one text elem.
    static func innerWithUnknownField() throws -> Message {
        var inner = try Message(serializedBytes: [0xC0, 0x3E, 0x01])
        #expect(!inner.unknownFields.isEmpty)
        inner.elems = [.text("x")]
        return inner
    }

    @Test func equalityAnswersAtAnyDepth() {
        let (same, differentInside, differentOutside) = runOnThread(stackSize: Self.stackSize) { () -> (Bool, Bool, Bool) in
            let a = Self.deep(Self.layers, innerText: "a")
            let b = Self.deep(Self.layers, innerText: "a")  // built separately: no storage shared
            let c = Self.deep(Self.layers, innerText: "b")
            var d = Self.deep(Self.layers, innerText: "a")
            d.sender = "someone"
            return (a == b, a == c, a == d)
        }
        #expect(same)
        #expect(!differentInside)
        #expect(!differentOutside)
    }

    @Test func equalityMatchesTheSynthesizedSemanticsAtShallowDepth() {
        // Doubles inside merged messages compare by `sameDouble` (every NaN equals every NaN).
        func withLocation(_ longitude: Double) -> Message {
            Self.deep(3, around: Message(elems: [.location(LocationElem(longitude: longitude))]))
        }
        #expect(withLocation(.nan) == withLocation(.nan))
        #expect(withLocation(.nan).hashValue == withLocation(.nan).hashValue)
        #expect(withLocation(0.0) != withLocation(-0.0))
        // Counts and order of merged messages matter.
        let one = Message(elems: [.merger(MergerElem(messages: [Message(sender: "a"), Message(sender: "b")]))])
        let swapped = Message(elems: [.merger(MergerElem(messages: [Message(sender: "b"), Message(sender: "a")]))])
        let fewer = Message(elems: [.merger(MergerElem(messages: [Message(sender: "a")]))])
        #expect(one != swapped)
        #expect(one != fewer)
        #expect(MergerElem() == MergerElem(messages: []))
        var emptied = MergerElem(messages: [Message()])
        emptied.messages.removeAll()
        #expect(emptied == MergerElem())
        #expect(emptied.hashValue == MergerElem().hashValue)
        // Reflection shows the merged messages, not the storage box.
        var dumped = ""
        dump(MergerElem(messages: [Message(sender: "inside")]), to: &dumped)
        #expect(dumped.contains("sender: \"inside\""))
        #expect(!dumped.contains("Box"))
    }

    @Test func equalValuesHashEquallyAtAnyDepth() {
        let (equalHashes, differentHashes, setCount, lookup) = runOnThread(stackSize: Self.stackSize) {
            () -> (Bool, Bool, Int, Int?) in
            let a = Self.deep(Self.layers, innerText: "a")
            let b = Self.deep(Self.layers, innerText: "a")
            let c = Self.deep(Self.layers, innerText: "b")
            let set: Set<Message> = [a, b, c]
            let dictionary = [a: 1, c: 2]
            return (a.hashValue == b.hashValue, a.hashValue != c.hashValue, set.count, dictionary[b])
        }
        #expect(equalHashes)
        #expect(differentHashes)  // a hash that ignored the depth would collide; a 64-bit one does not
        #expect(setCount == 2)
        #expect(lookup == 1)
    }

    @Test func validationReportsTheNestingAtAnyDepth() {
        let violations = runOnThread(stackSize: Self.stackSize) {
            Self.deep(Self.layers, innerText: "a").validate(profile: .tencent)
        }
        // Each merger's title counts toward the content (100,000 bytes), and the nesting is reported
        // where it starts, with its full depth.
        #expect(violations.map(\.code) == [.contentTooLarge, .mergerNestingTooDeep])
        #expect(violations.first?.actual == .integer(UInt64(Self.layers + 1)))
        #expect(violations.last?.path == "elems[0].merger")
        #expect(violations.last?.actual == .integer(UInt64(Self.layers)))
    }

    @Test func contentSizeCountsEveryLevel() {
        let size = runOnThread(stackSize: Self.stackSize) {
            Self.deep(Self.layers, innerText: "hello").contentByteCount
        }
        #expect(size == Self.layers + 5)  // each merger's title "t", and the innermost text
    }

    @Test func unknownFieldsAreFoundAtTheInnermostLevel() throws {
        let inner = try Self.innerWithUnknownField()
        let (withUnknown, without) = runOnThread(stackSize: Self.stackSize) { () -> (Bool, Bool) in
            (Self.deep(Self.layers, around: inner).containsUnknownFields,
             Self.deep(Self.layers, innerText: "x").containsUnknownFields)
        }
        #expect(withUnknown)
        #expect(!without)
    }

    @Test func encodersThrowTheDepthLimitInsteadOfCrashing() {
        let errors = runOnThread(stackSize: Self.stackSize) { () -> [IMWireError.Code?] in
            let message = Self.deep(Self.layers, innerText: "a")
            func code(_ body: () throws -> Void) -> IMWireError.Code? {
                do {
                    try body()
                    return nil
                } catch {
                    return (error as? IMWireError)?.code
                }
            }
            let unlimited = Int.max
            return [
                code { _ = try message.serializedBytes() },
                code { _ = try message.serializedSize() },
                code { _ = try message.jsonUTF8Bytes() },
                code { _ = try message.timRESTUTF8Bytes() },
                // With the limits lifted, the stack guard refuses what the stack cannot hold.
                code { _ = try message.serializedBytes(options: BinaryEncodingOptions(maxDepth: unlimited)) },
                code { _ = try message.jsonUTF8Bytes(options: JSONEncodingOptions(maxDepth: unlimited)) },
                code { _ = try message.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(maxDepth: unlimited)) },
            ]
        }
        #expect(errors == Array(repeating: IMWireError.Code.depthLimitExceeded, count: 7))
    }

    @Test func debugDescriptionIsCutInsteadOfCrashing() {
        let (prefix, cut, innermost) = runOnThread(stackSize: Self.stackSize) { () -> (Bool, Bool, Bool) in
            let description = Self.deep(Self.layers, innerText: "a").debugDescription
            return (description.hasPrefix("Message(elems: [Elem(merger: MergerElem(title: \"t\", messages: [Message("),
                    description.contains("(…)"), description.contains("\"a\""))
        }
        #expect(prefix)
        #expect(cut)  // at whichever level (Message, Elem or MergerElem) the stack guard stops it
        #expect(!innermost)  // the innermost level is past the cut
    }

    @Test func droppingADeepValueDoesNotRecurse() {
        let survived = runOnThread(stackSize: Self.stackSize) { () -> Bool in
            var message: Message? = Self.deep(Self.layers, innerText: "a")
            message = nil
            // A value whose inner levels are shared with a copy: dropping one, then the other.
            let shared = Self.deep(Self.layers, innerText: "a")
            var outer: Message? = Self.deep(10, around: shared)
            outer = nil
            var merger = MergerElem(messages: [shared])
            merger.title = "copy"
            return message == nil && outer == nil && merger.messages.count == 1
        }
        #expect(survived)
    }

    @Test func mutatingADeepValueCopiesOnWrite() {
        let (original, changed) = runOnThread(stackSize: Self.stackSize) { () -> (String, String) in
            let message = Self.deep(2, innerText: "a")
            var copy = message
            guard case .merger(var merger)? = copy.elems[0].content else { return ("", "") }
            merger.messages[0].sender = "changed"
            copy.elems[0].content = .merger(merger)
            func sender(_ message: Message) -> String {
                guard case .merger(let merger)? = message.elems[0].content else { return "" }
                return merger.messages[0].sender
            }
            return (sender(message), sender(copy))
        }
        #expect(original == "")
        #expect(changed == "changed")
    }

    @Test(.timed) func equalityHashingTeardownAndValidationAreLinearInDepth() {
        let small = 10_000, large = 80_000
        let ratios = runOnThread(stackSize: Self.stackSize) { () -> [Double] in
            let pairs = [small, large].map { (Self.deep($0, innerText: "a"), Self.deep($0, innerText: "a")) }
            let equality = growthRatio(bound: growthBound, small: { _ = pairs[0].0 == pairs[0].1 },
                                       large: { _ = pairs[1].0 == pairs[1].1 })
            let hashing = growthRatio(bound: growthBound, small: { _ = pairs[0].0.hashValue },
                                      large: { _ = pairs[1].0.hashValue })
            // Building is linear; freeing must be too.
            let teardown = growthRatio(bound: growthBound, small: { _ = Self.deep(small, innerText: "a") },
                                       large: { _ = Self.deep(large, innerText: "a") })
            let validation = growthRatio(bound: growthBound, small: { _ = pairs[0].0.validate(profile: .tencent) },
                                         large: { _ = pairs[1].0.validate(profile: .tencent) })
            return [equality, hashing, teardown, validation]
        }
        for ratio in ratios { #expect(ratio < growthBound) }
    }
}
