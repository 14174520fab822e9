import IMWireCore
import IMWireJSONText

/// A key or enum name ``JSONReader`` skipped, recorded on the skip path only: the byte offset now,
/// the path later (``resolve(_:in:)``), so that reading keeps no path while it runs.
@usableFromInline package struct JSONSkip {
    var reason: SkippedKey.Reason
    var offset: Int
    var suggestion: String?
    var detail: String

    /// An unknown key of `schema`'s message, with the field it was probably meant to be (a JSON
    /// name or a proto name equal to it but for ASCII case and underscores).
    static func unknownKey(_ key: String, in schema: MessageSchema) -> JSONSkip {
        let suggestion = KeySuggestion.best(for: key, among: schema.fields.flatMap { [$0.jsonName, $0.name] })
        return JSONSkip(
            reason: .unknownKey, offset: 0, suggestion: suggestion,
            detail: "\(schema.fullName) has no field \"\(key)\"" + KeySuggestion.clause(suggestion))
    }

    /// The report entries of `skips`, in document order, with the path and spelling of each key
    /// found by one walk of `buffer` (which the reader has already accepted).
    static func resolve(_ skips: [JSONSkip], in buffer: UnsafeBufferPointer<UInt8>) -> [SkippedKey] {
        guard !skips.isEmpty else { return [] }
        var finder = JSONPathFinder(offsets: skips.map(\.offset), buffer: buffer)
        var scanner = JSONScanner(buffer)
        scanner.skipWhitespace()
        // The reader accepted this text, so the walk cannot fail; its own stack is explicit, so no
        // depth limit is needed.
        try? scanner.walkValue(depth: 0, maxDepth: .max, into: &finder)
        // Keys with escapes live in the scanner's unescaped bytes: made into text after the walk.
        let found = finder.found.mapValues { frames in JSONPathFinder.render(frames, with: scanner) }
        return skips.map { skip in
            let found = found[skip.offset] ?? (path: "", key: "")
            return SkippedKey(
                reason: skip.reason, key: found.key, path: found.path, offset: skip.offset, suggestion: skip.suggestion,
                detail: skip.detail)
        }
    }
}

/// Walks a JSON text and records the path (`elems[0].text.colour`, keys as written) of the keys
/// and string values that start at the wanted offsets. Keeps the stack of open containers, with
/// the current key or index of each; makes strings only for what it records.
private struct JSONPathFinder: JSONScanner.Sink {
    struct Frame {
        let isObject: Bool
        var key: JSONScanner.ScannedString? = nil
        var index = 0
    }

    private let wanted: Set<Int>
    private var frames: [Frame] = []
    /// Per wanted offset, the open containers where it was found.
    private(set) var found: [Int: [Frame]] = [:]

    init(offsets: [Int], buffer: UnsafeBufferPointer<UInt8>) {
        wanted = Set(offsets)
    }

    mutating func open(object: Bool, at offset: Int) {
        frames.append(Frame(isObject: object))
    }

    mutating func close(members: Int) {
        frames.removeLast()
        valueEnded()
    }

    mutating func key(_ key: JSONScanner.ScannedString, at offset: Int) {
        frames[frames.count - 1].key = key
        if wanted.contains(offset) { record(offset) }
    }

    mutating func string(_ string: JSONScanner.ScannedString, at offset: Int) {
        if wanted.contains(offset) { record(offset) }
        valueEnded()
    }

    mutating func number(_ token: JSONScanner.NumberToken) { valueEnded() }

    mutating func literal(_ value: Bool?, at offset: Int) { valueEnded() }

    /// After a whole value: the next element of an enclosing array has the next index.
    private mutating func valueEnded() {
        if let last = frames.indices.last, !frames[last].isObject { frames[last].index += 1 }
    }

    private mutating func record(_ offset: Int) {
        found[offset] = frames
    }

    /// The path (keys as written, `[i]` for array elements) and the last key of `frames`, the keys'
    /// text read through the `scanner` that walked them.
    static func render(_ frames: [Frame], with scanner: JSONScanner) -> (path: String, key: String) {
        var path = ""
        var key = ""
        for frame in frames {
            if frame.isObject {
                key = frame.key.map(scanner.makeString) ?? ""
                path += path.isEmpty ? key : "." + key
            } else {
                path += "[\(frame.index)]"
            }
        }
        return (path, key)
    }
}
