// What every size client shares, and what the empty client is: reading a corpus file
// (Corpora/out/NAME.msgs, records of a 4-byte little-endian length and that many bytes) and printing
// `KEY VALUE` lines for Scripts/size to compare. Nothing here touches a protobuf library, so the
// empty client's size is the floor every other client's is measured from.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The records of one corpus file; exits with a message when it cannot be read.
public func readRecords(_ path: String) -> [[UInt8]] {
    guard let file = fopen(path, "rb") else { fail("cannot open \(path) (run: python3 Benchmarks/Corpora/generate.py)") }
    defer { fclose(file) }
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if n == 0 { break }
        data.append(contentsOf: chunk[0..<n])
    }
    var records: [[UInt8]] = []
    var i = 0
    while i < data.count {
        guard data.count - i >= 4 else { fail("\(path): truncated length at byte \(i)") }
        let n = Int(data[i]) | Int(data[i + 1]) << 8 | Int(data[i + 2]) << 16 | Int(data[i + 3]) << 24
        i += 4
        guard data.count - i >= n else { fail("\(path): truncated record at byte \(i)") }
        records.append(Array(data[i..<(i + n)]))
        i += n
    }
    return records
}

/// The corpus directory (the first argument) and the corpus name (the second, default "chat").
public func corpusPaths() -> (binary: String, json: String) {
    let arguments = CommandLine.arguments
    guard arguments.count >= 2 else { fail("usage: \(arguments[0]) CORPUS_DIRECTORY [CORPUS]") }
    let name = arguments.count >= 3 ? arguments[2] : "chat"
    return ("\(arguments[1])/\(name).msgs", "\(arguments[1])/\(name).json.msgs")
}

/// Prints `key value`, one line, for the script to compare across clients.
public func report(_ key: String, _ value: UInt64) {
    print("\(key) \(value)")
}

/// A sum of the bytes of `records`, position-weighted so that reordered bytes change it.
public func byteDigest(_ records: [[UInt8]]) -> UInt64 {
    var digest: UInt64 = 0
    for record in records {
        for (index, byte) in record.enumerated() { digest &+= UInt64(byte) &* UInt64(index &+ 1) }
        digest &+= UInt64(record.count)
    }
    return digest
}

public func fail(_ message: String) -> Never {
    var line = "size client: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// What a client's round trip of one format computed over the corpus: the walk of each decoded
/// message, the walk of each message decoded again from its own encoding, and the encodings.
public struct RoundTrip {
    public var walk: UInt64 = 0
    public var rewalk: UInt64 = 0
    public var encoded: [[UInt8]] = []

    public init() {}

    /// `FORMAT-walk`, `FORMAT-rewalk` and, when `encodedBytes`, `FORMAT-encoded-bytes` (the
    /// encodings' byte digest, which equals the corpus's for a canonical encoder).
    public func report(_ format: String, encodedBytes: Bool) {
        SizeSupport.report("\(format)-walk", walk)
        SizeSupport.report("\(format)-rewalk", rewalk)
        if encodedBytes { SizeSupport.report("\(format)-encoded-bytes", byteDigest(encoded)) }
    }
}
