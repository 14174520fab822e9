import Foundation
import Testing

/// Every ```swift block of the repository's README.md and of the DocC articles
/// (Sources/IMWire/IMWire.docc/*.md, Sources/IMWireWebhooks/IMWireWebhooks.docc/*.md), read from
/// those files at test time, compiled as the `main.swift` of its own little executable (top-level
/// code, Swift 6 language mode) against the IMWire (and, for the webhook articles, IMWireWebhooks)
/// this package built, then run: it must exit 0.
///
/// Fence info strings: ```swift  — compiled and run (the default);
///                     ```swift no-run  — compiled only, for a block that must not be run;
///                     ```swift package-manifest  — a `Package.swift` that depends on IMWire as
///                       `.package(path: "../IMWire")`: written into a package next to a link named
///                       IMWire to this repository, whose dependency graph SwiftPM must load
///                       (`swift package show-dependencies`: package and product names resolve).
/// There is no way to skip checking a block.
///
/// How: `swiftc -swift-version 6 main.swift -I <build>/Modules <IMWire's objects> -o snippet`, with
/// the objects listed in SwiftPM's `<Module>.build/output-file-map.json` of IMWire and each module it
/// re-exports (the current sources only, so
/// a stale object of a deleted file is never linked). A webhook article's blocks also link the
/// objects of IMWireWebhooks, listed the same way. About 1.2 s for the README's five blocks, cold
/// or warm, since the IMWire it links is the one this package builds anyway; a temporary SwiftPM
/// package (one executable target per block) measured 30 s cold, as it builds IMWire a second time.
/// `SWIFTC=/path/to/swiftc` picks the compiler (default: `swiftc` on PATH — the toolchain that built
/// the objects must be the one that reads the module).
@Suite struct ReadmeSnippetTests {
    @Test func theReadmeHasSwiftBlocks() throws {
        #expect(try Snippet.all().contains { $0.file == "README.md" }, "README.md has no ```swift block: the checker would check nothing")
        #expect(try Snippet.all().contains { $0.file != "README.md" }, "the DocC articles have no ```swift block")
        #expect(try Snippet.all().contains { $0.kind == .manifest }, "no Package.swift snippet is checked")
    }

    @Test(arguments: try Snippet.all())
    func compilesAndRuns(_ snippet: Snippet) async throws {
        let build = try IMWireBuild.locate()
        let directory = build.directory.appendingPathComponent("readme-snippets/\(snippet.directoryName)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if snippet.kind == .manifest {
            try await checkManifest(snippet, in: directory)
            return
        }
        let source = directory.appendingPathComponent("main.swift")
        try Data(snippet.code.utf8).write(to: source)
        let executable = directory.appendingPathComponent("snippet")

        let objects = try snippet.isWebhookArticle ? build.webhookObjects() : build.objects
        let compile = try await run(
            compiler(),
            ["-swift-version", "6", "-module-name", "Snippet", source.path, "-I", build.modules.path]
                + build.cModuleArguments + objects.map(\.path) + ["-o", executable.path],
            log: directory.appendingPathComponent("compile.log")
        )
        guard compile.status == "exit 0" else {
            Issue.record("\(snippet.testDescription): the swift block does not compile (swiftc \(compile.status)):\n\(compile.output)")
            return
        }
        guard snippet.runs else { return }

        let result = try await run(executable.path, [], log: directory.appendingPathComponent("run.log"))
        #expect(result.status == "exit 0", "\(snippet.testDescription): the swift block ends with \(result.status):\n\(result.output)")
    }

    /// A `Package.swift` snippet as a user pastes it: the package it describes sits next to a clone
    /// of IMWire named `IMWire` (a link to this repository), and SwiftPM loads its dependency graph.
    private func checkManifest(_ snippet: Snippet, in directory: URL) async throws {
        let files = FileManager.default
        try? files.removeItem(at: directory)
        let package = directory.appendingPathComponent("App")
        try files.createDirectory(at: package, withIntermediateDirectories: true)
        try files.createSymbolicLink(at: directory.appendingPathComponent("IMWire"), withDestinationURL: Snippet.repository)
        try Data(snippet.code.utf8).write(to: package.appendingPathComponent("Package.swift"))
        // SwiftPM wants each target's folder; any target name the snippet declares gets one.
        for name in snippet.code.matches(of: /[tT]arget\(\s*name: "([^"]+)"/).map({ String($0.1) }) {
            let sources = package.appendingPathComponent("Sources/\(name)")
            try files.createDirectory(at: sources, withIntermediateDirectories: true)
            try Data("import IMWire\n".utf8).write(to: sources.appendingPathComponent("main.swift"))
        }
        let result = try await run("swift", ["package", "--package-path", package.path, "show-dependencies"],
                                   log: directory.appendingPathComponent("show-dependencies.log"))
        #expect(result.status == "exit 0", "\(snippet.testDescription): SwiftPM cannot load the package:\n\(result.output)")
    }
}

@Suite struct ReadmeFenceParsingTests {
    @Test func findsSwiftBlocksWithTheirLinesAndMarkers() throws {
        let text = """
            # Title
            ```sh
            swift build
            ```
            ```swift
            print(1)
            ```
              ````swift no-run
              let fence = "```"
              ````
            ~~~ swift
            print(3)
            ~~~
            """
        let snippets = try Snippet.parse(text)
        #expect(snippets.map(\.line) == [5, 8, 11])
        #expect(snippets.map(\.code) == ["print(1)\n", "  let fence = \"```\"\n", "print(3)\n"])
        #expect(snippets.map(\.runs) == [true, false, true])
        #expect(try Snippet.parse("```swift package-manifest\n// swift-tools-version: 6.1\n```\n").map(\.kind) == [.manifest])
    }

    @Test func rejectsAnUnclosedFenceAndUnknownMarkers() throws {
        #expect(throws: Snippet.ParseError.self) { try Snippet.parse("```swift\nprint(1)\n") }
        #expect(throws: Snippet.ParseError.self) { try Snippet.parse("```swift skip\nprint(1)\n```\n") }
        #expect(try Snippet.parse("no code here\n```json\n{}\n```\n").isEmpty)
    }
}

/// One fenced ```swift block of README.md or of a DocC article.
struct Snippet: Sendable, CustomTestStringConvertible {
    enum Kind: Sendable { case program, manifest }

    /// The file, relative to the repository (`README.md`, `Sources/IMWire/IMWire.docc/GettingStarted.md`).
    var file = "README.md"
    /// The line of the opening fence.
    var line: Int
    var code: String
    /// False for ```swift no-run.
    var runs: Bool
    var kind = Kind.program
    var testDescription: String { "\(file):\(line)" }
    /// A folder name for this block's build products.
    var directoryName: String {
        (file == "README.md" ? "" : URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent + "-") + "line-\(line)"
    }

    static let repository = URL(fileURLWithPath: #filePath)  // Examples/Tests/ReadmeSnippetTests/…
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let readme = repository.appendingPathComponent("README.md")
    static let catalogs = ["Sources/IMWire/IMWire.docc", webhookCatalog]
    static let webhookCatalog = "Sources/IMWireWebhooks/IMWireWebhooks.docc"

    /// Whether the block is in the webhook module's catalog (it links IMWireWebhooks too).
    var isWebhookArticle: Bool { file.hasPrefix(Self.webhookCatalog) }

    /// README.md, then the DocC articles of each catalog in name order.
    static func all() throws -> [Snippet] {
        let articles = try catalogs.flatMap { catalog in
            try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(catalog).path)
                .filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        return try (["README.md"] + articles).flatMap { file in
            try parse(String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8), file: file)
        }
    }

    /// The swift blocks of a CommonMark text: an opening fence of three or more backticks or tildes
    /// whose info string's first word is `swift`, closed by a fence of the same character at least
    /// as long. A fence left open is an error, not a silently shorter README.
    static func parse(_ text: String, file: String = "README.md") throws -> [Snippet] {
        var snippets: [Snippet] = []
        var open: (fence: String, line: Int, info: [Substring], body: [Substring])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if var block = open {
                if let char = block.fence.first, trimmed.hasPrefix(block.fence),
                   trimmed.allSatisfy({ $0 == char || $0 == " " || $0 == "\r" }) {
                    if block.info.first == "swift" {
                        let known: Set<Substring> = ["swift", "no-run", "package-manifest"]
                        guard block.info.allSatisfy(known.contains) else {
                            throw ParseError(file: file, line: block.line, problem: "unknown word in the fence info string \(block.info.joined(separator: " "))")
                        }
                        snippets.append(Snippet(
                            file: file, line: block.line, code: block.body.joined(separator: "\n") + "\n",
                            runs: !block.info.contains("no-run"),
                            kind: block.info.contains("package-manifest") ? .manifest : .program))
                    }
                    open = nil
                } else {
                    block.body.append(line)
                    open = block
                }
            } else if let char = trimmed.first, char == "`" || char == "~" {
                let fence = trimmed.prefix { $0 == char }
                if fence.count >= 3 {
                    let info = trimmed.dropFirst(fence.count).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
                    open = (String(fence), index + 1, info, [])
                }
            }
        }
        if let open { throw ParseError(file: file, line: open.line, problem: "code fence never closed") }
        return snippets
    }

    struct ParseError: Error, CustomStringConvertible {
        var file: String, line: Int, problem: String
        var description: String { "\(file):\(line): \(problem)" }
    }
}

/// The object files below `folder` (none if it does not exist), in path order.
private func objectFiles(in folder: URL) -> [URL] {
    guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
    return files.compactMap { $0 as? URL }.filter { $0.pathExtension == "o" }.sorted { $0.path < $1.path }
}

/// Where SwiftPM put the IMWire this test process links: its module and its object files.
struct IMWireBuild {
    var directory: URL, modules: URL, objects: [URL]

    /// Walks up from the test executable to the build directory (`.build/<triple>/debug`, as
    /// Scripts/examples-test builds; an optimised build works too).
    static func locate() throws -> IMWireBuild {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while directory.pathComponents.count > 1 {
            directory.deleteLastPathComponent()
            let map = directory.appendingPathComponent("IMWire.build/output-file-map.json")
            guard FileManager.default.fileExists(atPath: map.path) else { continue }
            // IMWire and every module it re-exports: the snippets `import IMWire`.
            var objects: [URL] = []
            for module in Self.modules {
                let data = try Data(contentsOf: directory.appendingPathComponent("\(module).build/output-file-map.json"))
                objects += sourceObjects(try JSONSerialization.jsonObject(with: data) as? [String: [String: String]] ?? [:])
            }
            objects += Self.cTargets.flatMap { objectFiles(in: directory.appendingPathComponent("\($0).build")) }
            for modules in [directory.appendingPathComponent("Modules"), directory]
            where FileManager.default.fileExists(atPath: modules.appendingPathComponent("IMWire.swiftmodule").path) {
                guard !objects.isEmpty else { break }
                return IMWireBuild(directory: directory, modules: modules, objects: objects)
            }
        }
        throw LocateError(start: CommandLine.arguments[0])
    }

    /// The object of each source file in an output file map. The module's own entry (key "") names
    /// an object that neither a debug build nor an optimised (whole-module) one writes.
    static func sourceObjects(_ entries: [String: [String: String]]) -> [URL] {
        entries.filter { !$0.key.isEmpty }.values.compactMap { $0["object"] }.sorted().map(URL.init(fileURLWithPath:))
    }

    /// The library's Swift modules: `IMWire` and the modules it re-exports.
    static let modules = [
        "IMWire", "IMWireCore", "IMWireBinary", "IMWireView", "IMWireJSONText", "IMWireJSON", "IMWireTUIKit",
        "IMWireTIMREST", "IMWireValidation", "IMWireStreams",
    ]

    /// IMWire's C targets (the UTF-8 validator): their objects are linked with IMWire's, and a
    /// compile that imports IMWire must see their module maps, which SwiftPM writes into each
    /// target's build folder.
    static let cTargets = ["CIMWireUTF8"]

    var cModuleArguments: [String] {
        Self.cTargets.flatMap { ["-Xcc", "-fmodule-map-file=" + directory.appendingPathComponent("\($0).build/module.modulemap").path] }
    }

    /// IMWire's objects and IMWireWebhooks' (from its output-file-map.json).
    func webhookObjects() throws -> [URL] {
        let map = directory.appendingPathComponent("IMWireWebhooks.build/output-file-map.json")
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: map)) as? [String: [String: String]] ?? [:]
        let webhooks = Self.sourceObjects(entries)
        guard !webhooks.isEmpty else {
            throw LocateError(start: "\(map.path): no objects; does the Examples package still link IMWireWebhooks?")
        }
        return objects + webhooks
    }

    struct LocateError: Error, CustomStringConvertible {
        var start: String
        var description: String {
            "no IMWire.build/output-file-map.json and IMWire.swiftmodule above \(start): has SwiftPM's build layout changed?"
        }
    }
}

private func compiler() -> String {
    ProcessInfo.processInfo.environment["SWIFTC"] ?? "swiftc"
}

/// Runs a program (looked up on PATH when `program` has no slash) with its output in `log`.
/// A run is stopped after 10 minutes so a hanging snippet cannot hang the suite.
private func run(_ program: String, _ arguments: [String], log: URL) async throws -> (status: String, output: String) {
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let output = try FileHandle(forWritingTo: log)
    defer { try? output.close() }
    let process = Process()
    if program.contains("/") {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
    }
    process.standardOutput = output
    process.standardError = output
    let watchdog = Task {
        try await Task.sleep(for: .seconds(600))
        if process.isRunning { process.terminate() }
    }
    let status: String = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { finished in
            watchdog.cancel()
            let how = finished.terminationReason == .exit ? "exit" : "signal"
            continuation.resume(returning: "\(how) \(finished.terminationStatus)")
        }
        do {
            try process.run()
        } catch {
            continuation.resume(throwing: error)
        }
    }
    return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
}
