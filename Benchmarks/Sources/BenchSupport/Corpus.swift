// Corpus files written by Corpora/generate.py: NAME.msgs (canonical binary) and NAME.json.msgs
// (canonical JSON), each a sequence of records of a 4-byte little-endian length and that many bytes.
// A tim-rest corpus (timrest-NAME, timrest-NAME-shuffled: made by `imwire-bench timrest-corpus` and
// Harness/timrest_corpus.py in Scripts/bench's work directory) has a third file, NAME.timrest.msgs:
// the messages' tim-rest JSON, in the same order.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The corpora of issue 7, in table order.
public let corpusNames = ["chat", "random", "merger300", "text12k", "fixtures"]
/// The chat corpus split by kind (for the per-kind malloc thresholds, and for profiling one kind).
public let chatPartNames = ["chat-text", "chat-image", "chat-custom", "chat-tips"]
/// The corpora a tim-rest corpus is made from: timrest-NAME (canonical tim-rest) and
/// timrest-NAME-shuffled (every object's keys in another order).
public let timRESTBaseNames = ["chat", "random", "fixtures"]
public let timRESTCorpusNames = timRESTBaseNames.flatMap { ["timrest-\($0)", "timrest-\($0)-shuffled"] }

/// One corpus: every message in canonical binary and in canonical JSON, in the same order.
public struct Corpus: @unchecked Sendable {  // the raw records are never written after init
    public let name: String
    public let binary: [[UInt8]]
    public let json: [[UInt8]]
    /// The tim-rest JSON of each message (a tim-rest corpus only; empty otherwise).
    public let timREST: [[UInt8]]

    /// The same records in one buffer that lives as long as the process, as raw byte ranges: a
    /// decode can read a record in place without the array retain a loop over `binary` pays per
    /// record (which is the harness's cost, not the decoder's; the C and C++ harnesses read raw
    /// pointers too).
    public let binaryRaw: [UnsafeRawBufferPointer]
    public let jsonRaw: [UnsafeRawBufferPointer]
    public let timRESTRaw: [UnsafeRawBufferPointer]

    public var count: Int { binary.count }
    public var binaryBytes: Int { binary.reduce(0) { $0 + $1.count } }
    public var jsonBytes: Int { json.reduce(0) { $0 + $1.count } }
    public var timRESTBytes: Int { timREST.reduce(0) { $0 + $1.count } }

    /// Reads NAME.msgs and NAME.json.msgs from `directory` (default: ``defaultCorpusDirectory()``).
    public init(name: String, directory: String = defaultCorpusDirectory()) throws(CorpusError) {
        self.name = name
        binary = try Self.readRecords("\(directory)/\(name).msgs")
        json = try Self.readRecords("\(directory)/\(name).json.msgs")
        guard binary.count == json.count else {
            throw CorpusError("\(name): \(binary.count) binary records but \(json.count) JSON records")
        }
        timREST = name.hasPrefix("timrest-") ? try Self.readRecords("\(directory)/\(name).timrest.msgs") : []
        guard timREST.isEmpty || timREST.count == binary.count else {
            throw CorpusError("\(name): \(binary.count) binary records but \(timREST.count) tim-rest records")
        }
        binaryRaw = Self.pinned(binary)
        jsonRaw = Self.pinned(json)
        timRESTRaw = Self.pinned(timREST)
    }

    /// Copies of `records` in one allocation that is never freed.
    static func pinned(_ records: [[UInt8]]) -> [UnsafeRawBufferPointer] {
        let total = records.reduce(0) { $0 + $1.count }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1), alignment: 16)
        var offset = 0
        return records.map { record in
            let start = buffer + offset
            record.withUnsafeBytes { start.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(buffer), byteCount: $0.count) }
            offset += record.count
            return UnsafeRawBufferPointer(start: start, count: record.count)
        }
    }

    static func readRecords(_ path: String) throws(CorpusError) -> [[UInt8]] {
        let data = try readFile(path)
        var records: [[UInt8]] = []
        var i = 0
        while i < data.count {
            guard data.count - i >= 4 else { throw CorpusError("\(path): truncated length at byte \(i)") }
            let n = Int(data[i]) | Int(data[i + 1]) << 8 | Int(data[i + 2]) << 16 | Int(data[i + 3]) << 24
            i += 4
            guard data.count - i >= n else { throw CorpusError("\(path): truncated record at byte \(i)") }
            records.append(Array(data[i..<(i + n)]))
            i += n
        }
        return records
    }
}

public struct CorpusError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// `$IMWIRE_CORPORA` when set, else Benchmarks/Corpora/out of this checkout.
public func defaultCorpusDirectory() -> String {
    if let env = getenv("IMWIRE_CORPORA"), env.pointee != 0 { return String(cString: env) }
    // #filePath is Benchmarks/Sources/BenchSupport/Corpus.swift.
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/Corpora/out"
}

func readFile(_ path: String) throws(CorpusError) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        throw CorpusError("cannot open \(path) (run: python3 Benchmarks/Corpora/generate.py)")
    }
    defer { fclose(file) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if n == 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    if ferror(file) != 0 { throw CorpusError("error reading \(path)") }
    return out
}
