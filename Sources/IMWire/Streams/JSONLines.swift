/// Newline-delimited JSON (NDJSON, JSON Lines): one proto3 JSON message per line.
///
/// Writing gives the canonical compact JSON of each message followed by `\n` (compact JSON has no
/// raw newline: string escapes cover U+0000–U+001F). Reading accepts any proto3 JSON object on a
/// line, ended by `\n` or `\r\n`; **blank lines** (empty, or only spaces, tabs and `\r`) are
/// skipped and are not records. Each line is decoded with the given options, so
/// ``JSONDecodingOptions/maxInputSize`` is the limit per line; a longer line is refused as soon as
/// that many bytes arrived without a newline.
///
/// ```swift
/// var text: [UInt8] = []
/// for message in messages { try JSONLines.append(message, to: &text) }
/// ```
///
/// For input that arrives in pieces use ``_Concurrency/AsyncSequence/jsonLinesMessages(of:options:)``,
/// which also reads a last line that has no newline.
public enum JSONLines {
    /// Appends the canonical compact JSON of `message` (``Message/jsonUTF8Bytes(options:)``) and
    /// `\n` to `buffer`. `options.prettyPrinted` is ignored: a record is one line.
    public static func append<Buffer: RangeReplaceableCollection<UInt8>>(
        _ message: Message, to buffer: inout Buffer, options: JSONEncodingOptions = .init()
    ) throws(IMWireError) {
        try appendRecord(message, to: &buffer, options: options)
    }

    /// Decodes the first line of `bytes` that is not blank and returns the message and the number of
    /// bytes up to and including its `\n` (blank lines before it included), or `nil` when `bytes`
    /// holds no complete line yet — also for a last line without `\n`: at the end of the input,
    /// decode what remains with ``Message/init(jsonUTF8:options:)``, or use the async sequence.
    ///
    /// Throws, with the byte offset in `bytes`: `input_too_large` for a line longer than
    /// `options.maxInputSize` (without looking further than that for its end) and any error of
    /// ``Message/init(jsonUTF8:options:)`` for a line that is not a valid message.
    public static func read(
        _ type: Message.Type = Message.self, from bytes: some Collection<UInt8>, options: JSONDecodingOptions = .init()
    ) throws(IMWireError) -> (message: Message, byteCount: Int)? {
        try readRecord(type, from: bytes, options: options)
    }

    static func appendRecord<M: ProtoMessage, Buffer: RangeReplaceableCollection<UInt8>>(
        _ message: M, to buffer: inout Buffer, options: JSONEncodingOptions
    ) throws(IMWireError) {
        var options = options
        options.prettyPrinted = false
        buffer.append(contentsOf: try JSONWriter.encode(message, options: options))
        buffer.append(UInt8(ascii: "\n"))
    }

    static func readRecord<M: ProtoMessage, Bytes: Collection<UInt8>>(
        _ type: M.Type, from bytes: Bytes, options: JSONDecodingOptions
    ) throws(IMWireError) -> (message: M, byteCount: Int)? {
        var lineStart = bytes.startIndex
        var lineOffset = 0
        while lineStart != bytes.endIndex {
            // Look no further than the limit (plus `\r\n`) for the end of the line.
            let window = bytes[lineStart...].prefix(max(options.maxInputSize, 0) &+ 2)
            guard let newline = window.firstIndex(of: UInt8(ascii: "\n")) else {
                if window.count == max(options.maxInputSize, 0) &+ 2 {
                    throw IMWireError(
                        code: .inputTooLarge,
                        reason: "line of more than \(options.maxInputSize) bytes is longer than the limit per line",
                        offset: lineOffset)
                }
                return nil
            }
            let lineCount = bytes.distance(from: lineStart, to: newline)
            let next = bytes.index(after: newline)
            var line = bytes[lineStart..<newline]
            if lineCount > 0, bytes[bytes.index(lineStart, offsetBy: lineCount - 1)] == UInt8(ascii: "\r") {
                line = line.prefix(lineCount - 1)
            }
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                lineStart = next
                lineOffset += lineCount + 1
                continue
            }
            let result = withContiguousBytes(line) { body in
                Result { () throws(IMWireError) in try JSONReader.decode(M.self, from: body, options: options) }
            }
            switch result {
            case .success(let message): return (message, lineOffset + lineCount + 1)
            case .failure(let error): throw error.inRecord(nil, recordOffset: lineOffset, bodyOffset: lineOffset)
            }
        }
        return nil
    }
}
