import IMWireCore
import IMWireBinary
import IMWireJSON

/// The messages of newline-delimited JSON: see
/// ``_Concurrency/AsyncSequence/jsonLinesMessages(of:options:)``.
public struct AsyncJSONLinesMessages<Base: AsyncSequence, M: JSONMessage>: AsyncSequence
where Base.Element: Collection, Base.Element.Element == UInt8 {
    public typealias Element = M

    let base: Base
    let options: JSONDecodingOptions

    public func makeAsyncIterator() -> AsyncFramedMessageIterator<Base, M> {
        let options = options
        return AsyncFramedMessageIterator(
            base: base.makeAsyncIterator(),
            core: FramedDecoding(framer: LineFramer(maxRecordSize: options.maxInputSize)) { (body) throws(IMWireError) in
                try M._jsonCodec.decode(body, options)
            })
    }
}

extension AsyncJSONLinesMessages: Sendable where Base: Sendable {}
