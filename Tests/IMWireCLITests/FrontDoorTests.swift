// The README as a newcomer meets it: short, its first screen saying what IMWire is, for whom, where it
// runs and the two commands; every relative link and anchor in it leading somewhere; and its picture
// and table of the speed being what the benchmark drew from the results it keeps, rendered by a real
// SVG renderer.

import Foundation
import Testing

@Suite struct FrontDoorTests {
    static let repository = DocumentationTests.repository

    @Test func theReadmeIsShortAndItsFirstScreenSaysWhatAndHow() throws {
        let readme = try DocumentationTests.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 180, "README.md has \(lines.count) lines")
        let first = lines.prefix(40).joined(separator: "\n")
        for phrase in ["encodes and decodes instant-messaging messages", "It is for", "Linux", "swift run imwire conformance", "Scripts/test"] {
            #expect(first.contains(phrase), "the README's first 40 lines do not say \"\(phrase)\"")
        }
        let performance = try #require(Self.section("Performance", of: readme))
        #expect(performance.split(separator: "\n", omittingEmptySubsequences: false).count <= 30,
                "the performance section has \(performance.split(separator: "\n").count) lines")
    }

    /// A changelog entry says what changed for a user in one to three lines; the details are in the
    /// documents it links.
    @Test func theChangelogsEntriesAreOneToThreeLines() throws {
        var entries: [[Substring]] = []
        for line in try DocumentationTests.read("CHANGELOG.md").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("- ") {
                entries.append([line])
            } else if line.hasPrefix("  "), !entries.isEmpty {
                entries[entries.count - 1].append(line)
            } else if !entries.isEmpty, entries[entries.count - 1].last?.isEmpty == false {
                entries.append([])  // the entry ended
            }
        }
        entries = entries.filter { !$0.isEmpty }
        #expect(entries.count > 50)
        for entry in entries where entry.count > 3 {
            Issue.record("a CHANGELOG entry of \(entry.count) lines: \(entry[0])")
        }
    }

    /// A `## Title` section of `markdown`, up to the next `## ` heading.
    static func section(_ title: String, of markdown: String) -> String? {
        guard let start = markdown.range(of: "\n## \(title)\n") else { return nil }
        let rest = markdown[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The relative links of `markdown` (`[text](path#anchor)`, `![alt](path)`), outside code.
    static func links(in markdown: String) -> [String] {
        var inFence = false
        var found: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            if inFence { continue }
            let withoutCode = line.replacing(/`[^`]*`/, with: "")
            found += withoutCode.matches(of: /\]\(([^)\s]+)\)/).map { String($0.1) }
        }
        return found.filter { !$0.hasPrefix("http://") && !$0.hasPrefix("https://") && !$0.hasPrefix("mailto:") }
    }

    /// GitHub's anchor of a Markdown heading: lower case, punctuation but `-` and `_` dropped, spaces
    /// to `-`.
    static func anchor(of heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
    }

    static func anchors(in markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors = Set<String>()
        var inFence = false
        for line in markdown.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, let match = line.firstMatch(of: /^#{1,6} (.+)$/) else { continue }
            let base = anchor(of: String(match.1).replacing(/`/, with: ""))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// Problems with the relative links of the document at `path`: a file that does not exist, an
    /// anchor no heading of its target makes.
    static func brokenLinks(in path: String) throws -> [String] {
        let text = try DocumentationTests.read(path)
        let base = repository.appendingPathComponent(path).deletingLastPathComponent()
        var problems: [String] = []
        for link in links(in: text) {
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = parts[0].isEmpty ? repository.appendingPathComponent(path) : base.appendingPathComponent(String(parts[0]))
            guard FileManager.default.fileExists(atPath: file.path) else {
                problems.append("\(path): \(link): no such file")
                continue
            }
            guard parts.count == 2 else { continue }
            let target = try String(contentsOf: file, encoding: .utf8)
            if !anchors(in: target).contains(String(parts[1])) {
                problems.append("\(path): \(link): no heading makes the anchor #\(parts[1])")
            }
        }
        return problems
    }

    @Test(arguments: ["README.md", "CHANGELOG.md", "Docs/history.md"])
    func everyRelativeLinkAndAnchorResolves(_ document: String) throws {
        #expect(Self.links(in: try DocumentationTests.read(document)).count >= 2)
        for problem in try Self.brokenLinks(in: document) { Issue.record("\(problem)") }
    }

    /// The check can fail: a planted document with a missing file and a missing anchor gives both.
    @Test func theLinkCheckFailsOnAPlantedBrokenLink() throws {
        let planted = "Docs/planted-links.md"
        let url = Self.repository.appendingPathComponent(planted)
        try """
            # Planted
            See [the guide](conformance.md#no-such-heading), [a file](no-such-file.md),
            [a heading](conformance.md), [here](#planted) and `[code](not-a-link.md)`.
            """.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try Self.brokenLinks(in: planted) == [
            "\(planted): conformance.md#no-such-heading: no heading makes the anchor #no-such-heading",
            "\(planted): no-such-file.md: no such file",
        ])
    }

    /// The chart and the table are what Benchmarks/Harness/chart.py draws from the kept results, byte
    /// for byte, and the chart renders (librsvg's rsvg-convert) to an image of its size that is not
    /// blank; a results file changed in one figure makes the check fail.
    @Test func theChartAndTheTableAreTheBenchmarksOwn() throws {
        let results = "Docs/benchmarks/results.tsv"
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("imwire-chart-\(getpid()).png")
        defer { try? FileManager.default.removeItem(at: png) }
        let (status, output) = try Self.chart([results, "--check", "--render", png.path])
        #expect(status == 0, "\(output)")

        // One timing of IMWire changed: the committed chart and table are no longer its.
        let lines = try DocumentationTests.read(results).split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.hasPrefix("result\tIMWire\tchat\tbinary-decode-read\t") })
        var fields = lines[index].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        fields[6] = String(Double(fields[6])! * 3)
        var changed = lines.map(String.init)
        changed[index] = fields.joined(separator: "\t")
        let planted = FileManager.default.temporaryDirectory.appendingPathComponent("imwire-results-\(getpid()).tsv")
        try changed.joined(separator: "\n").write(to: planted, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: planted) }
        let (plantedStatus, plantedOutput) = try Self.chart([planted.path, "--check"])
        #expect(plantedStatus == 1, "\(plantedOutput)")
        #expect(plantedOutput.contains("Docs/benchmarks/chart.svg"), "\(plantedOutput)")
    }

    static func chart(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "Benchmarks/Harness/chart.py"] + arguments
        process.currentDirectoryURL = repository
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
