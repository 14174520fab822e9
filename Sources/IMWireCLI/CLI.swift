import ArgumentParser
import IMWire

/// Runs the `imwire` command line in-process: parses `arguments`, executes the subcommand against
/// the given input and returns what a process would print and its exit status. `main.swift` wires
/// it to the real stdin/stdout/stderr; tests call it directly.
///
/// Exit status: 0 success; 1 a decode, validation or serialize error, reported as one
/// line on stderr, `error: CODE: detail (at PATH or byte OFFSET)`; 2 a usage error.
public enum CLI {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: [UInt8]
        public var stderr: String
    }

    public static func run(arguments: [String], io: CLIInput) -> Result {
        var output = CLIOutput()
        let status: Int32
        do {
            var command = try IMWireCommand.parseAsRoot(arguments)
            if let subcommand = command as? any IMWireSubcommand {
                // On a thread whose stack fits the nesting the command may meet, whatever the
                // caller's stack; a smaller one when the system cannot grant it (the codecs'
                // stack checks turn a depth the stack cannot hold into depth_limit_exceeded).
                let stackSize = StackThread.fallbackStackSize + subcommand.maxNestingDepth * StackThread.bytesPerLevel
                let outcome = StackThread.runPreferring(stackSize: stackSize) { () -> Swift.Result<CLIOutput, CLIError> in
                    var output = CLIOutput()
                    do {
                        try subcommand.execute(input: io, output: &output)
                        return .success(output)
                    } catch {
                        return .failure(CLIError(error: error, output: output))
                    }
                }
                switch outcome {
                case .success(let result):
                    output = result
                case .failure(let failure):
                    output = failure.output
                    throw failure.error
                }
                status = 0
            } else {
                // `imwire` alone, or a plain ParsableCommand such as help.
                try command.run()
                status = 0
            }
        } catch let error as IMWireError {
            output.stderr += "error: \(error)\n"
            status = 1
        } catch let error as CLIDecodeError {
            output.stderr += "error: \(error)\n"
            status = 1
        } catch let error as CLIFailure {
            output.stderr += "error: \(error.message)\n"
            status = error.status
        } catch let exit as CLIExitStatus {
            status = exit.status
        } catch {
            let exit = IMWireCommand.exitCode(for: error)
            let message = IMWireCommand.fullMessage(for: error)
            if exit == .success {
                output.stdout += Array((message + "\n").utf8)
                status = 0
            } else {
                output.stderr += message + "\n"
                status = 2
            }
        }
        return Result(status: status, stdout: output.stdout, stderr: output.stderr)
    }
}

/// An error a subcommand threw, with what it had printed before.
private struct CLIError: Error, @unchecked Sendable {
    var error: any Error
    var output: CLIOutput
}

/// Where a subcommand reads its input from.
public struct CLIInput: Sendable {
    /// Reads at most `limit` bytes of standard input (a run never holds more than it may use).
    public var readStandardInput: @Sendable (_ limit: Int) throws -> [UInt8]
    /// Reads at most `limit` bytes of the named file.
    public var readFile: @Sendable (_ path: String, _ limit: Int) throws -> [UInt8]
    /// Opens the named file (standard input for `nil` or `-`) to be read in chunks, for
    /// `convert --stream`. By default it serves what ``readStandardInput`` / ``readFile`` return.
    public var openChunks: @Sendable (_ path: String?) throws -> any CLIChunkReader
    /// Where `convert --stream` writes while it runs; `nil` collects its output in the result.
    public var live: CLILiveOutput?

    public init(
        readStandardInput: @escaping @Sendable (Int) throws -> [UInt8],
        readFile: @escaping @Sendable (String, Int) throws -> [UInt8],
        live: CLILiveOutput? = nil
    ) {
        self.readStandardInput = readStandardInput
        self.readFile = readFile
        self.live = live
        self.openChunks = { path in
            let bytes = if let path, path != "-" { try readFile(path, .max) } else { try readStandardInput(.max) }
            return CLIBytesReader(bytes)
        }
    }
}

/// A source read in chunks (a file descriptor, bytes in memory).
public protocol CLIChunkReader: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer` and returns how many; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Bytes in memory read in chunks of at most `chunkSize` bytes (tests use small ones).
public final class CLIBytesReader: CLIChunkReader {
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var position = 0

    public init(_ bytes: [UInt8], chunkSize: Int = .max) {
        self.bytes = bytes
        self.chunkSize = max(chunkSize, 1)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, chunkSize, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: count)
        }
        position += count
        return count
    }
}

/// Standard output and standard error written to as a run goes (`convert --stream`), instead of
/// collected in ``CLI/Result``.
public struct CLILiveOutput: Sendable {
    public var writeStandardOutput: @Sendable (UnsafeRawBufferPointer) throws -> Void
    public var writeStandardError: @Sendable (String) -> Void
    /// Standard error is a terminal: a progress line may be drawn there.
    public var standardErrorIsTerminal: Bool

    public init(
        writeStandardOutput: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void,
        writeStandardError: @escaping @Sendable (String) -> Void,
        standardErrorIsTerminal: Bool
    ) {
        self.writeStandardOutput = writeStandardOutput
        self.writeStandardError = writeStandardError
        self.standardErrorIsTerminal = standardErrorIsTerminal
    }
}

/// What a subcommand has printed so far.
public struct CLIOutput: Sendable {
    public var stdout: [UInt8] = []
    public var stderr: String = ""
}

/// A failure that is not an ``IMWireError``: an unreadable file (status 1) or a usage problem
/// found after parsing (status 2).
struct CLIFailure: Error {
    var message: String
    var status: Int32
}

extension CLIFailure {
    /// The code of a file or standard stream that cannot be read or written: the only code the
    /// CLI prints that is not an ``IMWireError`` or a ``Violation`` code.
    static let ioErrorCode = "io_error"

    /// `io_error: cannot read PATH: REASON` (status 1); `file` nil or `-` is standard input.
    static func io(cannot action: String, _ file: String?, _ error: any Error) -> CLIFailure {
        let what = file.flatMap { $0 == "-" ? nil : $0 } ?? (action == "write" ? "standard output" : "standard input")
        return CLIFailure(message: "\(ioErrorCode): cannot \(action) \(what): \(error)", status: 1)
    }
}

/// An exit status whose reason the command has already printed.
struct CLIExitStatus: Error {
    var status: Int32
}

/// A subcommand that runs against injected input and output.
protocol IMWireSubcommand: ParsableCommand, Sendable {
    func execute(input: CLIInput, output: inout CLIOutput) throws
    /// The deepest message nesting this run may decode or encode (sizes the worker stack).
    var maxNestingDepth: Int { get }
}

extension IMWireSubcommand {
    var maxNestingDepth: Int { BinaryDecodingOptions.defaultMaxDepth }

    func run() throws {
        // Commands always run through CLI.run, which calls execute(input:output:).
        throw CleanExit.message("internal: run through CLI.run")
    }


}

/// The root command.
struct IMWireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imwire",
        abstract: "Convert, validate and inspect IMWire instant messages (imwire.v1.Message), and run the conformance suite.",
        discussion: "Exit status: 0 success, 1 decode/validation/serialize error (one line on stderr), 2 usage error.",
        version: IMWireVersion.current,
        subcommands: [
            ConvertCommand.self, InspectCommand.self, ValidateCommand.self, ConformanceCommand.self, TesteeCommand.self,
        ]
    )
}

/// Reads FILE or stdin, refusing more than `limit` bytes without holding more than that.
func readInput(_ file: String?, input: CLIInput, limit: Int) throws -> [UInt8] {
    let bytes: [UInt8]
    do {
        if let file, file != "-" {
            bytes = try input.readFile(file, limit + 1)
        } else {
            bytes = try input.readStandardInput(limit + 1)
        }
    } catch {
        throw CLIFailure.io(cannot: "read", file, error)
    }
    if bytes.count > limit {
        throw IMWireError.inputTooLarge(size: nil, limit: limit)
    }
    return bytes
}
