import IMWire
import Testing

@testable import WebhookServer

/// The moderation scan through the message view, without a server: where a word is found, and where
/// a byte search could go wrong (a repeated first byte, a partial match before a full one, a word
/// at the end, a word longer than the field, non-ASCII words), checked against a plain scalar search.
@Suite struct ModerationTests {
    let moderation = Moderation(list: "red packet, casino,赌场")

    func scan(_ message: Message) throws -> Moderation.Finding {
        try Message.withView(serializedBytes: message.serializedBytes()) { moderation.scan($0) }
    }

    @Test(arguments: [
        ("casino", true), ("ccasino", true), ("casicasino", true), ("a casin", false), ("casino!", true),
        ("CASINO", false), ("去赌场吗", true), ("赌", false), ("red  packet", false), ("", false), ("x", false),
    ])
    func aWordInATextIsFoundAsTheScalarRuleFindsIt(text: String, found: Bool) throws {
        #expect(try scan(Message(elems: [.text(text)])) == (found ? .bannedText : .nothing))
        // The same verdict as a search by Unicode scalars, the rule the golden answers were written by.
        let scalars = Array(text.unicodeScalars)
        let byScalars = moderation.bannedWords.contains { word in
            let needle = Array(word.unicodeScalars)
            return scalars.count >= needle.count
                && (0...(scalars.count - needle.count)).contains { scalars[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        #expect(byScalars == found)
    }

    @Test func everyCustomFieldAndTheCloudCustomDataRefuse() throws {
        let custom: [CustomElem] = [
            CustomElem(data: Array("{\"k\":\"casino\"}".utf8)), CustomElem(desc: "a red packet"),
            CustomElem(ext: "赌场"), CustomElem(sound: "casino.mp3"),
        ]
        for elem in custom {
            #expect(try scan(Message(elems: [.text("hello"), .custom(elem)])) == .bannedCustomData)
        }
        var message = Message(elems: [.text("casino")])
        message.cloudCustomData = Array("red packet".utf8)
        #expect(try scan(message) == .bannedCustomData)  // custom data first: refused, not masked
        #expect(try scan(Message(elems: [.text("hello"), .custom(CustomElem(desc: "fine"))])) == .nothing)
    }

    @Test func anEmptyListFindsNothing() throws {
        let none = Moderation(bannedWords: [])
        let bytes = try Message(elems: [.text("casino")]).serializedBytes()
        #expect(try Message.withView(serializedBytes: bytes) { none.scan($0) } == .nothing)
    }

    @Test func maskingOnUTF8IsMaskingByScalars() {
        // Python's str.replace(word, "*" * len(word)), written on Unicode scalars, against the
        // byte-wise masking: every string of up to 5 characters from a small alphabet (ASCII, a
        // CJK pair, an emoji, a combining accent), each word.
        func reference(_ text: String, _ word: String) -> String {
            let scalars = Array(text.unicodeScalars), needle = Array(word.unicodeScalars)
            var result = String.UnicodeScalarView()
            var index = 0
            while index < scalars.count {
                if index + needle.count <= scalars.count, scalars[index..<(index + needle.count)].elementsEqual(needle) {
                    result.append(contentsOf: repeatElement("*", count: needle.count))
                    index += needle.count
                } else {
                    result.append(scalars[index])
                    index += 1
                }
            }
            return String(result)
        }
        let alphabet = ["a", "b", "赌", "场", "🎲", "e\u{301}"]
        let words = ["a", "aa", "ab", "赌场", "场赌", "🎲", "e\u{301}", "b🎲a"]
        var texts = [""]
        for _ in 0..<5 { texts += texts.flatMap { text in alphabet.map { text + $0 } } }
        var mismatches = 0
        for text in Set(texts) {
            for word in words where text.masking(word) != reference(text, word) {
                mismatches += 1
                if mismatches <= 3 { Issue.record("\(text) masking \(word): \(text.masking(word)), expected \(reference(text, word))") }
            }
        }
        #expect(mismatches == 0)
        #expect("aaa".masking("aa") == "**a")
        #expect("去赌场吗".masking("赌场") == "去**吗")
    }
}
