// Every sentence the library and the command line can say reads right: no doubled word ("is a a
// number"), no article against another ("a JSON an array"), no plural after the count 1 ("these 1
// bytes"), no "a" before a vowel or "an" before a consonant.
//
// Two nets, so that a new bad message fails one of them:
// - dynamically, every error reason, violation reason, skipped-key detail and CLI line that the
//   golden fixtures, their prefixes, limits of 0 and 1, a profile with every limit at 0, and the
//   non-message inputs reach is collected and checked;
// - statically, the sources are scanned: a count interpolated before a plural noun must go through
//   `counted(_:_:)` (the one place that picks singular or plural), and the text of every string
//   literal, its interpolations set aside, is checked like a message.

import Foundation
import IMWire
import IMWireCLI
import IMWireTestSupport
import Testing

@Suite struct WordingTests {
    // MARK: - The checks

    /// What is wrong with `text`, one description per problem.
    static func problems(in text: String) -> [String] {
        var found: [String] = []
        let lowered = text.lowercased()
        for match in lowered.matches(of: /\b([a-z]+) \1\b/) { found.append("doubled word \"\(match.0)\"") }
        for match in lowered.matches(of: /\b(?:a|an|the) (?:json |rest |tim-rest )?(?:a|an|the)\b/) {
            found.append("article clash \"\(match.0)\"")
        }
        for match in text.matches(of: pluralAfterOne) {
            found.append("plural after 1: \"\(match.0)\"")
        }
        for match in lowered.matches(of: /\ba ([aeio][a-z]*)/) where !String(match.1).hasPrefix("one") {
            found.append("\"a\" before a vowel: \"\(match.0)\"")
        }
        for match in lowered.matches(of: /\ban ([bcdfgjklmnpqrstvwxyz][a-z]*)/) {
            found.append("\"an\" before a consonant: \"\(match.0)\"")
        }
        return found
    }

    /// "1" (not part of a larger number), up to two words, and the plural of a noun that messages
    /// count: `1 bytes`, `1 inline messages`, `1 UTF-16 code units`. Nouns only: "field 1 closes
    /// group 100" is right.
    nonisolated(unsafe) static let pluralAfterOne = try! Regex(#"(?:^|[^\d.,\-])\b1 "# + adjectives + #"(?:"# + countedNouns + #")\b"#)

    /// Up to two words between a count and its noun (`inline`, `UTF-16 code`, `message`), never a
    /// verb or a number ("image 1 is 2 bytes" is right).
    static let adjectives = #"(?:(?!(?:is|has|are|was|of|the|and|or) )[A-Za-z@][A-Za-z0-9@-]* ){0,2}"#

    /// The detector sees the mistakes this test exists for, and passes their corrections.
    @Test func theCheckFindsTheIssuesMistakesAndPassesTheirCorrections() {
        for wrong in ["businessID is a a number, not a string", "the data is a JSON an array, not an object",
                      "carries these 1 bytes as a JSON string", "this merger has 1 inline messages", "a array", "an number"] {
            #expect(!Self.problems(in: wrong).isEmpty, "\(wrong)")
        }
        for right in ["businessID is a number, not a string", "the data is JSON but an array, not an object",
                      "carries 1 byte as a JSON string", "this merger has 1 inline message", "1 violation of profile tencent",
                      "1 is allowed", "a one-to-one message", "an object", "a UTF-8 byte-order mark", "11 bytes", "field 1 closes group 100",
                      "2.1 messages"] {
            #expect(Self.problems(in: right).isEmpty, "\(right): \(Self.problems(in: right))")
        }
    }

    // MARK: - Dynamically: every reason the fixtures and hostile inputs reach

    /// Collects sentences and the input each came from.
    final class Sentences {
        var all: [(text: String, source: String)] = []
        func add(_ text: String, _ source: String) { all.append((text, source)) }
        func add(_ error: IMWireError, _ source: String) { add(error.reason, source) }
    }

    @Test func everyReasonTheLibraryGivesReadsRight() throws {
        let sentences = Sentences()
        Self.collectDecodeErrors(sentences)
        Self.collectEncodeErrors(sentences)
        Self.collectViolations(sentences)
        Self.collectSkippedKeys(sentences)
        #expect(sentences.all.count > 3_000, "\(sentences.all.count) sentences")
        var bad = 0
        for (text, source) in sentences.all {
            let problems = Self.problems(in: text)
            if !problems.isEmpty, bad < 50 {
                Issue.record("\(source): \(problems.joined(separator: "; ")): \(text)")
            }
            if !problems.isEmpty { bad += 1 }
        }
        #expect(bad == 0)
    }

    @Test func everyLineTheCommandLinePrintsReadsRight() {
        var lines: [(String, String)] = []
        func run(_ arguments: [String], _ input: [UInt8], _ source: String) {
            let result = CLITests.run(arguments, stdin: input)
            for line in result.stderr.split(separator: "\n") { lines.append((String(line), source)) }
        }
        let formats = ["binary", "json", "tim-rest"]
        for fixture in Fixtures.cases(kind: "valid").prefix(40) + Fixtures.cases(kind: "json_reject") + Fixtures.cases(kind: "tim_rest_reject") {
            let input = fixture.fields["input"] != nil ? fixture.bytes("input") : fixture.bytes("json")
            run(["convert", "--to", "json"], input, fixture.name)
            for format in formats { run(["convert", "--from", format, "--to", "tim-rest"], input, "\(fixture.name) as \(format)") }
        }
        for fixture in Fixtures.cases(kind: "limit") {
            run(["validate", "--profile", fixture.fields["profile"]!], fixture.bytes("json"), fixture.name)
        }
        for fixture in Fixtures.cases(kind: "tim_rest") {
            run(["convert", "--from", "tim-rest", "--to", "binary", "--max-input-size", "1"], fixture.bytes("input"), fixture.name)
            run(["convert", "--from", "tim-rest", "--to", "binary", "--max-depth", "1"], fixture.bytes("input"), fixture.name)
        }
        let nonMessages: [[UInt8]] = [
            Array("null".utf8), Array("12".utf8), Array("\"{}\"".utf8), [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], [0xFF, 0xFE, 0x7B, 0x00],
            [0x1F, 0x8B, 0x08], Array("POST / HTTP/1.1\r\n\r\n{}".utf8), Array("{}\n{}\n".utf8), Array("CgVhbGljZQ==".utf8),
            Array("0a05616c6963".utf8), Array(#"{"a":1}"#.utf8), Array(#"{"sender":"a","MsgBody":[]}"#.utf8),
        ]
        for input in nonMessages {
            run(["convert", "--to", "json"], input, String(decoding: input, as: UTF8.self))
            for format in formats { run(["convert", "--from", format, "--to", "json"], input, String(decoding: input, as: UTF8.self)) }
            run(["inspect"], input, String(decoding: input, as: UTF8.self))
        }
        run(["convert", "--stream", "--from", "json", "--to", "json"], Array("{}\n{\"x\":1}\n".utf8), "stream of two")
        run(["convert", "--stream", "--from", "json", "--to", "json", "--continue-on-error"], Array("{\"x\":1}\n".utf8), "stream of one")
        #expect(lines.count > 500)
        for (line, source) in lines {
            let problems = Self.problems(in: line)
            #expect(problems.isEmpty, "\(source): \(problems.joined(separator: "; ")): \(line)")
        }
    }

    /// Every reject fixture in its format, every prefix of a few valid inputs in every format, and
    /// valid inputs under limits of 0 and 1 (the counts most likely to get the wrong noun).
    static func collectDecodeErrors(_ sentences: Sentences) {
        func decode(_ input: [UInt8], as format: String, depth: Int = 320, size: Int = 1 << 23, source: String) {
            do {
                switch format {
                case "binary":
                    _ = try Message(serializedBytes: input, options: BinaryDecodingOptions(maxDepth: depth, maxInputSize: size))
                case "json":
                    _ = try Message(jsonUTF8Bytes: input, options: JSONDecodingOptions(maxDepth: depth, maxInputSize: size))
                default:
                    _ = try Message(timRESTUTF8Bytes: input, options: TIMRESTDecodingOptions(maxDepth: depth, maxInputSize: size, rejectsUnknownKeys: true))
                }
            } catch {
                sentences.add(error, "\(source) as \(format)")
            }
        }
        for fixture in Fixtures.cases(kind: "invalid_binary") { decode(fixture.bytes("input"), as: "binary", source: fixture.name) }
        for fixture in Fixtures.cases(kind: "json_reject") { decode(fixture.bytes("input"), as: "json", source: fixture.name) }
        for fixture in Fixtures.cases(kind: "tim_rest_reject") where fixture.fields["input"] != nil {
            decode(fixture.bytes("input"), as: "tim-rest", source: fixture.name)
        }
        let valid = Fixtures.cases(kind: "valid").prefix(30).map { ($0.name, $0.bytes("binpb"), $0.bytes("json")) }
        let rest = Fixtures.cases(kind: "tim_rest").prefix(30).map { ($0.name, $0.bytes("input")) }
        for (name, binary, json) in valid {
            for cut in 0..<binary.count { decode(Array(binary.prefix(cut)), as: "binary", source: "\(name) cut at \(cut)") }
            for cut in stride(from: 0, to: json.count, by: 3) { decode(Array(json.prefix(cut)), as: "json", source: "\(name) cut at \(cut)") }
            for limit in [0, 1, 2] {
                decode(binary, as: "binary", depth: max(limit, 1), size: limit == 0 ? 0 : 1 << 23, source: "\(name) limit \(limit)")
                decode(json, as: "json", depth: max(limit, 1), size: limit, source: "\(name) limit \(limit)")
            }
        }
        for (name, input) in rest {
            for cut in stride(from: 0, to: input.count, by: 5) { decode(Array(input.prefix(cut)), as: "tim-rest", source: "\(name) cut at \(cut)") }
            for limit in [1, 2] { decode(input, as: "tim-rest", depth: limit, size: limit, source: "\(name) limit \(limit)") }
        }
    }

    /// Every message of the fixtures written as tim-rest (its refusals), and with a depth limit of 1
    /// in every format.
    static func collectEncodeErrors(_ sentences: Sentences) {
        var messages: [(String, Message)] = []
        for fixture in Fixtures.cases(kind: "valid") + Fixtures.cases(kind: "limit") + Fixtures.cases(kind: "tim_rest_export_reject") {
            if let message = try? Message(serializedBytes: fixture.bytes("binpb"), options: BinaryDecodingOptions(maxDepth: 1000)) {
                messages.append((fixture.name, message))
            }
        }
        for (name, message) in messages {
            do { _ = try message.timRESTUTF8Bytes() } catch { sentences.add(error, "\(name) to tim-rest") }
            do { _ = try message.serializedBytes(options: BinaryEncodingOptions(maxDepth: 1)) } catch { sentences.add(error, "\(name) to binary, depth 1") }
            do { _ = try message.jsonUTF8Bytes(options: JSONEncodingOptions(maxDepth: 1)) } catch { sentences.add(error, "\(name) to JSON, depth 1") }
            do { _ = try message.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(maxDepth: 1)) } catch { sentences.add(error, "\(name) to tim-rest, depth 1") }
        }
    }

    /// Every violation of every fixture message under every preset and under a profile whose every
    /// limit is 0 and every rule on (so that counts of 1 are reported).
    static func collectViolations(_ sentences: Sentences) {
        var strictest = ValidationProfile.tencent
        strictest.name = "strictest"
        for keyPath: WritableKeyPath<ValidationProfile, Int?> in [
            \.maxContentBytes, \.maxElems, \.maxCustomElems, \.maxImageElems, \.maxFileElems, \.maxSoundElems, \.maxVideoElems,
            \.maxTextBytes, \.maxBarrageBytes, \.maxCustomDataBytes, \.maxImageBytes, \.maxSoundBytes, \.maxVideoBytes, \.maxFileBytes,
            \.maxSoundSeconds, \.maxMergerMessages, \.maxMergerAbstracts, \.maxMergerAbstractLength, \.maxMergerLayers, \.maxAtUsers,
            \.maxTargetedReceivers, \.maxUserIDBytes, \.maxGroupNameBytes, \.maxGroupIntroductionBytes, \.maxGroupNotificationBytes,
            \.maxGroupFaceURLBytes,
        ] {
            strictest[keyPath: keyPath] = 0
        }
        strictest.forbidsMessageToSelf = true
        strictest.barrageRequiresRoomText = true
        strictest.atUsersRequireText = true
        strictest.requiresTUIKitCustomData = true
        strictest.appendableElemKinds = []
        strictest.supportedElemKinds = []
        strictest.allowedPriorities = []
        strictest.allowedImageFormats = []
        strictest.allowedSoundFormats = []
        strictest.allowedVideoFormats = []
        strictest.allowedPlatforms = []
        for fixture in Fixtures.cases(kind: "limit") + Fixtures.cases(kind: "valid") {
            guard let message = try? Message(serializedBytes: fixture.bytes("binpb"), options: BinaryDecodingOptions(maxDepth: 1000)) else { continue }
            for profile in ValidationProfile.presets + [strictest] {
                for violation in message.validate(profile: profile) {
                    sentences.add(violation.reason, "\(fixture.name) under \(profile.name)")
                    sentences.add(violation.description, "\(fixture.name) under \(profile.name)")
                }
            }
        }
    }

    /// The skipped keys of every tim-rest fixture input, and of each input with its keys' case changed.
    static func collectSkippedKeys(_ sentences: Sentences) {
        for fixture in Fixtures.cases(kind: "tim_rest") {
            for input in [fixture.text("input"), fixture.text("input").lowercased()] {
                var report = DecodingReport()
                _ = try? Message(timRESTUTF8Bytes: Array(input.utf8), report: &report)
                for skipped in report.skippedKeys { sentences.add(skipped.description, fixture.name) }
            }
        }
        for fixture in Fixtures.cases(kind: "json_accept") {
            var report = DecodingReport()
            let input = String(decoding: fixture.bytes("input"), as: UTF8.self).uppercased()
            _ = try? Message(jsonUTF8Bytes: Array(input.utf8), options: JSONDecodingOptions(ignoreUnknownFields: true), report: &report)
            for skipped in report.skippedKeys { sentences.add(skipped.description, fixture.name) }
        }
    }

    // MARK: - Statically: the sources

    static let sources: [URL] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files: [URL] = []
        for folder in LibraryModules.names.map({ "Sources/\($0)" }) + ["Sources/IMWireCLI"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if url.pathExtension == "swift", !url.path.contains("/Generated/") { files.append(url) }
            }
        }
        return files.sorted { $0.path < $1.path }
    }()

    /// Nouns that a count must not be interpolated in front of except through `counted(_:_:)`.
    static let countedNouns = "bytes|messages|elems|elements|entries|levels|layers|keys|members|receivers|users|images|abstracts|records|seconds|units|fields|violations|items|characters|times|values|lines|digits|groups|IDs"

    /// Interpolations before a plural noun that are no count: reviewed, with why.
    static let notCounts: [String: String] = [
        #"\(prefix) bytes"#: "WireInspector: the field's type name, bytes",
        #"\(fullName) has \(fields.count) fields"#: "ProtoMessage: a precondition on the generated schema (more than 128 fields), never a message",
    ]

    @Test func noCountIsInterpolatedBeforeAPluralNounWithoutCounted() throws {
        #expect(Self.sources.count > 50)
        let pattern = try Regex(#"\\\((?:[^()]|\([^()]*\))*\) "# + Self.adjectives + #"(?:"# + Self.countedNouns + #")\b"#)
        var found: [String] = []
        for url in Self.sources {
            let text = try String(contentsOf: url, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for match in line.matches(of: pattern) where !Self.notCounts.keys.contains(where: { line.contains($0) && String(match.0) == $0.suffix(match.0.count) }) {
                    found.append("\(url.lastPathComponent):\(index + 1): \(match.0)")
                }
            }
        }
        #expect(found.isEmpty, "use counted(_:_:): \(found)")
    }

    @Test func everyStringLiteralInTheSourcesReadsRight() throws {
        var found: [String] = []
        for url in Self.sources {
            let text = try String(contentsOf: url, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                // The text of each string literal on the line, interpolations replaced by a
                // placeholder no check treats as a word.
                for literal in code.matches(of: /"((?:[^"\\]|\\.)*)"/) {
                    let words = String(literal.1).replacing(/\\\((?:[^()]|\([^()]*\))*\)/, with: "⟨⟩")
                    for problem in Self.problems(in: words) { found.append("\(url.lastPathComponent):\(index + 1): \(problem)") }
                }
            }
        }
        #expect(found.isEmpty, "\(found)")
    }
}
