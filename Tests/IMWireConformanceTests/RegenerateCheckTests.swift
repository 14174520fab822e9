import Foundation
import Testing

/// `Scripts/regenerate --check` is what keeps generated code honest in CI: it must fail on a file in
/// a generated folder that no generator writes (an orphan, left by a schema change or put there by
/// hand) and on a generated file edited by hand, and pass on the committed tree.
///
/// Each test runs the real script with the Swift model's generator (`swift_model`) on a copy of what
/// that generator reads and writes (Scripts/, Schemas/, each module's Generated/ folder), so the working
/// tree is never touched. Needs protoc and Python's google.protobuf, as `Scripts/regenerate` does
/// (`Scripts/install-deps` provides both; `Scripts/test` puts them on PATH).
@Suite struct RegenerateCheckTests {
    /// A scratch copy of the inputs and outputs of `gen_swift_model`; each test removes its own.
    private static func makeCopy() throws -> String {
        let copy = NSTemporaryDirectory() + "imwire-regenerate-test-\(UUID().uuidString)"
        let files = FileManager.default
        let modules = ["IMWireCore", "IMWireBinary", "IMWireJSON", "IMWireView", "IMWire", "IMWireValidation"]
        for module in modules {
            try files.createDirectory(atPath: copy + "/Sources/" + module, withIntermediateDirectories: true)
        }
        for relative in ["Scripts", "Schemas"] + modules.map({ "Sources/\($0)/Generated" }) {
            try files.copyItem(atPath: ConformanceSupport.path(relative), toPath: copy + "/" + relative)
        }
        return copy
    }

    /// Runs `Scripts/regenerate --check swift_model` in `copy`.
    private static func check(_ copy: String) throws -> (status: Int32, stderr: String) {
        try ConformanceSupport.shell(
            "\(ConformanceSupport.shellQuoted(copy + "/Scripts/regenerate")) --check swift_model >/dev/null")
    }

    @Test func passesOnTheCommittedTree() throws {
        let copy = try Self.makeCopy()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let result = try Self.check(copy)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func failsOnAnOrphanInTheGeneratedFolder() throws {
        let copy = try Self.makeCopy()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        // What a schema change that drops a message leaves behind, or a hand-written file put in
        // the generated folder.
        let orphan = "Sources/IMWireCore/Generated/Model/Dropped.swift"
        try "public struct Dropped {}\n".write(toFile: copy + "/" + orphan, atomically: true, encoding: .utf8)
        let result = try Self.check(copy)
        #expect(result.status == 1)
        #expect(result.stderr.contains("orphan"))
        #expect(result.stderr.contains(orphan))
    }

    @Test func failsOnAHandEditedGeneratedFile() throws {
        let copy = try Self.makeCopy()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let edited = "Sources/IMWireCore/Generated/Model/TextElem.swift"
        let path = copy + "/" + edited
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "public var text: String", with: "public var text: Substring")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try String(contentsOfFile: path, encoding: .utf8) != text)
        let result = try Self.check(copy)
        #expect(result.status == 1)
        #expect(result.stderr.contains("differs"))
        #expect(result.stderr.contains(edited))
    }

    @Test func failsWhenAGeneratedFileIsMissing() throws {
        let copy = try Self.makeCopy()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let removed = "Sources/IMWireCore/Generated/Schema/Message+Fields.swift"
        try FileManager.default.removeItem(atPath: copy + "/" + removed)
        let result = try Self.check(copy)
        #expect(result.status == 1)
        #expect(result.stderr.contains("missing"))
        #expect(result.stderr.contains(removed))
    }
}
