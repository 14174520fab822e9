import Foundation
import IMWire
import Testing

/// Docs/conformance.md, the guide for implementers in other languages, checked against what it
/// describes so that it cannot drift: its code excerpts stand verbatim in the shipped testees, and its
/// error-code tables name exactly the codes this version can produce.
@Suite struct ConformanceGuideTests {
    static let guide = String(decoding: ConformanceSupport.read("Docs/conformance.md"), as: UTF8.self)

    /// The fenced blocks of `language` in the guide.
    static func codeBlocks(_ language: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in guide.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test(arguments: [
        ("go", "Tests/Conformance/testees/go/main.go"),
        ("python", "Tests/Conformance/testees/python/testee.py"),
    ])
    func excerptsStandVerbatimInTheShippedTestees(language: String, file: String) throws {
        let source = String(decoding: ConformanceSupport.read(file), as: UTF8.self)
        let blocks = Self.codeBlocks(language)
        #expect(!blocks.isEmpty, "no \(language) excerpt in the guide")
        for block in blocks {
            #expect(source.contains(block), "the guide's \(language) excerpt is not in \(file):\n\(block)")
        }
    }

    /// Every code in the guide's tables (`| `code` | … |` rows of the Error codes section) is one this
    /// version produces, and every code it produces is there.
    @Test func errorCodeTablesNameExactlyTheCodesOfThisVersion() throws {
        let section = try #require(Self.guide.components(separatedBy: "## Error codes").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        var listed: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let code = line.dropFirst(3).prefix { $0 != "`" }
            listed.insert(String(code))
        }
        let produced = Set(IMWireError.Code.all.map(\.name)).union(Violation.Code.all.map(\.name))
        #expect(listed == produced, "only in the guide: \(listed.subtracting(produced).sorted()); missing: \(produced.subtracting(listed).sorted())")
    }
}
