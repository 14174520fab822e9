// The property that nothing is lost at the edges: for every input format and every accepted
// document, each key of the input is either represented in the decoded message or reported as
// skipped (DecodingReport).
//
// "Represented" is tested, not assumed: a key's value is changed (a string gets a letter, an integer
// goes up by one, a flag turns 0 ↔ 1, a boolean flips, null becomes a string) and the document
// decoded again. A key the
// message holds changes what decodes — the message, or what the report says, or the document no
// longer decodes. A key that is neither represented nor reported changes nothing: the property
// fails. A key reported as unknown must really be ignored: changing it changes nothing.
//
// The documents are generated: a random message in the canonical form of the format, then edited —
// keys of the other dialect, misspelt keys (case, underscores), documented keys the model has no
// field for, second spellings that agree or not, unknown enum names and control values, counts that
// disagree with their lists, webhook commands, proto names for JSON names. Binary has no keys to
// skip: every field, unknown ones included, survives the round trip byte for byte.
//
// Iteration counts: each test's default below, or IMWIRE_PROPERTY_ITERATIONS for all of them. A
// failure prints the document and the key.

import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

@Suite("nothing is lost")
struct NothingLostPropertyTests {
    /// A decode of one format with its report.
    typealias Decode = @Sendable ([UInt8]) throws -> (Message, DecodingReport)

    static let decodeJSON: Decode = { bytes in
        var report = DecodingReport()
        let message = try Message(jsonUTF8Bytes: bytes, options: JSONDecodingOptions(ignoreUnknownFields: true), report: &report)
        return (message, report)
    }

    static let decodeTIMREST: Decode = { bytes in
        var report = DecodingReport()
        let message = try Message(timRESTUTF8Bytes: bytes, report: &report)
        return (message, report)
    }

    /// Counts of documents checked and accepted, so that a generator that only makes rejected
    /// documents fails instead of proving nothing.
    final class Tally: @unchecked Sendable {
        var documents = 0
        var accepted = 0
        var keysChecked = 0
        var keysReported = 0
    }

    @Test func everyKeyOfAGeneratedProto3JSONDocumentIsReadOrReported() async {
        let tally = Tally()
        let documents = IMWireGen.model(MessageGenerationOptions.small.jsonExact()) { generator -> [UInt8] in
            let message = generator.message()
            guard let json = try? message.jsonUTF8Bytes(), let tree = JSONTree(json) else { return [] }
            return Self.editJSON(tree, &generator.rng).bytes
        }
        await propertyCheck(count: PropertyIterations.count(default: 150), input: documents) { document in
            Self.check(document, decode: Self.decodeJSON, tally: tally)
        }
        Self.expectCoverage(tally)
    }

    @Test func everyKeyOfAGeneratedTimRESTDocumentIsReadOrReported() async {
        let tally = Tally()
        let documents = IMWireGen.model(MessageGenerationOptions.small.jsonExact()) { generator -> [UInt8] in
            let message = TIMRESTRepresentable.project(generator.message())
            guard let rest = try? message.timRESTUTF8Bytes(), let tree = JSONTree(rest) else { return [] }
            return Self.editTIMREST(tree, &generator.rng).bytes
        }
        await propertyCheck(count: PropertyIterations.count(default: 150), input: documents) { document in
            Self.check(document, decode: Self.decodeTIMREST, tally: tally)
        }
        Self.expectCoverage(tally)
    }

    /// Binary keeps what it does not know: every field of a generated message — unknown fields of
    /// every wire type at every level included — comes back byte for byte.
    @Test func everyFieldOfAGeneratedBinaryMessageSurvivesTheRoundTrip() async {
        await propertyCheck(count: PropertyIterations.count(default: 300), input: IMWireGen.message(.small)) { message in
            do {
                let bytes = try message.serializedBytes()
                let decoded = try Message(serializedBytes: bytes)
                #expect(decoded == message)
                #expect(try decoded.serializedBytes() == bytes)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    // MARK: - The check

    static func expectCoverage(_ tally: Tally) {
        #expect(tally.documents > 0)
        #expect(tally.accepted * 2 >= tally.documents, "only \(tally.accepted) of \(tally.documents) documents decoded")
        #expect(tally.keysChecked > tally.documents, "\(tally.keysChecked) keys")
        #expect(tally.keysReported > 0, "the edits never made a key to skip")
    }

    /// The property for one document.
    static func check(_ document: [UInt8], decode: Decode, tally: Tally) {
        guard let tree = JSONTree(document) else { return }
        tally.documents += 1
        guard let (message, report) = try? decode(document) else { return }
        tally.accepted += 1
        let reported = Dictionary(report.skippedKeys.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        tally.keysReported += report.skippedKeys.count
        let text = String(decoding: document, as: UTF8.self)

        // Every report names a key (or value) the document has.
        let paths = Set(tree.nodes.map(JSONTree.path))
        for skipped in report.skippedKeys {
            #expect(paths.contains(skipped.path), "reported \(skipped.path), which \(text) does not have")
        }

        for steps in tree.leaves where !isRedundantSpelling(tree, steps) {
            let path = JSONTree.path(steps)
            // A leaf inside a reported key (its value skipped whole) is covered by that report.
            let enclosing = steps.indices.lazy.map { JSONTree.path(Array(steps[...$0])) }.first { reported[$0] != nil }
            var edited = tree
            edited[steps] = perturbed(tree[steps], key: steps.last)
            let outcome = try? decode(edited.bytes)
            tally.keysChecked += 1
            if let enclosing, let skipped = reported[enclosing] {
                if skipped.reason == .unknownKey, let (again, _) = outcome {
                    #expect(again == message, "\(enclosing) is reported as unknown, but changing \(path) changed the message: \(text)")
                }
                continue
            }
            guard let (again, againReport) = outcome else { continue }  // the value was read: changing it broke the document
            #expect(again != message || againReport != report,
                    "\(path) is neither represented nor reported: changing it changed nothing in \(text)")
        }
    }

    /// The one key whose every value means the same as its sibling: `GroupAtAllFlag` next to a
    /// `GroupAt_Account` that is the @all ID — 0 ("this member") and 1 ("everyone") both mean @all
    /// there (the TimRest article: either SDK spelling of the @all ID reads as @all). The account
    /// itself is still checked.
    static func isRedundantSpelling(_ tree: JSONTree, _ steps: [JSONTree.Step]) -> Bool {
        guard case .member(_, "GroupAtAllFlag")? = steps.last,
              case .string(let account)? = tree[Array(steps.dropLast())]["GroupAt_Account"] else { return false }
        return Message.isAtAllUserID(account)
    }

    /// Another value of the same kind: a string gets a letter, a boolean flips, null becomes a string,
    /// a tim-rest flag (where any non-zero number means set) turns 0 ↔ 1, an integer goes up by one,
    /// any other number changes too. Not 0 for every number: 0 is the one value some keys give a
    /// meaning to (`MsgLifeTime` 0 is "online only"), so changing a lifetime to 0 would prove that the
    /// key is read without proving its value is kept.
    static func perturbed(_ value: JSONTree, key: JSONTree.Step?) -> JSONTree {
        switch value {
        case .string(let string): return .string(string + "q")
        case .bool(let flag): return .bool(!flag)
        case .null: return .string("q")
        case .object, .array: return value
        case .number(let text):
            if case .member(_, let name)? = key, timRESTFlags.contains(name) { return .number(Double(text) == 0 ? "1" : "0") }
            if let incremented = incremented(text) { return .number(incremented) }
            let number = Double(text) ?? 0
            return .number(String(abs(number) > 1e300 ? number / 2 : number * 2 + 1))
        }
    }

    /// The tim-rest keys whose numbers are flags: 0 is off, any other number on.
    static let timRESTFlags: Set<String> = [
        "OnlineOnlyFlag", "MsgOnlineOnlyFlag", "IsNeedReadReceipt", "NeedReadReceipt", "SupportMessageExtension", "PushFlag",
        "BadgeMode", "MutableContent",
    ]

    /// A decimal integer plus one, of any size (`-3` → `-2`); `nil` for a number that is not an integer.
    static func incremented(_ text: String) -> String? {
        let negative = text.hasPrefix("-")
        var digits = Array(negative ? text.dropFirst() : text[...])
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        if negative {
            // -n + 1 = -(n - 1)
            var index = digits.count - 1
            while digits[index] == "0" { digits[index] = "9"; index -= 1 }
            digits[index] = Character(String(digits[index].wholeNumberValue! - 1))
            let magnitude = String(digits).drop { $0 == "0" }
            return magnitude.isEmpty ? "0" : "-" + magnitude
        }
        var index = digits.count - 1
        while index >= 0, digits[index] == "9" { digits[index] = "0"; index -= 1 }
        if index < 0 { digits.insert("1", at: 0) } else { digits[index] = Character(String(digits[index].wholeNumberValue! + 1)) }
        return String(digits)
    }

    // MARK: - Editing proto3 JSON

    static func editJSON(_ tree: JSONTree, _ rng: inout TestRandom) -> JSONTree {
        var tree = tree
        let strayKeys = ["colour", "Sender", "msgid", "Elems", "MsgBody", "x_1", "From_Account"]
        for _ in 0..<rng.int(0...3) {
            let objects = tree.objects
            let at = rng.pick(objects)
            tree[at] = tree[at].setting(rng.pick(strayKeys), rng.pick([.string("v"), .number("7"), .null, .object([("a", .array([.bool(true)]))])]))
        }
        // A proto name instead of a JSON name, an enum name the schema does not know, a null.
        for steps in tree.leaves where rng.chance(0.15) {
            guard case .member(let index, let key) = steps.last else { continue }
            let parent = Array(steps.dropLast())
            guard case .object(var members) = tree[parent] else { continue }
            switch rng.int(0...2) {
            case 0:
                let snake = key.unicodeScalars.map { $0.properties.isUppercase ? "_" + String($0).lowercased() : String($0) }.joined()
                if !members.contains(where: { $0.key == snake }) { members[index].key = snake }
            case 1:
                if case .string(let name) = members[index].value, name.hasPrefix(name.uppercased().prefix(3)), name.contains("_") {
                    members[index].value = .string(rng.pick([name.lowercased(), name + "_NEW", "UNKNOWN_VALUE"]))
                }
            default:
                members[index].value = .null
            }
            tree[parent] = .object(members)
        }
        return tree
    }

    // MARK: - Editing tim-rest

    static func editTIMREST(_ tree: JSONTree, _ rng: inout TestRandom) -> JSONTree {
        var tree = tree
        let envelopes = tree.objects.filter { tree[$0]["MsgBody"] != nil }
        let strayKeys: [(String, JSONTree)] = [
            ("Colour", .string("red")), ("from_account", .string("x")), ("msgBody", .array([])), ("sender", .string("a")),
            ("EventTime", .number("1670574414123")), ("SyncOtherMachine", .number("2")), ("Type", .string("Public")),
            ("MsgClientTime", .number("5")), ("SomeFutureKey", .object([("nested", .array([.number("1"), .null]))])),
        ]
        for steps in envelopes {
            var envelope = tree[steps]
            for _ in 0..<rng.int(0...2) {
                let (key, value) = rng.pick(strayKeys)
                envelope = envelope.setting(key, value)
            }
            // Second spellings, agreeing or not, and the keys with values the model has no field for.
            for (read, other) in [("MsgRandom", "Random"), ("MsgTimeStamp", "MsgTime"), ("IsNeedReadReceipt", "NeedReadReceipt"),
                                  ("OnlineOnlyFlag", "MsgOnlineOnlyFlag")] where rng.chance(0.2) {
                let existing = envelope[read] ?? envelope[other]
                let key = rng.chance(0.5) ? read : other
                envelope = envelope.setting(key, rng.chance(0.5) ? (existing ?? .number("1")) : .number(String(rng.int(0...3))))
            }
            if rng.chance(0.2) { envelope = envelope.setting("MsgLifeTime", .number(rng.pick(["0", "604800"]))) }
            if rng.chance(0.2) {
                let controls: [JSONTree] = (0..<rng.int(1...3)).map { _ in .string(rng.pick(["NoUnread", "NoLastMsg", "WithMuteNotifications", "NoUnRead", "Silent"])) }
                envelope = envelope.setting("SendMsgControl", .array(controls))
            }
            if rng.chance(0.1) { envelope = envelope.setting("MsgType", .string("TIMTextElem")) }
            if case .array(var mentions)? = envelope["GroupAtInfo"], !mentions.isEmpty, rng.chance(0.5) {
                let index = rng.int(0...mentions.count - 1)
                mentions[index] = mentions[index].setting("GroupAt_Account", .string(rng.pick(["tommy", "__kImSDK_MesssageAtALL__"])))
                envelope = envelope.setting("GroupAtInfo", .array(mentions))
            }
            tree[steps] = envelope
        }
        if rng.chance(0.2), case .object = tree {
            tree = tree.setting("CallbackCommand", .string(rng.pick(["C2C.CallbackAfterSendMsg", "Group.CallbackBeforeSendMsg", "Bot.OnC2CMessage"])))
        }
        // Inside elements and contents: stray keys, other download flags, counts beside their lists.
        for steps in tree.objects where steps.last.map({ if case .member(_, "MsgContent") = $0 { true } else { false } }) ?? false {
            var content = tree[steps]
            if rng.chance(0.3) { content = content.setting(rng.pick(["Extra", "text", "uuid"]), .string("v")) }
            for flag in ["Download_Flag", "VideoDownloadFlag", "ThumbDownloadFlag"] where content[flag] != nil && rng.chance(0.3) {
                content = content.setting(flag, .number("1"))
            }
            if content["MsgList"] != nil, rng.chance(0.3) { content = content.setting("MsgNum", .number("999")) }
            tree[steps] = content
        }
        if let push = tree.objects.first(where: { JSONTree.path($0).hasSuffix("OfflinePushInfo") }), rng.chance(0.5) {
            tree[push] = tree[push].setting(rng.pick(["AndroidInfo", "Future"]), .object([("OPPOChannelID", .string("c")), ("sound", .string("s"))]))
        }
        return tree
    }
}
