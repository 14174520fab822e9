import Foundation
import IMWire
import Testing

/// `Scripts/release`: the `imwire` anyone can download — one static executable in a versioned tarball
/// with its SHA-256 checksum — runs where there is no Swift toolchain. Unpacked in an empty
/// directory, with only `/usr/bin:/bin` on `PATH` and nothing else in the environment, it runs the
/// suite against the shipped Go testee with its list, as a Go team's CI does (Docs/conformance.md,
/// "Getting and running it").
///
/// The tarball is made with `--relink` from the objects this test run was built from (seconds; a
/// release build of its own takes minutes), so it is the code under test, linked statically. Made
/// twice, it is the same bytes: the checksum identifies the release.
@Suite(.serialized) struct ReleaseTarballTests {
    static func shell(_ command: String) throws -> (status: Int32, stderr: String) {
        try ConformanceSupport.shell(command)
    }

    static let q = ConformanceSupport.shellQuoted

    @Test func staticBinaryFromTheTarballRunsTheSuiteWithoutASwiftToolchain() throws {
        let imwire = try #require(ConformanceSupport.product("imwire"), "build the package first (swift build)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imwire-release-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        let release = ConformanceSupport.path("Scripts/release")
        let made = try Self.shell("\(Self.q(release)) --relink \(Self.q(imwire)) --out \(Self.q(work))/dist > \(Self.q(work))/made.txt")
        try #require(made.status == 0, "Scripts/release failed: \(made.stderr)")
        var machine = utsname()
        uname(&machine)
        let arch = withUnsafeBytes(of: machine.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let name = "imwire-\(IMWireVersion.current)-linux-\(arch)"
        let printed = String(decoding: FileManager.default.contents(atPath: "\(work)/made.txt") ?? Data(), as: UTF8.self)
        #expect(printed == "\(work)/dist/\(name).tar.gz\n")

        // The checksum file checks the tarball, and fails on a tarball that is not the one it names.
        #expect(try Self.shell("cd \(Self.q(work))/dist && sha256sum -c \(name).tar.gz.sha256 >/dev/null").status == 0)
        try FileManager.default.createDirectory(atPath: "\(work)/tampered", withIntermediateDirectories: true)
        let tampered = try Self.shell("""
            cp \(Self.q(work))/dist/\(name).tar.gz.sha256 \(Self.q(work))/tampered/ && \
            printf x > \(Self.q(work))/tampered/\(name).tar.gz && \
            cd \(Self.q(work))/tampered && sha256sum -c --quiet \(name).tar.gz.sha256
            """)
        #expect(tampered.status != 0)

        // An empty directory: the tarball's contents, the Go testee and its list, nothing else.
        let ci = "\(work)/ci"
        try FileManager.default.createDirectory(atPath: ci, withIntermediateDirectories: true)
        #expect(try Self.shell("tar -xzf \(Self.q(work))/dist/\(name).tar.gz -C \(Self.q(ci))").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(ci)/\(name)").sorted() == ["LICENSE", "conformance.md", "imwire"])
        let goBuild = try Self.shell("\(Self.q(ConformanceSupport.path("Tests/Conformance/testees/go/build"))) >/dev/null")
        try #require(goBuild.status == 0, "the Go testee does not build (Scripts/install-deps installs Go): \(goBuild.stderr)")
        try FileManager.default.copyItem(atPath: ConformanceSupport.path(".build-testees/go/imwire-testee-go"), toPath: "\(ci)/imwire-testee-go")
        try FileManager.default.copyItem(atPath: ConformanceSupport.path("Tests/Conformance/expected-failures/go.txt"), toPath: "\(ci)/go.txt")

        // No Swift toolchain: neither on PATH nor linked. Then the suite, as in the guide.
        let run = try Self.shell("""
            cd \(Self.q(ci)) && env -i PATH=/usr/bin:/bin HOME=\(Self.q(ci)) sh -c '
                if command -v swift || command -v swiftc; then echo "a Swift toolchain is on PATH" >&2; exit 90; fi
                if ldd ./\(name)/imwire | grep -E "libswift|libFoundation|libdispatch"; then echo "links Swift libraries" >&2; exit 91; fi
                ./\(name)/imwire --version > version.txt &&
                ./\(name)/imwire conformance --testee ./imwire-testee-go --expected-failures go.txt --junit report.xml > report.txt'
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let read = { (file: String) in String(decoding: FileManager.default.contents(atPath: "\(ci)/\(file)") ?? Data(), as: UTF8.self) }
        #expect(read("version.txt") == "\(IMWireVersion.current)\n")
        let report = read("report.txt")
        #expect(report.hasPrefix("imwire conformance: \(ConformanceSupport.suite.cases.count) cases against ./imwire-testee-go\n"), "\(report)")
        #expect(report.contains("\nexpected failures: "))
        #expect(report.range(of: #"\n[0-9]+ passed, 0 failed, [0-9]+ skipped\n$"#, options: .regularExpression) != nil, "\(report)")
        #expect(read("report.xml").contains("<testsuite name=\"imwire-conformance\""))

        // The same objects give the same tarball, byte for byte: the checksum identifies the release.
        let again = try Self.shell("\(Self.q(release)) --relink \(Self.q(imwire)) --out \(Self.q(work))/again >/dev/null")
        try #require(again.status == 0, "Scripts/release failed: \(again.stderr)")
        let sums = ["dist", "again"].map { String(decoding: FileManager.default.contents(atPath: "\(work)/\($0)/\(name).tar.gz.sha256") ?? Data(), as: UTF8.self) }
        #expect(sums[0] == sums[1])
        #expect(sums[0].range(of: #"^[0-9a-f]{64}  imwire-[0-9.]+-linux-[a-z0-9_]+\.tar\.gz\n$"#, options: .regularExpression) != nil, "\(sums[0])")
    }
}
