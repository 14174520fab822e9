import IMWireCore
import IMWireBinary
import IMWireJSON

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
    /// Appends the canonical compact JSON of `message` (``JSONMessage/jsonUTF8Bytes(options:)->[UInt8]``)
    /// and `\n` to `buffer`. `options.prettyPrinted` is ignored: a record is one line. On error
    /// `buffer` is left as it was.
    public static func append<Bytes: RangeReplaceableCollection>(
        _ message: some JSONMessage, to buffer: inout Bytes, options: JSONEncodingOptions = .init()
    ) throws(IMWireError) where Bytes.Element == UInt8 {
        var options = options
        options.prettyPrinted = false
        try message.appendJSONUTF8Bytes(to: &buffer, options: options)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Decodes the first line of `bytes` that is not blank as an `M` (``Message`` unless named) and
    /// returns it with the number of bytes up to and including its `\n` (blank lines before it
    /// included), or `nil` when `bytes` holds no complete line yet — also for a last line without
    /// `\n`: at the end of the input, decode what remains with
    /// ``JSONMessage/init(jsonUTF8Bytes:options:)-(Bytes,_)``, or use the async sequence.
    ///
    /// Throws, with the byte offset in `bytes`: `input_too_large` for a line longer than
    /// `options.maxInputSize` (without looking further than that for its end) and any error of
    /// ``JSONMessage/init(jsonUTF8Bytes:options:)-(Bytes,_)`` for a line that is not a valid message.
    public static func read<M: JSONMessage, Bytes: Collection>(
        _ type: M.Type = Message.self, from bytes: Bytes, options: JSONDecodingOptions = .init()
    ) throws(IMWireError) -> (message: M, byteCount: Int)? where Bytes.Element == UInt8 {
        var lineStart = bytes.startIndex
        var lineOffset = 0
        let window = max(options.maxInputSize, 0) &+ 2
        while lineStart != bytes.endIndex {
            // Look no further than the limit (plus `\r\n`) for the end of the line.
            let candidate = bytes[lineStart...].prefix(window)
            guard let newline = candidate.firstIndex(of: UInt8(ascii: "\n")) else {
                if candidate.count == window {
                    throw .lineTooLong(window, exactly: false, limit: options.maxInputSize, offset: lineOffset, recordIndex: nil)
                }
                return nil
            }
            let lineCount = bytes.distance(from: lineStart, to: newline)
            let next = bytes.index(after: newline)
            var line = bytes[lineStart..<newline]
            if lineCount > 0, bytes[bytes.index(lineStart, offsetBy: lineCount - 1)] == UInt8(ascii: "\r") {
                line = line.prefix(lineCount - 1)
            }
            if line.allSatisfy(LineFramer.isBlank) {
                lineStart = next
                lineOffset += lineCount + 1
                continue
            }
            do throws(IMWireError) {
                let message = try withContiguousBytes(line) { (body) throws(IMWireError) in
                    try M._jsonCodec.decode(body, options)
                }
                return (message, lineOffset + lineCount + 1)
            } catch {
                throw error.inRecord(nil, recordOffset: lineOffset, bodyOffset: lineOffset)
            }
        }
        return nil
    }
}
