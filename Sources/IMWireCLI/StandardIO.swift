#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CLIInput {
    /// The process's real standard input, file system, standard output and standard error.
    public static let standard: CLIInput = {
        var input = CLIInput(
            readStandardInput: { limit in try readAll(descriptor: 0, limit: limit) },
            readFile: { path, limit in
                let descriptor = open(path, O_RDONLY)
                guard descriptor >= 0 else { throw CLIIOError.fromErrno() }
                defer { close(descriptor) }
                return try readAll(descriptor: descriptor, limit: limit)
            },
            live: CLILiveOutput(
                writeStandardOutput: { bytes in try writeAllOrThrow(bytes, to: 1) },
                writeStandardError: { text in writeAll(Array(text.utf8), to: 2) },
                standardErrorIsTerminal: isatty(2) == 1))
        input.openChunks = { path in
            guard let path, path != "-" else { return DescriptorReader(descriptor: 0, owned: false) }
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw CLIIOError.fromErrno() }
            return DescriptorReader(descriptor: descriptor, owned: true)
        }
        return input
    }()

    /// Reads until end of file or `limit` bytes, whichever comes first.
    private static func readAll(descriptor: Int32, limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = 64 * 1024
        while bytes.count < limit {
            let want = min(chunk, limit - bytes.count)
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: want))
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + start, want)
            }
            if got < 0 {
                if errno == EINTR { bytes.removeLast(want); continue }
                throw CLIIOError.fromErrno()
            }
            bytes.removeLast(want - got)
            if got == 0 { break }
        }
        return bytes
    }
}

/// A file descriptor read with read(2), closed at the end if `owned`.
final class DescriptorReader: CLIChunkReader {
    private let descriptor: Int32
    private let owned: Bool

    init(descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        self.owned = owned
    }

    deinit { if owned { close(descriptor) } }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let got = systemRead(descriptor, buffer)
            if got >= 0 { return got }
            if errno == EINTR { continue }
            throw CLIIOError.fromErrno()
        }
    }
}

/// read(2) (a free function: inside a type named `read` the method would shadow it).
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

/// Writes all of `bytes` to a file descriptor, or throws.
func writeAllOrThrow(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            throw CLIIOError.fromErrno()
        }
        offset += written
    }
}

/// A failed read or write: the system's reason only (`No such file or directory`); the caller's
/// `io_error: cannot read PATH: …` line names the file, once.
struct CLIIOError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }

    static func fromErrno() -> CLIIOError { CLIIOError(message: String(cString: strerror(errno))) }
}

/// Writes all of `bytes` to a file descriptor.
public func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        offset += written
    }
}
