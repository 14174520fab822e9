import Foundation
import IMWireConformance
import Testing

/// The testees shipped in the repository against the whole conformance suite: the Swift codec
/// in-process and as `imwire testee` (no list), and testees on protobuf-c, Google's C++ runtime, Go's
/// runtime, protobuf-java, Python's upb and swift-protobuf, each with its expected-failure list
/// (Tests/Conformance/expected-failures/). Each must pass, and its list must explain every failure,
/// Recommended ones included: a run with the list has no warning and no unused entry.
@Suite(.serialized) struct ConformanceTesteeTests {
    static func expectPasses(_ results: ConformanceResults, sourceLocation: SourceLocation = #_sourceLocation) {
        let report = ConformanceReport.text(results)
        let problems = report.split(separator: "\n").filter { !$0.hasPrefix("note: ") }.joined(separator: "\n")
        let succeeded = results.succeeded
        #expect(succeeded, "\(problems)", sourceLocation: sourceLocation)
        #expect(results.warningCount == 0, "\(problems)", sourceLocation: sourceLocation)
        #expect(report.hasSuffix("\(results.passedCount) passed, 0 failed, \(results.skippedCount) skipped\n"), sourceLocation: sourceLocation)
    }

    @Test func swiftCodecPassesEveryCaseInProcess() throws {
        let results = try ConformanceSupport.run(InProcessTestee.swiftCodec())
        Self.expectPasses(results)
        #expect(results.skippedCount == 0)
        #expect(results.counts(.required).passed + results.counts(.recommended).passed == ConformanceSupport.suite.cases.count)
    }

    @Test func imwireTesteePassesEveryCaseAsASubprocess() throws {
        let imwire = try #require(ConformanceSupport.product("imwire"), "build the package first (swift build)")
        let testee = SubprocessTestee(command: "\(ConformanceSupport.shellQuoted(imwire)) testee")
        let results = try ConformanceSupport.run(testee)
        Self.expectPasses(results)
        #expect(results.counts(.required).passed + results.counts(.recommended).passed == ConformanceSupport.suite.cases.count)
        #expect(testee.startCount == 1)
    }

    @Test func protobufCTesteePassesWithItsExpectedFailures() throws {
        let testeeC = try #require(ConformanceSupport.product("imwire-testee-c"), "build the package first (swift build)")
        let list = try ExpectedFailureList.load(path: ConformanceSupport.path("Tests/Conformance/expected-failures/protobuf-c.txt"))
        let results = try ConformanceSupport.run(SubprocessTestee(command: ConformanceSupport.shellQuoted(testeeC)), expectedFailures: list)
        Self.expectPasses(results)
        #expect(results.expectedFailureCount > 0)
        // Binary input to binary output only; everything else is skipped.
        let ran = results.results.filter { $0.status != .skipped }.map(\.name)
        #expect(ran.allSatisfy { $0.contains(".BinaryInput.") && !$0.hasSuffix(".JsonOutput") && !$0.hasSuffix(".Validation") })
        #expect(results.unusedEntries.isEmpty, "entries matching nothing: \(results.unusedEntries.map(\.location))")
    }

    /// A testee on another runtime — Google's C++, Go and Java runtimes, and swift-protobuf (a
    /// package of its own, so IMWire's build never builds it): built by its own script
    /// (incremental, quiet), then run against the suite with its list. Only tim-rest and validation
    /// may be skipped.
    @Test(arguments: [("cpp", "cpp"), ("go", "go"), ("java", "java"), ("swiftprotobuf", "swift-protobuf")])
    func otherRuntimeTesteePassesWithItsExpectedFailures(_ folder: String, _ name: String) throws {
        let testee = try ConformanceSupport.builtTestee(folder, name: name).get()
        let list = try ExpectedFailureList.load(path: ConformanceSupport.path("Tests/Conformance/expected-failures/\(name).txt"))
        let results = try ConformanceSupport.run(SubprocessTestee(command: testee), expectedFailures: list)
        Self.expectPasses(results)
        #expect(results.counts(.required).passed > 900)
        let skipped = results.results.filter { $0.status == .skipped }.map(\.name)
        #expect(skipped.allSatisfy { $0.hasSuffix(".Validation") || $0.contains("TimRest") || $0.contains(".SerializeError") })
        #expect(results.unusedEntries.isEmpty, "entries matching nothing: \(results.unusedEntries.map(\.location))")
    }

    @Test func pythonTesteePassesWithItsExpectedFailures() throws {
        let script = ConformanceSupport.path("Tests/Conformance/testees/python/testee.py")
        let list = try ExpectedFailureList.load(path: ConformanceSupport.path("Tests/Conformance/expected-failures/python.txt"))
        let results = try ConformanceSupport.run(SubprocessTestee(command: "python3 \(ConformanceSupport.shellQuoted(script))"), expectedFailures: list)
        Self.expectPasses(results)
        #expect(results.expectedFailureCount > 0)
        // Validation and tim-rest are skipped, everything else runs.
        let skipped = results.results.filter { $0.status == .skipped }.map(\.name)
        #expect(skipped.allSatisfy { $0.hasSuffix(".Validation") || $0.contains("TimRest") || $0.contains(".SerializeError") })
        #expect(results.unusedEntries.isEmpty, "entries matching nothing: \(results.unusedEntries.map(\.location))")
    }
}
