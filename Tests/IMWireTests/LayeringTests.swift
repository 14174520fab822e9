import Foundation
import Testing

/// The layering rules of Docs/architecture.md that the compiler cannot see (the library is one
/// module), checked on the sources: no hand-written file holds more than one public type. (The schema
/// layer's protocol now names the formats' protocols in its documentation, so a grep for a format
/// name no longer tells anything; the next change checks the layers on the code.)
@Suite struct LayeringTests {
    static let library = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // IMWireTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .appendingPathComponent("Sources/IMWire")

    /// The `.swift` files under `folder` of the library (relative paths, sorted).
    static func sources(under folder: String = "") throws -> [String] {
        let root = library.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            .map { folder.isEmpty ? $0 : "\(folder)/\($0)" }.sorted()
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: library.appendingPathComponent(path), encoding: .utf8)
    }

    /// Top-level `public` type declarations (nested types belong to their outer type's file).
    static func publicTypes(in text: String) -> [String] {
        let pattern = #/^public (?:final |indirect )?(?:struct|enum|class|protocol|actor) (\w+)/#
        return text.split(separator: "\n").compactMap { line in (try? pattern.prefixMatch(in: line)).map { String($0.output.1) } }
    }

    @Test func noHandWrittenFileHoldsTwoPublicTypes() throws {
        let files = try Self.sources().filter { !$0.hasPrefix("Generated/") }
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
