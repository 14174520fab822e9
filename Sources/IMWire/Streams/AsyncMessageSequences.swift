extension AsyncSequence where Element: Collection, Element.Element == UInt8 {
    /// The messages of a length-delimited binary stream (``LengthDelimited``) arriving as chunks of
    /// bytes of any size — a record may be split anywhere, its length prefix included.
    ///
    /// Memory stays bounded by one record plus one chunk; `options.maxInputSize` is the limit per
    /// record, enforced from the length prefix before the record is buffered. The sequence throws the
    /// base sequence's errors as they are, and ``IMWireError``s whose ``IMWireError/recordIndex`` is
    /// the 0-based record and whose ``IMWireError/offset`` is the byte offset in the whole stream: a
    /// malformed prefix or body, a record over the limit, or a stream that ends inside a record
    /// (`truncated`). It ends after an error.
    public func lengthDelimitedMessages<M: IMWireMessage>(
        of type: M.Type = Message.self, options: BinaryDecodingOptions = .init()
    ) -> AsyncLengthDelimitedMessages<Self, M> {
        AsyncLengthDelimitedMessages(base: self, options: options)
    }

    /// The messages of newline-delimited JSON (``JSONLines``) arriving as chunks of bytes of any size:
    /// one proto3 JSON object per line, `\n` or `\r\n`; blank lines are skipped (and not counted as
    /// records); the last line may lack its newline.
    ///
    /// Memory stays bounded by one line plus one chunk: a line longer than `options.maxInputSize` is
    /// refused as soon as that many bytes arrived without a newline. Errors as for
    /// ``lengthDelimitedMessages(of:options:)``: the base's as they are, ``IMWireError``s with the
    /// record index and the byte offset in the stream.
    public func jsonLinesMessages<M: IMWireMessage>(
        of type: M.Type = Message.self, options: JSONDecodingOptions = .init()
    ) -> AsyncJSONLinesMessages<Self, M> {
        AsyncJSONLinesMessages(base: self, options: options)
    }
}

/// The messages of a length-delimited binary stream: see
/// ``_Concurrency/AsyncSequence/lengthDelimitedMessages(of:options:)``.
public struct AsyncLengthDelimitedMessages<Base: AsyncSequence, M: IMWireMessage>: AsyncSequence
where Base.Element: Collection, Base.Element.Element == UInt8 {
    public typealias Element = M

    let base: Base
    let options: BinaryDecodingOptions

    public func makeAsyncIterator() -> AsyncFramedMessageIterator<Base, M> {
        let options = options
        return AsyncFramedMessageIterator(
            base: base.makeAsyncIterator(),
            core: FramedDecoding(framer: DelimitedFramer(maxRecordSize: options.maxInputSize)) { (body) throws(IMWireError) in
                try M._imwireCodec.decodeBinary(body, options)
            })
    }
}

extension AsyncLengthDelimitedMessages: Sendable where Base: Sendable {}

/// The messages of newline-delimited JSON: see
/// ``_Concurrency/AsyncSequence/jsonLinesMessages(of:options:)``.
public struct AsyncJSONLinesMessages<Base: AsyncSequence, M: IMWireMessage>: AsyncSequence
where Base.Element: Collection, Base.Element.Element == UInt8 {
    public typealias Element = M

    let base: Base
    let options: JSONDecodingOptions

    public func makeAsyncIterator() -> AsyncFramedMessageIterator<Base, M> {
        let options = options
        return AsyncFramedMessageIterator(
            base: base.makeAsyncIterator(),
            core: FramedDecoding(framer: LineFramer(maxRecordSize: options.maxInputSize)) { (body) throws(IMWireError) in
                try M._imwireCodec.decodeJSON(body, options)
            })
    }
}

extension AsyncJSONLinesMessages: Sendable where Base: Sendable {}

/// The iterator of ``AsyncLengthDelimitedMessages`` and ``AsyncJSONLinesMessages``: pulls chunks
/// from the base sequence into the framing until a whole record is there, then decodes it.
public struct AsyncFramedMessageIterator<Base: AsyncSequence, M: IMWireMessage>: AsyncIteratorProtocol
where Base.Element: Collection, Base.Element.Element == UInt8 {
    var base: Base.AsyncIterator
    var core: FramedDecoding<M>

    public mutating func next() async throws -> M? {
        while true {
            if let message = try core.next() { return message }
            if core.isFinished { return nil }
            let chunk: Base.Element?
            do { chunk = try await base.next() } catch { core.end(); throw error }
            core.feed(chunk)
        }
    }

    public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> M? {
        while true {
            if let message = try core.next() { return message }
            if core.isFinished { return nil }
            let chunk: Base.Element?
            do { chunk = try await base.next(isolation: actor) } catch { core.end(); throw error }
            core.feed(chunk)
        }
    }
}

/// The synchronous state of an async message sequence: a framer, a decoder for one record, and
/// whether the input ended or an error ended the sequence.
struct FramedDecoding<M> {
    private var framer: any RecordFramer
    private let decode: (UnsafeBufferPointer<UInt8>) throws(IMWireError) -> M
    /// The base sequence ended: what is buffered is all there is.
    private var atEnd = false
    /// Nothing more will come: the input ended and every record was returned, or an error was thrown.
    private(set) var isFinished = false

    init(framer: any RecordFramer, decode: @escaping (UnsafeBufferPointer<UInt8>) throws(IMWireError) -> M) {
        self.framer = framer
        self.decode = decode
    }

    /// The next message from what was fed, or `nil` when more input is needed (or ``isFinished``).
    mutating func next() throws(IMWireError) -> M? {
        guard !isFinished else { return nil }
        do throws(IMWireError) {
            guard let frame = try framer.next(atEnd: atEnd) else {
                if atEnd { isFinished = true }
                return nil
            }
            let decode = decode
            do throws(IMWireError) {
                return try framer.withBytes(of: frame) { (body) throws(IMWireError) in try decode(body) }
            } catch {
                throw frame.streamError(error)
            }
        } catch {
            isFinished = true
            throw error
        }
    }

    /// Feeds a chunk of the base sequence; `nil` is its end.
    mutating func feed<Chunk: Collection<UInt8>>(_ chunk: Chunk?) {
        if let chunk { framer.feed(contentsOf: chunk) } else { atEnd = true }
    }

    /// Ends the sequence (the base threw).
    mutating func end() { isFinished = true }
}
