import Foundation
import IMWire
import IMWireCLI
import IMWireTestSupport
import Testing

/// The reference documentation (the DocC catalog) and the package's own files agree with the code:
/// every error and violation code is in the tables, the limit tables say what the presets check,
/// the docs point at nothing outside the repository, and the version is written once.
@Suite struct DocumentationTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // IMWireTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
    static let catalog = repository.appendingPathComponent("Sources/IMWire/IMWire.docc")

    static func read(_ path: String, in directory: URL = repository) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
    }

    /// The rows of the first table after the heading `### title` (or `## title`): its cells, trimmed,
    /// without the header and delimiter rows.
    static func table(after title: String, in text: String) throws -> [[String]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("#") && $0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) == title },
                                   "no heading \(title)")
        let start = try #require(lines[heading...].firstIndex { $0.hasPrefix("|") }, "no table after \(title)")
        let rows = lines[start...].prefix { $0.hasPrefix("|") }.dropFirst(2)
        return rows.map { row in
            row.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The code names in a cell: every `` `snake_case` `` word.
    static func codes(in cell: String) -> [String] {
        cell.matches(of: /`([a-z0-9]+(?:_[a-z0-9]+)*)`/).map { String($0.1) }
    }

    // MARK: - Error codes

    @Test func theErrorCodesArticleListsEveryCodeAndNoOther() throws {
        let rows = try Self.table(after: "Codes", in: Self.read("ErrorCodes.md", in: Self.catalog))
        let documented = rows.flatMap { Self.codes(in: $0[0]) }
        #expect(Set(documented) == Set(IMWireError.Code.all.map(\.name)))
        #expect(documented.count == IMWireError.Code.all.count, "each code once")
        for row in rows { #expect(row.count == 3 && !row[1].isEmpty, "\(row)") }
    }

    /// Every `error: WORD:` line the command line can print is documented: the library's codes, the
    /// violation codes (in the validation article), and the codes of the CLI's own failures, found
    /// in its source so that a new one cannot be added without a row.
    @Test func everyCodeTheCommandLinePrintsIsDocumented() throws {
        let sources = try FileManager.default.contentsOfDirectory(
            atPath: Self.repository.appendingPathComponent("Sources/IMWireCLI").path)
        var printed: Set<String> = []
        for file in sources where file.hasSuffix(".swift") {
            let text = try Self.read("Sources/IMWireCLI/\(file)")
            printed.formUnion(text.matches(of: /CLIFailure\(message: "([a-z_]+):/).map { String($0.1) })
            printed.formUnion(text.matches(of: /ioErrorCode = "([a-z_]+)"/).map { String($0.1) })
        }
        #expect(printed.contains("io_error") && printed.contains("conformance"), "the scan found \(printed)")
        let cliRows = try Self.table(after: "On the command line", in: Self.read("ErrorCodes.md", in: Self.catalog))
        let cliCodes = Set(cliRows.flatMap { Self.codes(in: $0[0]) })
        #expect(printed.subtracting(cliCodes).isEmpty, "not in ErrorCodes.md: \(printed.subtracting(cliCodes))")
        #expect(cliCodes.isDisjoint(with: IMWireError.Code.all.map(\.name)))
    }

    @Test func theIOErrorLineIsTheDocumentedOne() {
        let result = CLI.run(arguments: ["inspect", "/nonexistent/imwire"], io: .standard)
        #expect(result.stderr == "error: io_error: cannot read /nonexistent/imwire: No such file or directory\n")
    }

    /// The `inspect` example in Docs/cli.md is what the command prints for that fixture.
    @Test func theInspectExampleIsWhatInspectPrints() throws {
        let page = try Self.read("Docs/cli.md")
        let command = "$ imwire inspect Fixtures/valid/elem_face_all_fields.binpb\n"
        let start = try #require(page.range(of: command)).upperBound
        let end = try #require(page.range(of: "```", range: start..<page.endIndex)).lowerBound
        let path = Self.repository.appendingPathComponent("Fixtures/valid/elem_face_all_fields.binpb").path
        let result = CLI.run(arguments: ["inspect", path], io: .standard)
        #expect(String(decoding: result.stdout, as: UTF8.self) == String(page[start..<end]))
    }

    // MARK: - Validation

    @Test func theValidationArticleListsEveryViolationCode() throws {
        let text = try Self.read("ValidationProfiles.md", in: Self.catalog)
        let all = Set(Violation.Code.all.map(\.name))
        let listed = try Self.table(after: "Violation codes", in: text).flatMap { Self.codes(in: $0[0]) }
        #expect(Set(listed) == all)
        let limitRows = try Self.table(after: "Limits per profile", in: text)
        let inLimits = limitRows.flatMap { Self.codes(in: $0[5]) }
        #expect(Set(inLimits) == all, "the limits table's code column")
    }

    /// The limits table's numbers are the presets' numbers: a changed preset fails here until the
    /// table (and its source) is updated.
    @Test func theLimitsTableSaysWhatThePresetsCheck() throws {
        let properties: [String: KeyPath<ValidationProfile, Int?>] = [
            "maxContentBytes": \.maxContentBytes, "maxElems": \.maxElems, "maxCustomElems": \.maxCustomElems,
            "maxImageElems": \.maxImageElems, "maxFileElems": \.maxFileElems, "maxSoundElems": \.maxSoundElems,
            "maxVideoElems": \.maxVideoElems, "maxTextBytes": \.maxTextBytes, "maxBarrageBytes": \.maxBarrageBytes,
            "maxCustomDataBytes": \.maxCustomDataBytes, "maxImageBytes": \.maxImageBytes, "maxSoundBytes": \.maxSoundBytes,
            "maxVideoBytes": \.maxVideoBytes, "maxFileBytes": \.maxFileBytes, "maxSoundSeconds": \.maxSoundSeconds,
            "maxMergerMessages": \.maxMergerMessages, "maxMergerAbstracts": \.maxMergerAbstracts,
            "maxMergerAbstractLength": \.maxMergerAbstractLength, "maxMergerLayers": \.maxMergerLayers,
            "maxAtUsers": \.maxAtUsers, "maxTargetedReceivers": \.maxTargetedReceivers, "maxUserIDBytes": \.maxUserIDBytes,
            "maxGroupNameBytes": \.maxGroupNameBytes, "maxGroupIntroductionBytes": \.maxGroupIntroductionBytes,
            "maxGroupNotificationBytes": \.maxGroupNotificationBytes, "maxGroupFaceURLBytes": \.maxGroupFaceURLBytes,
        ]
        let rows = try Self.table(after: "Limits per profile", in: Self.read("ValidationProfiles.md", in: Self.catalog))
        var checked: Set<String> = []
        for row in rows {
            guard let property = Self.codes(in: row[3]).first ?? row[3].matches(of: /`(\w+)`/).first.map({ String($0.1) }),
                  let keyPath = properties[property] else { continue }
            checked.insert(property)
            #expect(Self.limit(row[1]) == ValidationProfile.tencent[keyPath: keyPath], "tencent \(property): \(row[1])")
            #expect(Self.limit(row[2]) == ValidationProfile.zim[keyPath: keyPath], "zim \(property): \(row[2])")
        }
        #expect(checked == Set(properties.keys), "rows missing for \(Set(properties.keys).subtracting(checked))")
    }

    /// `—` is no limit; `12 KB`, `28 MB`, `300 s`, `32 bytes`, `100 layers`, `5`.
    static func limit(_ cell: String) -> Int? {
        guard let match = cell.firstMatch(of: /^(\d+)\s*(KB|MB)?/) else { return nil }
        let number = Int(match.1)!
        switch match.2 {
        case "KB"?: return number * 1024
        case "MB"?: return number * 1024 * 1024
        default: return number
        }
    }

    /// A ZIM text to a room: the reference (its decision, its limits table), the vendor coverage page
    /// and the `zim` preset say the same — a Text message of `maxTextBytes` unless the barrage flag
    /// makes it a Barrage of `maxBarrageBytes` — and a room text at and one byte past the number the
    /// reference gives is what the preset accepts and refuses.
    @Test func theZIMRoomTextLimitInTheReferenceIsTheProfiles() throws {
        let textLimit = try #require(ValidationProfile.zim.maxTextBytes)
        let barrageLimit = try #require(ValidationProfile.zim.maxBarrageBytes)
        let article = try Self.read("ValidationProfiles.md", in: Self.catalog)
        let decision = try #require(article.split(separator: "\n- ").first { $0.hasPrefix("**ZIM text in a room**") })
        let numbers = decision.matches(of: /(\d+) KB/).map { Int($0.1)! * 1024 }
        #expect(numbers.first == textLimit, "the room text's limit in the reference: \(decision)")
        #expect(numbers.contains(barrageLimit), "\(decision)")
        #expect(decision.contains("barrage"), "\(decision)")
        let rows = try Self.table(after: "Limits per profile", in: article)
        let textRow = try #require(rows.first { $0[3] == "`maxTextBytes`" })
        #expect(textRow[0].contains("rooms included"), "\(textRow[0])")
        #expect(Self.limit(textRow[2]) == textLimit)

        let coverage = try Self.read("Docs/vendor-coverage.md")
        let roomDecision = try #require(coverage.split(separator: "\n- ").first { $0.hasPrefix("**A text to a ZIM room.**") })
        #expect(roomDecision.matches(of: /(\d+) KB/).map { Int($0.1)! * 1024 } == [textLimit, barrageLimit], "\(roomDecision)")
        let textCoverage = try #require(coverage.split(separator: "\n").first { $0.hasPrefix("| ZIMTextMessage (1)") })
        #expect(textCoverage.contains("\(textLimit / 1024) KB") && textCoverage.contains("in rooms too"), "\(textCoverage)")

        func roomText(_ bytes: Int, barrage: Bool) -> Message {
            var message = Message(sender: "alice", target: .roomID("room"), elems: [.text(String(repeating: "x", count: bytes))])
            message.barrage = barrage
            return message
        }
        let first = try #require(numbers.first)
        #expect(roomText(first, barrage: false).validate(profile: .zim).isEmpty)
        #expect(roomText(first + 1, barrage: false).validate(profile: .zim).map(\.code) == [.textTooLarge])
        #expect(roomText(barrageLimit + 1, barrage: true).validate(profile: .zim).map(\.code) == [.barrageTooLarge])
    }

    @Test func theAlwaysRulesAndFormatsAreThePresets() {
        #expect(ValidationProfile.zim.allowedImageFormats == [.jpg, .png, .bmp, .tiff, .gif, .webp])
        #expect(ValidationProfile.zim.allowedSoundFormats == ["mp3", "m4a"])
        #expect(ValidationProfile.zim.allowedVideoFormats == ["mp4", "mov"])
        #expect(ValidationProfile.tencent.appendableElemKinds == nil)
        #expect(ValidationProfile.tencentSDK.appendableElemKinds == [.text, .custom, .face, .location])
    }

    // MARK: - Standing on its own

    @Test func theArticlesCiteNothingOutsideTheRepository() throws {
        let articles = try FileManager.default.contentsOfDirectory(atPath: Self.catalog.path).filter { $0.hasSuffix(".md") }
        #expect(articles.count >= 10)
        for article in articles {
            let text = try Self.read(article, in: Self.catalog)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                #expect(line.firstMatch(of: /\bSPEC\b|shared\/|seeds\/|seed 0\d\d/) == nil, "\(article):\(index + 1): \(line)")
            }
        }
    }

    /// The developers' documents name files that exist: every `` `….swift` `` path in them is a file
    /// of the repository (from its root, or from `Sources/`), and every bare `` `Name.swift` `` is a file
    /// somewhere in it, so that moving a file, as splitting the library into modules moved every one,
    /// cannot leave a document pointing at nothing.
    @Test func theDevelopersDocumentsNameFilesThatExist() throws {
        let files = FileManager.default
        var names = Set<String>()
        for top in ["Sources", "Tests", "Benchmarks", "Examples", "Scripts"] {
            let enumerator = files.enumerator(atPath: Self.repository.appendingPathComponent(top).path)
            while let path = enumerator?.nextObject() as? String {
                if !path.contains(".build") { names.insert((path as NSString).lastPathComponent) }
            }
        }
        for document in ["Docs/architecture.md", "Docs/development.md"] {
            let text = try Self.read(document)
            let paths = text.matches(of: /`([A-Za-z0-9_+.\/-]+\.swift)`/).map { String($0.1) }
            #expect(paths.count > 5, "\(document) names \(paths.count) Swift files")
            for path in Set(paths) {
                if path.contains("/") {
                    let found = [path, "Sources/" + path].contains {
                        files.fileExists(atPath: Self.repository.appendingPathComponent($0).path)
                    }
                    #expect(found, "\(document) names \(path), which is not a file of the repository")
                } else {
                    #expect(names.contains(path), "\(document) names \(path), which no folder of the repository holds")
                }
            }
        }
    }

    /// Users have neither our tracker nor our history: "issue 33", or a design named by its commit
    /// hash, says nothing to them, so the documents they read name things by what they are.
    /// Docs/benchmarks.md names commits in one section only, the one that says how to reproduce a
    /// past run; the bench's scripts and harnesses are read for issue numbers in what they print.
    @Test func theDocumentsSpeakToReadersNotToOurHistory() throws {
        let documents = try Self.documentsForReaders()
        #expect(documents.count > 100, "the scan found \(documents.count) files")
        let scan = Self.historyReferences(in: documents)
        if !scan.checkedHashes {
            // A tarball has no history a hash could name; the issue numbers were still looked for.
            let note: Comment = "git cannot be asked about \(Self.repository.path): commit hashes were not looked for"
            #if compiler(>=6.3)
            Issue.record(note, severity: .warning)
            #else
            print(note)
            #endif
        }
        for problem in scan.problems { Issue.record("\(problem)") }
    }

    /// The check can fail: a planted article that cites an issue and the repository's own HEAD gives
    /// exactly those two problems (the hash one only where git can be asked), and words that merely
    /// look like references give none.
    @Test func theHistoryCheckFailsOnAPlantedReference() throws {
        let head = Self.git(["rev-parse", "HEAD"])?.trimmingCharacters(in: .whitespacesAndNewlines)
        // Seven characters, as a document abbreviates a hash; more when those seven are all digits or
        // all letters (about one commit in 26), which the check takes for a number or a word.
        let planted = head.flatMap { head in
            (7...head.count).lazy.map { String(head.prefix($0)) }.first { Self.hexWords(in: $0[...]).count == 1 }
        }
        let file = "Sources/IMWire/IMWire.docc/Planted.md"
        let article = """
            # Planted

            The view reads every field in place, as issue 12 asked.

            Measured at \(planted ?? "HEAD") on two shared cores.

            No reference: 0x7FFF, deadbeef, 20261127, an issue without a number, issues/12 in a path.
            """
        let scan = Self.historyReferences(in: [(file, article)])
        #expect(scan.checkedHashes == (head != nil), "git answered rev-parse but not cat-file, or the reverse")
        try #require(scan.problems.count == (scan.checkedHashes ? 2 : 1), "\(scan.problems)")
        #expect(scan.problems[0] == "\(file):3: names issue 12: The view reads every field in place, as issue 12 asked.")
        if scan.checkedHashes {
            let hash = try #require(planted)
            #expect(scan.problems[1] == "\(file):5: names commit \(hash): Measured at \(hash) on two shared cores.")
        }
    }

    /// Docs/benchmarks.md may name a commit in its reproduction section and nowhere else.
    @Test func aCommitOutsideTheReproductionSectionIsFlagged() throws {
        let head = try #require(Self.git(["rev-parse", "HEAD"])?.trimmingCharacters(in: .whitespacesAndNewlines))
        let hash = try #require((7...head.count).lazy.map { String(head.prefix($0)) }.first { Self.hexWords(in: $0[...]).count == 1 })
        let text = """
            # Benchmarks

            Measured at \(hash).

            \(Self.reproductionSection)

            Built from \(hash).

            ## Files
            """
        let scan = Self.historyReferences(in: [("Docs/benchmarks.md", Self.withoutHashes(inSection: Self.reproductionSection, of: text))])
        try #require(scan.checkedHashes)
        #expect(scan.problems == ["Docs/benchmarks.md:3: names commit \(hash): Measured at \(hash)."])
    }

    /// The documents a user reads, each as its path in the repository and its text: README.md,
    /// Examples/README.md, Docs/*.md but benchmarks.md, every article of every DocC catalogue, and the
    /// `///` lines of every Swift source (the other lines blanked, so that line numbers still hold).
    static func documentsForReaders() throws -> [(file: String, text: String)] {
        let files = FileManager.default
        var documents: [(file: String, text: String)] = try ["README.md", "Examples/README.md", "CHANGELOG.md"].map { ($0, try read($0)) }
        for name in try files.contentsOfDirectory(atPath: repository.appendingPathComponent("Docs").path).sorted()
        where name.hasSuffix(".md") {
            let text = try read("Docs/" + name)
            documents.append(("Docs/" + name, name == "benchmarks.md" ? withoutHashes(inSection: reproductionSection, of: text) : text))
        }
        // The bench's labels: what its harnesses and report print, and how Scripts/bench describes itself.
        for path in ["Benchmarks/Harness/report.py", "Benchmarks/Harness/chart.py", "Benchmarks/Harness/malloc_targets.py", "Scripts/bench"] {
            documents.append((path, try read(path).replacing(/[0-9a-f]{7,40}/, with: { _ in "" })))
        }
        let sources = repository.appendingPathComponent("Sources")
        let paths = try #require(files.enumerator(atPath: sources.path)).compactMap { $0 as? String }.sorted()
        for path in paths {
            let components = path.split(separator: "/")
            if path.hasSuffix(".md"), components.count > 2, components[1].hasSuffix(".docc") {
                documents.append(("Sources/" + path, try read(path, in: sources)))
            } else if path.hasSuffix(".swift") {
                let lines = try read(path, in: sources).split(separator: "\n", omittingEmptySubsequences: false)
                let comments = lines.map { $0.trimmingCharacters(in: .whitespaces).hasPrefix("///") ? String($0) : "" }
                documents.append(("Sources/" + path, comments.joined(separator: "\n")))
            }
        }
        return documents
    }

    /// The one section of Docs/benchmarks.md that names commits: how to build and run a past design.
    static let reproductionSection = "## Reproducing a past run"

    /// `text` with the words that look like commit hashes blanked between the `section` heading and
    /// the next `## ` heading (issue numbers are kept, and still looked for).
    static func withoutHashes(inSection section: String, of text: String) -> String {
        var inside = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("## ") { inside = line == section }
            guard inside else { return String(line) }
            var kept = String(line)
            for word in hexWords(in: line) { kept = kept.replacingOccurrences(of: String(word), with: "") }
            return kept
        }.joined(separator: "\n")
    }

    /// What in `documents` points at our tracker or our history, as "file:line: names what: the line",
    /// in document order: an issue number (`issue 33`, `issues 21–32`, `issue #7`), or a word that
    /// `hexWords` keeps and git resolves to a commit of the repository. `checkedHashes` is false when
    /// git cannot be asked; the issue numbers are looked for all the same.
    static func historyReferences(in documents: [(file: String, text: String)])
        -> (problems: [String], checkedHashes: Bool)
    {
        let issueNumber = /\bissues? #?\d+/.ignoresCase().wordBoundaryKind(.simple)
        var flagged: [(place: String, line: Substring, issues: [Substring], words: [Substring])] = []
        for document in documents {
            for (index, line) in document.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let issues = line.matches(of: issueNumber).map(\.output)
                let words = hexWords(in: line)
                if !issues.isEmpty || !words.isEmpty { flagged.append(("\(document.file):\(index + 1)", line, issues, words)) }
            }
        }
        // Every distinct candidate in one git process: asking per word would start hundreds.
        let resolved = commits(among: Set(flagged.flatMap { $0.words.map(String.init) }).sorted())
        var problems: [String] = []
        for entry in flagged {
            let named = entry.issues.map { "names \($0)" }
                + entry.words.filter { resolved?.contains(String($0)) == true }.map { "names commit \($0)" }
            let text = entry.line.trimmingCharacters(in: .whitespaces)
            problems += named.map { "\(entry.place): \($0): \(text)" }
        }
        return (problems, resolved != nil)
    }

    /// The words of `line` that could be abbreviated commit hashes: 7–40 lowercase hex characters with
    /// a letter and a digit among them, so that neither a number (`20261127`) nor a word (`deadbeef`)
    /// is asked about.
    static func hexWords(in line: Substring) -> [Substring] {
        line.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) && $0 != "_" }.filter { word in
            (7...40).contains(word.count) && word.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
                && word.contains { $0.isLetter } && word.contains { $0.isNumber }
        }
    }

    /// Which of `words` name a commit of the repository, from one `git cat-file --batch-check`, which
    /// answers each line of its input with the object's type (or `missing`) in the same order; nil when
    /// git cannot be asked.
    static func commits(among words: [String]) -> Set<String>? {
        guard let output = git(["cat-file", "--batch-check=%(objecttype)"], input: words.map { $0 + "\n" }.joined()) else {
            return nil
        }
        let types = output.split(separator: "\n")
        guard types.count == words.count else { return nil }
        return Set(zip(words, types).filter { $0.1 == "commit" }.map(\.0))
    }

    /// `git -C repository ARGUMENTS` with `input` on its standard input: its standard output, or nil
    /// when git is missing, fails, or the repository has no .git of its own (a tarball unpacked inside
    /// another repository must not be checked against that one's history).
    static func git(_ arguments: [String], input: String = "") -> String? {
        let files = FileManager.default
        guard files.fileExists(atPath: repository.appendingPathComponent(".git").path) else { return nil }
        // The input comes from a file, not a pipe: a pipe written before the output is read can fill
        // both ways and hang.
        let inputURL = files.temporaryDirectory.appendingPathComponent("imwire-git-\(UUID().uuidString)")
        defer { try? files.removeItem(at: inputURL) }
        do {
            try Data(input.utf8).write(to: inputURL)
            let standardInput = try FileHandle(forReadingFrom: inputURL)
            defer { try? standardInput.close() }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-C", repository.path] + arguments
            process.standardInput = standardInput
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
        } catch {
            return nil
        }
    }

    // MARK: - Package hygiene

    @Test func theChangelogsLatestEntryIsTheCurrentVersion() throws {
        let headings = try Self.read("CHANGELOG.md").split(separator: "\n").filter { $0.hasPrefix("## ") }
        let versions = headings.compactMap { $0.firstMatch(of: /^## (\d+)\.(\d+)\.(\d+)/) }
        #expect(versions.count == headings.count, "every entry starts with its version: \(headings)")
        #expect(versions.first.map { "\($0.1).\($0.2).\($0.3)" } == IMWireVersion.current)
        let numbers = versions.map { [Int($0.1)!, Int($0.2)!, Int($0.3)!] }
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0.0.lexicographicallyPrecedes($0.1) == false && $0.0 != $0.1 },
                "newest first: \(numbers)")
        #expect(IMWireVersion.current.hasPrefix("0."), "0.x while the API may change")
    }

    @Test func theStatedMinimumToolchainHolds() throws {
        // The manifest's tools version is the minimum; README says the same, and so do the manifests
        // it and the Getting Started article show.
        let manifest = try Self.read("Package.swift")
        let minimum = try #require(manifest.firstMatch(of: /^\/\/ swift-tools-version: (\d+)\.(\d+)\n/))
        let stated = "\(minimum.1).\(minimum.2)"
        let readme = try Self.read("README.md")
        #expect(readme.contains("with the Swift toolchain (\(stated) or newer)"), "README states another minimum than \(stated)")
        for (name, text) in [("README.md", readme), ("GettingStarted.md", try Self.read("GettingStarted.md", in: Self.catalog))] {
            for match in text.matches(of: /swift-tools-version: (\d+\.\d+)/) {
                #expect(String(match.1) == stated, "\(name) shows a manifest for \(match.1), the minimum is \(stated)")
            }
        }
        // Below 6.2, every use of what Swift 6.2 added (Span, RawSpan, UTF8Span, InlineArray) must sit
        // inside `#if compiler(>=6.2)`: `#available` is checked when the program runs, so an older
        // compiler would stop at the name.
        guard (Int(minimum.1)!, Int(minimum.2)!) < (6, 2) else { return }
        let sources = Self.repository.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100)
        var unguarded: [String] = []
        for file in files {
            var guards: [Bool] = []  // for each open #if: whether it is `compiler(>=6.2)` or inside one
            for (number, line) in try Self.read(file, in: sources).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("#if") {
                    guards.append(code.contains("compiler(>=6.2)") || guards.last == true)
                } else if code.hasPrefix("#else") || code.hasPrefix("#elseif"), !guards.isEmpty {
                    guards[guards.count - 1] = guards.dropLast().last == true  // the other branch
                } else if code.hasPrefix("#endif") {
                    _ = guards.popLast()
                } else if !code.hasPrefix("//"), guards.last != true,
                          code.prefix { $0 != "/" }.firstMatch(of: /\b(Span|RawSpan|UTF8Span|MutableSpan|InlineArray)\b/) != nil
                {
                    unguarded.append("\(file):\(number + 1): \(code)")
                }
            }
        }
        #expect(unguarded.isEmpty, "Swift 6.2 names outside #if compiler(>=6.2), with \(stated) stated as the minimum:\n\(unguarded.joined(separator: "\n"))")
    }

    @Test func versionFlagPrintsTheVersion() {
        let result = CLITests.run(["--version"])
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == IMWireVersion.current + "\n")
    }

    @Test func theLicenseIsApache2() throws {
        let license = try Self.read("LICENSE")
        #expect(license.contains("Apache License\n                           Version 2.0, January 2004"))
        #expect(license.contains("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION"))
        #expect(license.contains("END OF TERMS AND CONDITIONS"))
    }
}
