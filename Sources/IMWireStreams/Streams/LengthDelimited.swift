import IMWireCore
import IMWireBinary
import IMWireJSON

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
    /// (``BinaryMessage/serializedBytes(options:)->[UInt8]``). On error `buffer` is left as it was.
    public static func append<Bytes: RangeReplaceableCollection>(
        _ message: some BinaryMessage, to buffer: inout Bytes, options: BinaryEncodingOptions = .init()
    ) throws(IMWireError) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: try message.delimitedBytes(options: options))
    }

    /// Decodes the first record of `bytes` as an `M` (``Message`` unless named) and returns it with
    /// the number of bytes the record takes (prefix and body), or `nil` when `bytes` does not hold
    /// a whole record yet. The body is read in place when `bytes` has contiguous storage.
    ///
    /// Throws, with the byte offset in `bytes`: `varint_too_long` for a prefix over 10 bytes,
    /// `length_out_of_bounds` for a length above `Int32.max`, `input_too_large` for a record longer
    /// than `options.maxInputSize` (as soon as the prefix is complete, before the body is there), and
    /// any error of ``BinaryMessage/init(serializedBytes:options:)-(Bytes,_)`` for a malformed body.
    public static func read<M: BinaryMessage, Bytes: Collection>(
        _ type: M.Type = Message.self, from bytes: Bytes, options: BinaryDecodingOptions = .init()
    ) throws(IMWireError) -> (message: M, byteCount: Int)? where Bytes.Element == UInt8 {
        let parsed = try DelimitedPrefix.parse(bytes.prefix(10), maxRecordSize: options.maxInputSize, recordIndex: nil, offset: 0)
        guard case .complete(let length, let size) = parsed else { return nil }
        let bodyStart = bytes.index(bytes.startIndex, offsetBy: size)
        guard let bodyEnd = bytes.index(bodyStart, offsetBy: length, limitedBy: bytes.endIndex) else { return nil }
        do throws(IMWireError) {
            let message = try withContiguousBytes(bytes[bodyStart..<bodyEnd]) { (body) throws(IMWireError) in
                try M._binaryCodec.decode(body, options)
            }
            return (message, size + length)
        } catch {
            throw error.inRecord(nil, recordOffset: 0, bodyOffset: size)
        }
    }
}

extension BinaryMessage {
    /// The varint length of the canonical encoding, then the encoding, in one array: appended to the
    /// caller's buffer in one contiguous copy, not written into a generic buffer in place (which runs
    /// unspecialised, byte by byte, when the caller is in another module; Docs/benchmarks.md has the
    /// measurement).
    func delimitedBytes(options: BinaryEncodingOptions) throws(IMWireError) -> [UInt8] {
        // [unsafe: stream-frames] the array's capacity is the prefix's size plus the body's count; the prefix
        // writes exactly its size, the body its count (copied only when not empty: both base addresses are
        // there).
        var record: [UInt8] = []
        var tooLong = 0
        try Self._binaryCodec.encode(self, options) { body in
            guard body.count <= DelimitedPrefix.maxLength else {
                tooLong = body.count
                return
            }
            let prefixSize = Varint.size(body.count)
            record = [UInt8](unsafeUninitializedCapacity: prefixSize + body.count) { record, initializedCount in
                let written = Varint.write(UInt64(body.count), to: record.baseAddress!)
                if body.count > 0 { (record.baseAddress! + written).update(from: body.baseAddress!, count: body.count) }
                initializedCount = prefixSize + body.count
            }
        }
        guard tooLong == 0 else {
            throw .notRepresentable(
                "a message of \(counted(tooLong, "byte")) is longer than a delimited record may be (\(counted(DelimitedPrefix.maxLength, "byte")))")
        }
        return record
    }
}
