import IMWireCore
import IMWireBinary
import IMWireJSON

/// Cuts a byte stream that arrives in chunks of any size into records, without knowing what the
/// records hold: the push-style core shared by the async sequences (``AsyncLengthDelimitedMessages``,
/// ``AsyncJSONLinesMessages``) and `imwire convert --stream`.
///
/// Use: ``feed(_:)`` a chunk, then call ``next(atEnd:)`` until it returns `nil` (it needs more
/// input), decoding each frame's bytes with ``withBytes(of:_:)`` before the next feed; at the end of
/// the input call ``next(atEnd:)`` with `atEnd: true` until `nil`.
///
/// Memory is bounded: a framer holds the unfinished part of one record plus the last chunk fed. A
/// record longer than ``maxRecordSize`` is refused as soon as its length is known (binary: from
/// its prefix; lines: once that many bytes arrived without a newline), before its body is buffered.
/// Time is linear in the input whatever the chunking (1-byte chunks included).
@usableFromInline package protocol RecordFramer {
    /// The largest record body accepted, in bytes.
    var maxRecordSize: Int { get }
    /// Appends a chunk of the stream. Frames returned before stay valid until this call.
    mutating func feed(_ chunk: UnsafeRawBufferPointer)
    /// The next complete record; `nil` when more input is needed (or, `atEnd`, when there is none).
    /// Errors carry the record index and the byte offset in the stream, and end the stream.
    mutating func next(atEnd: Bool) throws(IMWireError) -> StreamFrame?
    /// The buffer holding the frames: see ``withBytes(of:_:)``.
    var buffer: FrameBuffer { get }
}

extension RecordFramer {
    /// Appends a chunk of any collection of bytes (copied once, as ``feed(_:)`` does).
    @usableFromInline package mutating func feed<Chunk: Collection<UInt8>>(contentsOf chunk: Chunk) {
        let fed: Void? = chunk.withContiguousStorageIfAvailable { feed(UnsafeRawBufferPointer($0)) }
        if fed == nil {
            let copy = Array(chunk)
            copy.withUnsafeBytes { feed($0) }
        }
    }

    /// Calls `body` with the bytes of `frame` (valid until the next ``feed(_:)``).
    @usableFromInline package func withBytes<R, E: Error>(
        of frame: StreamFrame, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
    ) throws(E) -> R {
        try buffer.withBytes(frame.range, body)
    }

    /// Bytes of the stream seen so far (fed), whether framed or not.
    @usableFromInline package var bytesFed: Int { buffer.baseOffset + buffer.bytes.count }
    /// Bytes held: the unfinished record plus what is left of the last chunk.
    @usableFromInline package var bytesBuffered: Int { buffer.bytes.count }
}

/// One record found by a ``RecordFramer``.
@usableFromInline package struct StreamFrame: Sendable, Hashable {
    /// 0-based index of the record in the stream.
    @usableFromInline package var index: Int
    /// Byte offset in the stream where the record starts (its length prefix, or its line).
    @usableFromInline package var offset: Int
    /// Byte offset in the stream of the record's body (after a length prefix).
    @usableFromInline package var bodyOffset: Int
    /// The body's position in the framer's buffer.
    @usableFromInline package var range: Range<Int>
    /// Body size in bytes.
    @usableFromInline package var count: Int { range.count }

    /// `error`, found at an offset inside this record's body, as an error about the stream: the
    /// record index added, the offset made a stream offset (the record's when it had none).
    @usableFromInline package func streamError(_ error: IMWireError) -> IMWireError {
        error.inRecord(index, recordOffset: offset, bodyOffset: bodyOffset)
    }
}

/// The bytes a framer holds: consumed bytes are dropped when the next chunk arrives, so it holds at
/// most one unfinished record plus one chunk.
@usableFromInline package struct FrameBuffer {
    package private(set) var bytes: [UInt8] = []
    /// First byte not yet framed.
    @usableFromInline package var start = 0
    /// Stream offset of `bytes[0]`.
    package private(set) var baseOffset = 0

    @usableFromInline package init() {}

    /// Stream offset of `bytes[index]`.
    @inline(__always)
    @usableFromInline package func streamOffset(_ index: Int) -> Int { baseOffset + index }

    /// Unframed bytes held.
    @inline(__always)
    @usableFromInline package var available: Int { bytes.count - start }

    @usableFromInline package mutating func append(_ chunk: UnsafeRawBufferPointer) {
        if start > 0 {
            // Drop what was framed: what remains is the start of one record, moved once.
            if start == bytes.count {
                bytes.removeAll(keepingCapacity: true)
            } else {
                bytes.removeSubrange(0..<start)
            }
            baseOffset += start
            start = 0
        }
        // [unsafe: api-bytes] Bound to `UInt8` for the call.
        chunk.withMemoryRebound(to: UInt8.self) { bytes.append(contentsOf: $0) }
    }

    @usableFromInline package func withBytes<R, E: Error>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        // [unsafe: stream-frames] the framers pass ranges of records they found inside `bytes`
        // (`start..<bytes.count`).
        try bytes.withUnsafeBufferPointer { (all) throws(E) in try body(UnsafeBufferPointer(rebasing: all[range])) }
    }
}
