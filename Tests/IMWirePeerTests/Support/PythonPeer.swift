import Foundation
import IMWireTestSupport

/// Google's Python runtime as a peer: a script of `Scripts/` run once with its input on stdin. The
/// interpreter is `IMWIRE_PYTHON` (default: python3 on PATH, with google.protobuf and protoc:
/// Scripts/install-deps; `Scripts/test` puts its virtual environment first on PATH).
enum PythonPeer {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `Scripts/SCRIPT ARGUMENTS…` with `input` on stdin, through temporary files (a pipe
    /// would need a reader and a writer at once), and returns what it wrote to stdout.
    static func run(_ script: String, _ arguments: [String] = [], input: [UInt8]) throws(Failure) -> [UInt8] {
        let scriptURL = Fixtures.directory.deletingLastPathComponent().appendingPathComponent("Scripts/\(script)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imwire-python-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let inputURL = directory.appendingPathComponent("in")
            let outputURL = directory.appendingPathComponent("out")
            let errorURL = directory.appendingPathComponent("err")
            try Data(input).write(to: inputURL)
            _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [ProcessInfo.processInfo.environment["IMWIRE_PYTHON"] ?? "python3", scriptURL.path] + arguments
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
            process.standardOutput = try FileHandle(forWritingTo: outputURL)
            process.standardError = try FileHandle(forWritingTo: errorURL)
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
                throw Failure(
                    description: "\(([script] + arguments).joined(separator: " ")) exited with status "
                        + "\(process.terminationStatus) (it needs python3 with google.protobuf and protoc: "
                        + "Scripts/install-deps):\n\(errors.suffix(3000))")
            }
            return [UInt8](try Data(contentsOf: outputURL))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "running \(scriptURL.path): \(error)")
        }
    }
}
