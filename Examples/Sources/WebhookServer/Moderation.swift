import Foundation
import IMWire
import IMWireWebhooks

/// The example's moderation rule, a starting point to copy: a word list, looked for through the
/// message view (`Message.withView`) of the protobuf the relay forwards, nothing copied.
///
/// For a before-send callback (`C2C.` / `Group.CallbackBeforeSendMsg`):
/// 1. custom data — a `TIMCustomElem`'s `Data`, `Desc`, `Ext` or `Sound`, or the message's
///    `CloudCustomData` — that contains a listed word refuses the message, with the command's first
///    app code (120001 one-to-one, 10100 group) so that the sender's client sees the reason.
///    Custom data is the app's own structure (JSON, a command): masking a word in it could break
///    it, so it is refused rather than rewritten;
/// 2. otherwise each listed word in a text elem is masked with one `*` per Unicode scalar, and
///    the message is delivered with that text (a rewritten `MsgBody`; the other elems unchanged,
///    `CloudCustomData` left as the sender's);
/// 3. a message with no listed word goes through unchanged.
/// Words match case-sensitively, as Unicode scalars, in list order, each left to right
/// (Scripts/gen_webhook_fixtures.py implements the same rule in Python for the golden answers).
/// Every other callback is allowed.
struct Moderation: Sendable {
    /// The words, as `BANNED_WORDS` lists them (comma-separated, blanks around a word trimmed,
    /// empty entries dropped).
    var bannedWords: [String] = [] {
        didSet { needles = bannedWords.map { Array($0.utf8) } }
    }
    /// Their UTF-8, for the scan in place.
    private var needles: [[UInt8]] = []

    static let refusal = "custom data contains a banned word"

    init(bannedWords: [String] = []) {
        self.bannedWords = bannedWords
        needles = bannedWords.map { Array($0.utf8) }
    }

    /// `BANNED_WORDS="red packet, casino"` → `["red packet", "casino"]`.
    init(list: String) {
        self.init(bannedWords: list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// What the scan found.
    enum Finding: Equatable {
        case nothing
        /// A listed word in the custom data: refuse.
        case bannedCustomData
        /// A listed word in a text elem (and none in custom data): mask.
        case bannedText
    }

    /// Scans a message for listed words through its view: the bytes of every custom data and text
    /// are searched where they lie, nothing is copied. A listed word's UTF-8 occurs in valid UTF-8
    /// exactly where its Unicode scalars occur, so a byte search finds what the scalar rule matches.
    func scan(_ message: Message.View) -> Finding {
        guard !needles.isEmpty else { return .nothing }
        if containsBannedWord(message.cloudCustomData) { return .bannedCustomData }
        var text = false
        for elem in message.elems {
            switch elem.content {
            case .custom(let data)?:
                if containsBannedWord(data.data) || containsBannedWord(data.desc) || containsBannedWord(data.ext)
                    || containsBannedWord(data.sound)
                {
                    return .bannedCustomData
                }
            case .text(let elem)?:
                text = text || containsBannedWord(elem.text)
            default:
                break
            }
        }
        return text ? .bannedText : .nothing
    }

    /// The answer to a message callback whose message is `callback.message`, encoded in `protobuf`
    /// (the canonical bytes the relay forwards): the scan runs over their view; only a text to mask
    /// is read from the decoded message, to rewrite it.
    func answer(_ callback: MessageCallback, protobuf: [UInt8], profile: ValidationProfile) throws(WebhookError) -> CallbackResponse {
        guard let rules = callback.command.beforeSend, !needles.isEmpty else { return callback.allow() }
        let finding: Finding
        do {
            finding = try Message.withView(serializedBytes: protobuf) { scan($0) }
        } catch {
            // The bytes are IMWire's own encoding of a decoded message: a view of them cannot fail.
            preconditionFailure("the relay's protobuf does not read back: \(error)")
        }
        switch finding {
        case .nothing:
            return callback.allow()
        case .bannedCustomData:
            return try callback.refuse(code: rules.appCodes.lowerBound, reason: Self.refusal)
        case .bannedText:
            var changed = false
            let elems = callback.message.elems.map { elem -> Elem in
                guard case .text(let text)? = elem.content else { return elem }
                let masked = bannedWords.reduce(text.text) { $0.masking($1) }
                if masked == text.text { return elem }
                changed = true
                return .text(masked)
            }
            return changed ? try callback.replace(elems: elems, profile: profile) : callback.allow()
        }
    }

    /// Whether the UTF-8 of a listed word occurs in `bytes`, searched in place.
    private func containsBannedWord<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        let found = bytes.withContiguousStorageIfAvailable { haystack in needles.contains { Self.find($0, in: haystack) } }
        return found ?? Array(bytes).withUnsafeBufferPointer { haystack in needles.contains { Self.find($0, in: haystack) } }
    }

    /// Whether `needle` occurs in `haystack` (a non-empty needle; the first byte located, then the rest compared).
    private static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            guard let hit = haystack[start...last].firstIndex(of: first) else { return false }
            if UnsafeBufferPointer(rebasing: haystack[hit..<(hit + needle.count)]).elementsEqual(needle) { return true }
            start = hit + 1
        }
        return false
    }
}

extension String {
    /// Every occurrence of `word`, left to right, replaced by one `*` per Unicode scalar (Python's
    /// `str.replace(word, "*" * len(word))`): matched by scalars, not by grapheme clusters. Done on
    /// the UTF-8, where the word's bytes occur exactly where its scalars do; a text without the word
    /// is returned as it is, not copied.
    func masking(_ word: String) -> String {
        let needle = Array(word.utf8)
        guard let first = needle.first else { return self }
        let stars = word.unicodeScalars.count
        var text = self
        return text.withUTF8 { bytes -> String in
            var masked: [UInt8] = []
            var copied = 0  // bytes before this offset are in `masked`
            var index = 0
            while index + needle.count <= bytes.count {
                if bytes[index] == first,
                   UnsafeBufferPointer(rebasing: bytes[index..<(index + needle.count)]).elementsEqual(needle)
                {
                    if masked.isEmpty { masked.reserveCapacity(bytes.count) }
                    masked.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                    masked.append(contentsOf: repeatElement(UInt8(ascii: "*"), count: stars))
                    index += needle.count
                    copied = index
                } else {
                    index += 1
                }
            }
            guard copied > 0 else { return self }
            masked.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: masked, as: UTF8.self)
        }
    }
}
