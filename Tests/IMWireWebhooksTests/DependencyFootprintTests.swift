import Foundation
import Testing

/// What a package compiles for each product, checked on a package as a user writes it: it depends on
/// this repository (a link named `IMWire`) and on one product, and SwiftPM's build plan for it
/// (`swift build --print-manifest-job-graph`, which plans without compiling) must compile that
/// product's modules and nothing else: the model and the binary codec for `IMWireBinary`, those and
/// proto3 JSON for `IMWireJSON`, every module of the library for `IMWire`, and tim-rest, validation
/// (and what they import) and `IMWireWebhooks` for the webhooks (which hash with their own SHA-256, so no swift-crypto or
/// BoringSSL); no package of the CLI or the tests (swift-argument-parser, swift-property-based).
@Suite(.serialized) struct DependencyFootprintTests {
    /// Every module of the library (and its C target, the vectorised UTF-8 validator).
    static let library: Set<String> = [
        "IMWire", "IMWireCore", "IMWireBinary", "IMWireView", "IMWireJSONText", "IMWireJSON", "IMWireTUIKit",
        "IMWireTIMREST", "IMWireValidation", "IMWireStreams", "CIMWireUTF8",
    ]

    @Test func aPackageUsingOnlyIMWireCompilesTheLibraryAlone() throws {
        let modules = try compiledModules(usingProduct: "IMWire")
        #expect(modules == Self.library.union(["App"]), "a package using IMWire compiles \(modules.sorted())")
    }

    @Test func aBinaryClientCompilesTheModelAndTheBinaryCodecAlone() throws {
        let modules = try compiledModules(usingProduct: "IMWireBinary")
        #expect(modules == ["IMWireCore", "IMWireBinary", "CIMWireUTF8", "App"], "a package using IMWireBinary compiles \(modules.sorted())")
    }

    @Test func aJSONClientCompilesTheModelAndProto3JSONAlone() throws {
        let modules = try compiledModules(usingProduct: "IMWireJSON")
        #expect(
            modules == ["IMWireCore", "IMWireJSONText", "IMWireJSON", "CIMWireUTF8", "App"],
            "a package using IMWireJSON compiles \(modules.sorted())")
    }

    @Test func aPackageUsingIMWireWebhooksCompilesTimRESTValidationAndTheWebhooksAlone() throws {
        let modules = try compiledModules(usingProduct: "IMWireWebhooks")
        #expect(
            modules == [
                "IMWireCore", "IMWireJSONText", "IMWireTIMREST", "IMWireBinary", "IMWireView", "IMWireTUIKit",
                "IMWireValidation", "IMWireWebhooks", "CIMWireUTF8", "App",
            ],
            "a package using IMWireWebhooks compiles \(modules.sorted())")
    }

    /// The targets SwiftPM compiles to build the executable of a package whose one target depends
    /// on `product`. The plan (a Graphviz graph of files and commands, `"input" -> "command"` and
    /// `"command" -> "output"`) holds every target of the package graph; what the executable needs
    /// is everything it is reachable from, and the targets are the `<Target>.build/` folders named
    /// there.
    private func compiledModules(usingProduct product: String) throws -> Set<String> {
        let files = FileManager.default
        let root = files.temporaryDirectory.appendingPathComponent("imwire-footprint-\(product)-\(UUID().uuidString)")
        defer { try? files.removeItem(at: root) }
        let app = root.appendingPathComponent("App")
        try files.createDirectory(at: app.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try files.createSymbolicLink(at: root.appendingPathComponent("IMWire"), withDestinationURL: WebhookFixtures.repository)
        try Data("""
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "App",
                platforms: [.macOS(.v15)],
                dependencies: [.package(path: "../IMWire")],
                targets: [.executableTarget(name: "App", dependencies: [.product(name: "\(product)", package: "IMWire")])]
            )

            """.utf8).write(to: app.appendingPathComponent("Package.swift"))
        try Data("import \(product)\n".utf8).write(to: app.appendingPathComponent("Sources/App/main.swift"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--package-path", app.path, "--print-manifest-job-graph"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift build --print-manifest-job-graph failed:\n\(text)")

        var inputs: [Substring: [Substring]] = [:]
        for match in text.matches(of: /"([^"]*)" -> "([^"]*)"/) { inputs[match.2, default: []].append(match.1) }
        let executable = try #require(inputs.keys.first { $0.hasSuffix("/debug/App") }, "no App executable in the plan:\n\(text.prefix(2000))")
        var needed: Set<Substring> = [executable]
        var work = [executable]
        while let node = work.popLast() {
            for input in inputs[node] ?? [] where needed.insert(input).inserted { work.append(input) }
        }
        var modules = Set<String>()
        for node in needed {
            for match in node.matches(of: /\/([A-Za-z0-9_]+)\.build\//) { modules.insert(String(match.1)) }
        }
        return modules
    }
}
