import Foundation
import IMWire
import IMWireWebhooks

/// The example's moderation rule, a starting point to copy: a word list.
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
    var bannedWords: [String] = []

    static let refusal = "custom data contains a banned word"

    init(bannedWords: [String] = []) {
        self.bannedWords = bannedWords
    }

    /// `BANNED_WORDS="red packet, casino"` → `["red packet", "casino"]`.
    init(list: String) {
        bannedWords = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func answer(_ callback: MessageCallback, profile: ValidationProfile) throws(WebhookError) -> CallbackResponse {
        guard let rules = callback.command.beforeSend, !bannedWords.isEmpty else { return callback.allow() }
        let message = callback.message
        var custom = [message.cloudCustomData]
        for elem in message.elems {
            if case .custom(let data)? = elem.content {
                custom += [data.data, Array(data.desc.utf8), Array(data.ext.utf8), Array(data.sound.utf8)]
            }
        }
        if custom.contains(where: { bytes in bannedWords.contains { bytes.contains(word: $0) } }) {
            return try callback.refuse(code: rules.appCodes.lowerBound, reason: Self.refusal)
        }

        var changed = false
        let elems = message.elems.map { elem -> Elem in
            guard case .text(let text)? = elem.content else { return elem }
            let masked = bannedWords.reduce(text.text) { $0.masking($1) }
            if masked == text.text { return elem }
            changed = true
            return .text(masked)
        }
        return changed ? try callback.replace(elems: elems, profile: profile) : callback.allow()
    }
}

extension [UInt8] {
    /// Whether the UTF-8 of `word` occurs in these bytes (custom data is bytes in the model).
    func contains(word: String) -> Bool {
        let needle = Array(word.utf8)
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

extension String {
    /// Every occurrence of `word`, left to right, replaced by one `*` per Unicode scalar (Python's
    /// `str.replace(word, "*" * len(word))`): matched by scalars, not by grapheme clusters.
    func masking(_ word: String) -> String {
        let needle = Array(word.unicodeScalars)
        guard !needle.isEmpty else { return self }
        let scalars = Array(unicodeScalars)
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
}
