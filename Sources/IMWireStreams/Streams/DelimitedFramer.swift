import IMWireCore
import IMWireBinary
import IMWireJSON

/// The framing of C++ `SerializeDelimitedTo` / `ParseDelimitedFrom`, Java `writeDelimitedTo` /
/// `parseDelimitedFrom` and Go `protodelim`: each record is a varint length, then that many bytes.
///
/// This reads its varint itself rather than with ``BinaryDecoder``'s reader: a stream may so far
/// hold only part of a prefix, which is not an error here but a wait for more bytes (``Parsed/incomplete``),
/// the bytes need not be contiguous, and the limits and error codes are the framing's (a 32-bit
/// length, the per-record size limit), not a message's.
@usableFromInline package enum DelimitedPrefix {
    /// The largest record length a prefix may claim: protobuf's runtimes read it as a 32-bit signed
    /// size (Java's `readRawVarint32`, C++'s `ReadVarint32` into an `int`).
    @usableFromInline package static let maxLength = Int(Int32.max)

    @usableFromInline package enum Parsed {
        /// The bytes end inside the prefix.
        case incomplete
        /// The record's body is `length` bytes after a prefix of `size` bytes.
        case complete(length: Int, size: Int)
    }

    /// Reads the length prefix at the start of `bytes`: a varint of at most 10 bytes (longer is
    /// `varint_too_long`) claiming at most ``maxLength`` (`length_out_of_bounds`) and at most
    /// `maxRecordSize` bytes (`input_too_large`), so a record over the limit is refused before any
    /// of its body is read. Errors are at `offset` (the prefix's), in record `recordIndex`.
    @inline(__always)
    @usableFromInline package static func parse<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, maxRecordSize: Int, recordIndex: Int?, offset: Int
    ) throws(IMWireError) -> Parsed {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var tooLarge = false
        var size = 0
        for byte in bytes {
            size += 1
            let payload = UInt64(byte & 0x7F)
            // Bits at 32 and above can only make the length too large: note it, never shift them out.
            if shift < 32 { value |= payload << shift } else if payload != 0 { tooLarge = true }
            if byte < 0x80 {
                return .complete(length: try checked(value, tooLarge: tooLarge, maxRecordSize, recordIndex, offset), size: size)
            }
            if size == 10 {
                throw .recordPrefixTooLong(offset: offset, recordIndex: recordIndex)
            }
            shift += 7
        }
        return .incomplete
    }

    private static func checked(
        _ value: UInt64, tooLarge: Bool, _ maxRecordSize: Int, _ recordIndex: Int?, _ offset: Int
    ) throws(IMWireError) -> Int {
        guard !tooLarge, value <= UInt64(maxLength) else {
            throw .recordLengthOutOfBounds(tooLarge ? nil : value, limit: DelimitedPrefix.maxLength, offset: offset, recordIndex: recordIndex)
        }
        guard value <= UInt64(max(maxRecordSize, 0)) else {
            throw .recordTooLarge(value, limit: maxRecordSize, offset: offset, recordIndex: recordIndex)
        }
        return Int(value)
    }
}

/// A ``RecordFramer`` for length-delimited binary: varint length + body per record.
@usableFromInline package struct DelimitedFramer: RecordFramer {
    @usableFromInline package let maxRecordSize: Int
    @usableFromInline package private(set) var buffer = FrameBuffer()
    /// Index of the next record.
    package private(set) var recordIndex = 0

    @usableFromInline package init(maxRecordSize: Int) {
        self.maxRecordSize = maxRecordSize
    }

    @usableFromInline package mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        buffer.append(chunk)
    }

    @usableFromInline package mutating func next(atEnd: Bool) throws(IMWireError) -> StreamFrame? {
        let start = buffer.start
        let available = buffer.available
        guard available > 0 else { return nil }
        let offset = buffer.streamOffset(start)
        let index = recordIndex
        let limit = maxRecordSize
        let parsed = try buffer.withBytes(start..<(start + min(available, 10))) { (prefix) throws(IMWireError) in
            try DelimitedPrefix.parse(prefix, maxRecordSize: limit, recordIndex: index, offset: offset)
        }
        guard case .complete(let length, let size) = parsed else {
            if atEnd { throw truncated("inside the length prefix of a record", at: offset) }
            return nil
        }
        guard available - size >= length else {
            if atEnd {
                throw truncated("after \(available - size) of the \(counted(length, "byte")) of a record", at: offset)
            }
            return nil
        }
        let bodyStart = start + size
        buffer.start = bodyStart + length
        recordIndex += 1
        return StreamFrame(index: index, offset: offset, bodyOffset: offset + size, range: bodyStart..<(bodyStart + length))
    }

    private func truncated(_ where: String, at offset: Int) -> IMWireError {
        .streamTruncated(`where`, offset: offset, recordIndex: recordIndex)
    }
}
