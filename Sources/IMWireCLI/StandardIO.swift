#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CLIInput {
    /// The process's real standard input and file system.
    public static let standard = CLIInput(
        readStandardInput: { limit in try readAll(descriptor: 0, limit: limit, name: "standard input") },
        readFile: { path, limit in
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw CLIIOError(message: "\(path): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            return try readAll(descriptor: descriptor, limit: limit, name: path)
        }
    )

    /// Reads until end of file or `limit` bytes, whichever comes first.
    private static func readAll(descriptor: Int32, limit: Int, name: String) throws -> [UInt8] {
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
                throw CLIIOError(message: "\(name): \(String(cString: strerror(errno)))")
            }
            bytes.removeLast(want - got)
            if got == 0 { break }
        }
        return bytes
    }
}

struct CLIIOError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
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
