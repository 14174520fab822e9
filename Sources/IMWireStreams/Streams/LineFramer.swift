import IMWireCore
import IMWireBinary
import IMWireJSON

/// A ``RecordFramer`` for newline-delimited text (NDJSON, JSON Lines): a record is a line ended by
/// `\n`, or by `\r\n` (the `\r` is not part of the record); the last line may lack its newline.
/// Blank lines — empty, or only spaces, tabs and `\r` — are skipped and are not records: record
/// indices count the values, and byte offsets locate them in the stream.
@usableFromInline package struct LineFramer: RecordFramer {
    @usableFromInline package let maxRecordSize: Int
    @usableFromInline package private(set) var buffer = FrameBuffer()
    /// Index of the next record.
    package private(set) var recordIndex = 0
    /// Buffer index up to which the current line is known to hold no newline, so that a line
    /// arriving in many small chunks is scanned once.
    private var scanned = 0

    @usableFromInline package init(maxRecordSize: Int) {
        self.maxRecordSize = maxRecordSize
    }

    @usableFromInline package mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        let before = buffer.start
        buffer.append(chunk)
        scanned -= before - buffer.start
    }

    @usableFromInline package mutating func next(atEnd: Bool) throws(IMWireError) -> StreamFrame? {
        while true {
            let start = buffer.start
            let count = buffer.bytes.count
            guard start < count else { return nil }
            let from = max(scanned, start)
            let newline = buffer.withBytes(from..<count) { bytes in bytes.firstIndex(of: UInt8(ascii: "\n")) }
            let end: Int
            let next: Int
            if let newline {
                end = from + newline
                next = end + 1
            } else {
                scanned = count
                // A line that is already longer than the limit (one more byte for a `\r`) fails now,
                // before the rest of it is buffered.
                guard count - start - 1 <= maxRecordSize else {
                    throw tooLong(start, atLeast: count - start)
                }
                guard atEnd else { return nil }
                end = count
                next = count
            }
            var bodyEnd = end
            if bodyEnd > start, buffer.bytes[bodyEnd - 1] == UInt8(ascii: "\r") { bodyEnd -= 1 }
            buffer.start = next
            scanned = next
            if isBlank(start..<bodyEnd) { continue }
            guard bodyEnd - start <= maxRecordSize else { throw tooLong(start, atLeast: bodyEnd - start, exactly: true) }
            let index = recordIndex
            recordIndex += 1
            let offset = buffer.streamOffset(start)
            return StreamFrame(index: index, offset: offset, bodyOffset: offset, range: start..<bodyEnd)
        }
    }

    private func isBlank(_ range: Range<Int>) -> Bool {
        buffer.withBytes(range) { bytes in bytes.allSatisfy(Self.isBlank) }
    }

    /// Whether a byte may appear in a blank line: space, tab, `\r`.
    @inline(__always)
    @usableFromInline package static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private func tooLong(_ start: Int, atLeast length: Int, exactly: Bool = false) -> IMWireError {
        .lineTooLong(length, exactly: exactly, limit: maxRecordSize, offset: buffer.streamOffset(start), recordIndex: recordIndex)
    }
}
