import IMWireCore
import IMWireBinary
import IMWireJSON

/// The messages of a length-delimited binary stream: see
/// ``_Concurrency/AsyncSequence/lengthDelimitedMessages(of:options:)``.
public struct AsyncLengthDelimitedMessages<Base: AsyncSequence, M: BinaryMessage>: AsyncSequence
where Base.Element: Collection, Base.Element.Element == UInt8 {
    public typealias Element = M

    let base: Base
    let options: BinaryDecodingOptions

    public func makeAsyncIterator() -> AsyncFramedMessageIterator<Base, M> {
        let options = options
        return AsyncFramedMessageIterator(
            base: base.makeAsyncIterator(),
            core: FramedDecoding(framer: DelimitedFramer(maxRecordSize: options.maxInputSize)) { (body) throws(IMWireError) in
                try M._binaryCodec.decode(body, options)
            })
    }
}

extension AsyncLengthDelimitedMessages: Sendable where Base: Sendable {}
