import Foundation
import IMWireConformance
import IMWireTestSupport

/// What the conformance tests need besides the fixtures: the repository (for the Python testees and
/// the expected-failure lists) and the built executables (`imwire`, `imwire-testee-c`).
enum ConformanceSupport {
    /// The repository root.
    static let repositoryRoot: String = Fixtures.directory.deletingLastPathComponent().path

    static func path(_ relative: String) -> String {
        (repositoryRoot as NSString).appendingPathComponent(relative)
    }

    /// The conformance suite derived from the golden fixtures.
    static let suite: ConformanceSuite = {
        do {
            return try ConformanceSuite.load(fixturesDirectory: Fixtures.directory.path)
        } catch {
            fatalError("cannot load the conformance suite: \(error)")
        }
    }()

    /// The directory holding the package's built executables: the one holding this test binary
    /// (`.build/<triple>/<configuration>/`), found by walking up from it. `swift test` builds every
    /// product first, so `imwire` and `imwire-testee-c` are there.
    static let productsDirectory: String? = {
        var starts: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(executable)
        }
        starts.append(CommandLine.arguments[0])
        starts += Bundle.allBundles.map(\.bundlePath)
        for start in starts {
            var directory = URL(fileURLWithPath: start).deletingLastPathComponent()
            for _ in 0..<5 {
                if FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("imwire-testee-c").path),
                    FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("imwire").path)
                {
                    return directory.path
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }()

    /// The path of a built executable, or `nil` (the caller records an issue).
    static func product(_ name: String) -> String? {
        productsDirectory.map { ($0 as NSString).appendingPathComponent(name) }
    }

    /// Runs `command` with `/bin/sh -c` and returns its exit status and standard error.
    static func shell(_ command: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    /// The bytes of a file of the repository.
    static func read(_ relative: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            fatalError("cannot read \(relative)")
        }
        return [UInt8](data)
    }

    /// Builds the shipped testee in `folder` (`Tests/Conformance/testees/FOLDER/build`, which
    /// installs nothing; its program is `.build-testees/NAME/imwire-testee-NAME`, NAME the folder
    /// unless given) once per test run, and returns the shell command that runs it, or why the
    /// build failed. Every suite that runs a testee asks here, so suites running at the same time never
    /// build the same testee twice at once (the scripts build into one directory).
    static func builtTestee(_ folder: String, name: String? = nil) throws -> Result<String, TesteeBuildError> {
        let name = name ?? folder
        buildLock.lock()
        defer { buildLock.unlock() }
        if let built = builds[folder] { return built }
        let script = path("Tests/Conformance/testees/\(folder)/build")
        let run = try shell("\(shellQuoted(script)) >/dev/null")
        let built: Result<String, TesteeBuildError> = run.status == 0
            ? .success(shellQuoted(path(".build-testees/\(name)/imwire-testee-\(name)")))
            : .failure(TesteeBuildError(message: "\(script) failed (Scripts/install-deps installs the runtime): \(run.stderr)"))
        builds[folder] = built
        return built
    }

    struct TesteeBuildError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static let buildLock = NSLock()
    nonisolated(unsafe) private static var builds: [String: Result<String, TesteeBuildError>] = [:]

    /// `'path'` for a shell command line.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `cases` (or the whole suite) against `testee`.
    static func run(
        _ testee: any Testee, filter: [String] = [], expectedFailures: ExpectedFailureList? = nil,
        timeout: Duration = .seconds(10), enforceRecommended: Bool = false
    ) throws -> ConformanceResults {
        var runner = ConformanceRunner(
            cases: suite.cases, expectedFailures: expectedFailures, timeout: timeout, enforceRecommended: enforceRecommended)
        runner.filter(try filter.map { try TestNamePattern($0, matchesPrefix: true) })
        return runner.run(against: testee)
    }
}
