import IMWireCore
import IMWireBinary
import IMWireJSON

/// The iterator of ``AsyncLengthDelimitedMessages`` and ``AsyncJSONLinesMessages``: pulls chunks
/// from the base sequence into the framing until a whole record is there, then decodes it.
public struct AsyncFramedMessageIterator<Base: AsyncSequence, M: IMWireModel>: AsyncIteratorProtocol
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
