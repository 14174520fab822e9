import Foundation
import IMWireTestSupport
import Testing

/// The layering inside the library's modules (Docs/architecture.md, "## Layers inside a module"),
/// which the compiler cannot see: it keeps the modules apart (a module names only the modules it
/// imports), but not the folders of one module. Checked on the sources: the page's table says, for
/// each folder of a module with more than one, which other folders of the same module it may name;
/// every such folder has a row, every reference across folders of a module is one the table allows,
/// and every edge the table allows is one the code uses. Also: no hand-written file holds more than
/// one public type.
@Suite struct LayeringTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // IMWireTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
    static let library = repository.appendingPathComponent("Sources")
    /// The library's modules: IMWire and the modules it re-exports.
    static let modules = LibraryModules.names

    /// The `.swift` files of the library's modules (paths relative to Sources/, sorted).
    static func sources() throws -> [String] {
        var files: [String] = []
        for module in modules {
            let root = library.appendingPathComponent(module)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            files += walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(module)/\($0)" }
        }
        return files.sorted()
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: library.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every source file of the library: its path under Sources/, and its text.
    static func librarySources() throws -> [String: String] {
        var files: [String: String] = [:]
        for path in try sources() { files[path] = try text(path) }
        return files
    }

    // MARK: - The table

    /// A row of the table: a layer (a folder, `Errors` for the files at the library's root), the
    /// layers whose types it may name (all below it in the table), and the ones it names against the
    /// layering (above it), each with the reason the table gives.
    struct Layer: Equatable {
        var name: String
        var mayName: Set<String>
        var exceptions: [String: String]
    }

    /// The rows of the Markdown table in the "## Layers" section, top layer first.
    static func layers(fromArchitecturePage page: String) -> [Layer] {
        var rows: [Layer] = []
        var inSection = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inSection = line == "## Layers inside a module" }
            guard inSection, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            // The header, the separator, and any row without a layer in backticks.
            guard cells.count >= 4, let name = codeSpans(in: cells[0]).first else { continue }
            var exceptions: [String: String] = [:]
            for entry in cells[3].components(separatedBy: "<br>") {
                guard let folder = codeSpans(in: entry).first, let end = entry.range(of: "`\(folder)`")?.upperBound else { continue }
                exceptions[trimmedFolder(folder)] = entry[end...].trimmingCharacters(in: CharacterSet(charactersIn: " :—-"))
            }
            rows.append(Layer(name: trimmedFolder(name), mayName: Set(codeSpans(in: cells[2]).map(trimmedFolder)), exceptions: exceptions))
        }
        return rows
    }

    static func codeSpans(in text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    static func trimmedFolder(_ name: String) -> String {
        name.hasSuffix("/") ? String(name.dropLast()) : name
    }

    static func architectureTable() throws -> [Layer] {
        let page = try String(contentsOf: repository.appendingPathComponent("Docs/architecture.md"), encoding: .utf8)
        return layers(fromArchitecturePage: page)
    }

    // MARK: - The sources

    /// The layer of a library file: its module and folder (`IMWireCore/Support`; `Generated/` of
    /// IMWireCore has two), the module alone for a file at its root (IMWireCore's errors).
    static func layer(of path: String) -> String {
        let parts = path.split(separator: "/")
        if parts.count == 2 { return String(parts[0]) }
        if parts[1] == "Generated", parts.count > 3 { return "\(parts[0])/Generated/\(parts[2])" }
        return "\(parts[0])/\(parts[1])"
    }

    /// The module of a layer.
    static func module(of layer: String) -> Substring {
        layer.split(separator: "/")[0]
    }

    /// The text of a Swift file with its comments (`//`, `/* */`, doc comments) and the text of its
    /// string literals (single- and multi-line, raw) replaced by spaces; the code of a string's
    /// interpolations is kept, and so is every line break.
    static func code(of text: String) -> String {
        var stripper = Stripper(bytes: Array(text.utf8))
        stripper.scanCode(interpolation: false)
        return String(decoding: stripper.out, as: UTF8.self)
    }

    struct Stripper {
        let bytes: [UInt8]
        var i = 0
        var out: [UInt8] = []

        func at(_ offset: Int) -> UInt8 { i + offset < bytes.count ? bytes[i + offset] : 0 }

        /// Copies code until the end (or, in an interpolation, until its closing parenthesis).
        mutating func scanCode(interpolation: Bool) {
            var depth = 0
            while i < bytes.count {
                let byte = bytes[i]
                if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "/") {
                    while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                } else if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                    skipBlockComment()
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#") && startsRawString() {
                    skipString()
                } else {
                    if interpolation, byte == UInt8(ascii: "(") { depth += 1 }
                    if interpolation, byte == UInt8(ascii: ")") {
                        if depth == 0 {
                            i += 1
                            return
                        }
                        depth -= 1
                    }
                    out.append(byte)
                    i += 1
                }
            }
        }

        func startsRawString() -> Bool {
            var j = i
            while j < bytes.count, bytes[j] == UInt8(ascii: "#") { j += 1 }
            return j < bytes.count && bytes[j] == UInt8(ascii: "\"")
        }

        mutating func skipBlockComment() {
            var depth = 0
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                    depth += 1
                    i += 2
                } else if bytes[i] == UInt8(ascii: "*"), at(1) == UInt8(ascii: "/") {
                    depth -= 1
                    i += 2
                    if depth == 0 { break }
                } else {
                    if bytes[i] == UInt8(ascii: "\n") { out.append(bytes[i]) }
                    i += 1
                }
            }
            out.append(UInt8(ascii: " "))
        }

        /// Skips a string literal from its opening `#`s or quote to past its closing delimiter.
        mutating func skipString() {
            var hashes = 0
            while bytes[i] == UInt8(ascii: "#") {
                hashes += 1
                i += 1
            }
            let multiLine = at(1) == UInt8(ascii: "\"") && at(2) == UInt8(ascii: "\"")
            let quotes = multiLine ? 3 : 1
            i += quotes
            out.append(UInt8(ascii: " "))
            func hashesFollow(_ j: Int) -> Bool {
                (0..<hashes).allSatisfy { j + $0 < bytes.count && bytes[j + $0] == UInt8(ascii: "#") }
            }
            while i < bytes.count {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\""), (0..<quotes).allSatisfy({ at($0) == UInt8(ascii: "\"") }), hashesFollow(i + quotes) {
                    i += quotes + hashes
                    out.append(UInt8(ascii: " "))
                    return
                }
                if byte == UInt8(ascii: "\\"), hashesFollow(i + 1) {
                    i += 1 + hashes
                    if at(0) == UInt8(ascii: "(") {
                        i += 1
                        out.append(UInt8(ascii: " "))
                        scanCode(interpolation: true)
                        out.append(UInt8(ascii: " "))
                    } else {
                        if at(0) == UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
                        i += 1  // the escaped character
                    }
                    continue
                }
                if byte == UInt8(ascii: "\n") { out.append(byte) }
                i += 1
            }
        }
    }

    /// A type declared at the top level of a file, not `private` or `fileprivate` (a nested type
    /// counts as its outer type's, a member's name is not a type).
    nonisolated(unsafe) static let declaration =
        #/^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|final|indirect|nonisolated)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)/#

    static func declaredTypes(inCode code: String) -> [String] {
        code.split(separator: "\n").compactMap { line in (try? declaration.prefixMatch(in: line)).map { String($0.output.1) } }
    }

    /// The identifiers of a line of code, in order.
    static func identifiers(in line: Substring) -> [Substring] {
        var names: [Substring] = []
        var start: String.Index? = nil
        var index = line.startIndex
        while index <= line.endIndex {
            let character = index < line.endIndex ? line[index] : " "
            let isPart = character == "_" || character.isASCII && (character.isLetter || character.isNumber)
            if isPart, start == nil, !character.isNumber { start = index }
            if !isPart, let first = start {
                names.append(line[first..<index])
                start = nil
            }
            if index == line.endIndex { break }
            index = line.index(after: index)
        }
        return names
    }

    /// A name used in one layer that another layer declares.
    struct Reference: Hashable {
        var file: String
        var line: Int
        var name: String
        var from: String
        var to: String
    }

    /// Every use, in code, of a type declared in another layer.
    static func references(in sources: [String: String]) -> [Reference] {
        let code = sources.mapValues { Self.code(of: $0) }
        var owners: [String: Set<String>] = [:]
        for (path, text) in code {
            for name in declaredTypes(inCode: text) { owners[name, default: []].insert(layer(of: path)) }
        }
        var found: [Reference] = []
        for (path, text) in code.sorted(by: { $0.key < $1.key }) {
            let from = layer(of: path)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for name in identifiers(in: line) {
                    guard let layers = owners[String(name)], !layers.contains(from) else { continue }
                    // Across modules the compiler keeps the layering (a module names only what it imports).
                    for to in layers.sorted() where module(of: to) == module(of: from) {
                        found.append(Reference(file: path, line: number + 1, name: String(name), from: from, to: to))
                    }
                }
            }
        }
        return found
    }

    /// What is wrong with `sources` against the table `layers`: a reference the table does not
    /// allow, an edge the table allows that no file uses, a folder without a row or a row without a
    /// folder, a row that may name a layer above it (the table lists the top layer first) or that
    /// lists as against the layering a layer below it. Empty when the two agree.
    static func problems(_ sources: [String: String], against layers: [Layer]) -> [String] {
        var problems: [String] = []
        let position = Dictionary(layers.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        // The folders of the modules that have more than one: a module of one folder has no layering inside.
        let all = Set(sources.keys.map(layer(of:)))
        let folders = all.filter { folder in all.contains { module(of: $0) == module(of: folder) && $0 != folder } }
        for folder in folders.sorted() where position[folder] == nil {
            problems.append("Sources/\(folder) has no row in the table of Docs/architecture.md")
        }
        var used: [String: Set<String>] = [:]
        var reported: Set<String> = []
        for reference in references(in: sources) {
            used[reference.from, default: []].insert(reference.to)
            guard let row = position[reference.from].map({ layers[$0] }) else { continue }
            if !row.mayName.contains(reference.to) && row.exceptions[reference.to] == nil {
                let problem = "\(reference.file):\(reference.line): names \(reference.name), a type of \(reference.to), which \(reference.from) may not name"
                if reported.insert(problem).inserted { problems.append(problem) }
            }
        }
        for (index, row) in layers.enumerated() {
            if !folders.contains(row.name) { problems.append("the table has a row for \(row.name), but the library has no such folder") }
            for other in row.mayName.union(row.exceptions.keys).sorted() {
                if !(used[row.name] ?? []).contains(other) {
                    problems.append("the table lets \(row.name) name \(other), but no file of \(row.name) does")
                }
                guard let otherIndex = position[other] else {
                    problems.append("the row of \(row.name) names \(other), which has no row")
                    continue
                }
                if row.mayName.contains(other), otherIndex <= index {
                    problems.append("\(row.name) may name \(other), which is not below it in the table: that is against the layering")
                }
                if let reason = row.exceptions[other] {
                    if otherIndex > index { problems.append("\(row.name) names \(other), below it, as an exception") }
                    if reason.isEmpty { problems.append("\(row.name) names \(other) against the layering without a reason") }
                }
            }
        }
        return problems
    }

    // MARK: - Tests

    @Test func theCodeKeepsTheLayersOfTheArchitecturePage() throws {
        #expect(Self.modules.count >= 10, "the library's modules: \(Self.modules)")
        let layers = try Self.architectureTable()
        #expect(layers.count >= 12, "the table of Docs/architecture.md has \(layers.count) rows")
        let sources = try Self.librarySources()
        #expect(sources.count > 100, "only \(sources.count) source files found")
        for problem in Self.problems(sources, against: layers) { Issue.record("\(problem)") }
    }

    @Test func theCheckFailsOnAReferenceThatBreaksTheTable() throws {
        let layers = try Self.architectureTable()
        var sources = try Self.librarySources()
        let file = "IMWireCore/Schema/FieldSchema.swift"
        let original = try #require(sources[file])
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false).count
        // A reference in code, and the same name in a comment and in strings, which are not references.
        sources[file] = original + "func _probe(_ kind: ElemKind) {}  // ElemKind\n"
            + "let _probeText = \"ElemKind \\(0)\" + #\"ElemKind\"# + \"\"\"\n  ElemKind\n  \"\"\"\n"
        #expect(Self.problems(sources, against: layers) == [
            "IMWireCore/Schema/FieldSchema.swift:\(lines): names ElemKind, a type of IMWireCore/Generated/Model, which IMWireCore/Schema may not name"
        ])
    }

    @Test func theCheckFailsOnAnEdgeTheCodeNoLongerUsesAndOnAFolderWithoutARow() throws {
        let layers = try Self.architectureTable()
        var sources = try Self.librarySources().filter { !$0.key.hasPrefix("IMWireValidation/Vendor/") }
        sources["IMWireCore/Plugins/LayeringProbe.swift"] = "struct LayeringProbe {}\n"
        #expect(Self.problems(sources, against: layers) == [
            "Sources/IMWireCore/Plugins has no row in the table of Docs/architecture.md",
            "the table lets IMWireValidation/Validation name IMWireValidation/Vendor, but no file of IMWireValidation/Validation does",
            "the table has a row for IMWireValidation/Vendor, but the library has no such folder",
        ])
    }

    @Test func theTableIsReadWithItsExceptions() {
        let page = """
            ## Layers inside a module

            | Layer | What it is | May name types of | Names against the layering, and why |
            |---|---|---|---|
            | `API/` | the entry points | `Binary`, `Model/` | |
            | `Binary` | the wire format | `Model` | `API`: a reason |
            | `Model` | the runtime | — | |

            ## Next

            | `Other` | not in the section | | |
            """
        #expect(Self.layers(fromArchitecturePage: page) == [
            Layer(name: "API", mayName: ["Binary", "Model"], exceptions: [:]),
            Layer(name: "Binary", mayName: ["Model"], exceptions: ["API": "a reason"]),
            Layer(name: "Model", mayName: [], exceptions: [:]),
        ])
    }

    @Test func commentsAndStringsAreNotCode() {
        let text = """
            /// Doc `Foo`.
            let a = Bar() /* Foo /* nested */ Foo */ + "Foo \\(Baz.x) \\"Foo" + #"Foo \\(Foo) "# + #"\\#(Qux)"#
            let b = \"\"\"
                Foo \\(Quux)
                \"\"\" // Foo
            #if DEBUG
            """
        let code = Self.code(of: text)
        let names = code.split(separator: "\n", omittingEmptySubsequences: false).map { Self.identifiers(in: $0).map(String.init) }
        #expect(names == [[], ["let", "a", "Bar", "Baz", "x", "Qux"], ["let", "b"], ["Quux"], [], ["if", "DEBUG"]])
    }

    @Test func topLevelDeclarationsAreFound() {
        let code = """
            @usableFromInline
            package struct A {
                struct Nested {}
            }
            @_spi(Benchmarks) public final class B {}
            private struct Hidden {}
            fileprivate enum AlsoHidden {}
            package typealias C = Int
            extension D {}
            public protocol E: Sendable {}
            """
        #expect(Self.declaredTypes(inCode: code) == ["A", "B", "C", "E"])
    }

    /// Top-level `public` type declarations (nested types belong to their outer type's file).
    static func publicTypes(in text: String) -> [String] {
        let pattern = #/^public (?:final |indirect )?(?:struct|enum|class|protocol|actor) (\w+)/#
        return text.split(separator: "\n").compactMap { line in (try? pattern.prefixMatch(in: line)).map { String($0.output.1) } }
    }

    @Test func noHandWrittenFileHoldsTwoPublicTypes() throws {
        let files = try Self.sources().filter { !$0.contains("/Generated/") }
        #expect(files.count > 50, "only \(files.count) source files found")
        for file in files {
            let types = Self.publicTypes(in: try Self.text(file))
            #expect(types.count <= 1, "\(file) declares \(types.count) public types: \(types.joined(separator: ", "))")
        }
    }

    @Test func thePublicTypeCheckSeesTwoTypes() {
        // The detector itself: two top-level public types are seen, a nested one is not.
        let text = "public struct A {\n    public struct Inner {}\n}\n\npublic final class B {}\n"
        #expect(Self.publicTypes(in: text) == ["A", "B"])
    }
}
