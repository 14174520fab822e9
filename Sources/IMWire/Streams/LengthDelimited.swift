/// Length-delimited protobuf binary: a stream of messages, each written as a varint of its size
/// followed by its canonical encoding — the framing of C++ `SerializeDelimitedTo` /
/// `ParseDelimitedFromCodedStream`, Java `writeDelimitedTo` / `parseDelimitedFrom` and Go
/// `protodelim`, and of Python's `_VarintBytes(len(data)) + data`.
///
/// ```swift
/// var stream: [UInt8] = []
/// for message in messages { try LengthDelimited.append(message, to: &stream) }
///
/// var rest = stream[...]
/// while let (message, count) = try LengthDelimited.read(from: rest) {
///     handle(message)
///     rest = rest.dropFirst(count)
/// }
/// ```
///
/// For input that arrives in pieces (a socket, a file read in chunks) use
/// ``_Concurrency/AsyncSequence/lengthDelimitedMessages(of:options:)``, or feed ``read(_:from:options:)``
/// a growing buffer: it returns `nil` until a whole record is there.
///
/// A length prefix is a varint of at most 10 bytes claiming at most `Int32.max` bytes (what the
/// runtimes above accept); each record is decoded with the given options, so
/// ``BinaryDecodingOptions/maxInputSize`` is the limit per record.
public enum LengthDelimited {
    /// Appends `message` to `buffer`: the varint length of its canonical encoding, then the encoding
    /// (``Message/serializedBytes(options:)``).
    public static func append<Buffer: RangeReplaceableCollection<UInt8>>(
        _ message: Message, to buffer: inout Buffer, options: BinaryEncodingOptions = .init()
    ) throws(IMWireError) {
        try appendRecord(message, to: &buffer, options: options)
    }

    /// Decodes the first record of `bytes` and returns the message and the number of bytes the
    /// record takes (prefix and body), or `nil` when `bytes` does not hold a whole record yet.
    ///
    /// Throws, with the byte offset in `bytes`: `varint_too_long` for a prefix over 10 bytes,
    /// `length_out_of_bounds` for a length above `Int32.max`, `input_too_large` for a record longer
    /// than `options.maxInputSize` (as soon as the prefix is complete, before the body is there), and
    /// any error of ``Message/init(serializedBytes:options:)-([UInt8],_)`` for a malformed body.
    public static func read(
        _ type: Message.Type = Message.self, from bytes: some Collection<UInt8>, options: BinaryDecodingOptions = .init()
    ) throws(IMWireError) -> (message: Message, byteCount: Int)? {
        try readRecord(type, from: bytes, options: options)
    }

    static func appendRecord<M: ProtoMessage, Buffer: RangeReplaceableCollection<UInt8>>(
        _ message: M, to buffer: inout Buffer, options: BinaryEncodingOptions
    ) throws(IMWireError) {
        let body = try BinaryEncoder.encode(message, options: options)
        guard body.count <= DelimitedPrefix.maxLength else {
            throw IMWireError(
                code: .notRepresentable,
                reason: "a message of \(body.count) bytes is longer than a delimited record may be (\(DelimitedPrefix.maxLength) bytes)")
        }
        var length = UInt64(body.count)
        while length >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: length) | 0x80)
            length >>= 7
        }
        buffer.append(UInt8(length))
        buffer.append(contentsOf: body)
    }

    static func readRecord<M: ProtoMessage, Bytes: Collection<UInt8>>(
        _ type: M.Type, from bytes: Bytes, options: BinaryDecodingOptions
    ) throws(IMWireError) -> (message: M, byteCount: Int)? {
        let parsed = try DelimitedPrefix.parse(bytes.prefix(10), maxRecordSize: options.maxInputSize, recordIndex: nil, offset: 0)
        guard case .complete(let length, let size) = parsed else { return nil }
        let bodyStart = bytes.index(bytes.startIndex, offsetBy: size)
        guard let bodyEnd = bytes.index(bodyStart, offsetBy: length, limitedBy: bytes.endIndex) else { return nil }
        let result = withContiguousBytes(bytes[bodyStart..<bodyEnd]) { body in
            Result { () throws(IMWireError) in try BinaryDecoder.decode(M.self, from: body, options: options) }
        }
        switch result {
        case .success(let message): return (message, size + length)
        case .failure(let error): throw error.inRecord(nil, recordOffset: 0, bodyOffset: size)
        }
    }
}

extension IMWireError {
    /// This error, found at an offset inside a record's body, as an error about the stream or
    /// buffer holding the record: the offset made relative to the stream (the record's own offset
    /// when the error had none), the record index added.
    package func inRecord(_ index: Int?, recordOffset: Int, bodyOffset: Int) -> IMWireError {
        IMWireError(
            code: code, reason: reason, offset: offset.map { bodyOffset + $0 } ?? recordOffset, path: path,
            recordIndex: index)
    }
}

/// Calls `body` with the bytes of `bytes`, contiguous: in place when the collection has contiguous
/// storage, copied once otherwise.
@inline(__always)
func withContiguousBytes<Bytes: Collection<UInt8>, R>(_ bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
    return Array(bytes).withUnsafeBufferPointer(body)
}
