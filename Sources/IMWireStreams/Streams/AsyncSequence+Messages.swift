import IMWireCore
import IMWireBinary
import IMWireJSON

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
    public func lengthDelimitedMessages<M: BinaryMessage>(
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
    public func jsonLinesMessages<M: JSONMessage>(
        of type: M.Type = Message.self, options: JSONDecodingOptions = .init()
    ) -> AsyncJSONLinesMessages<Self, M> {
        AsyncJSONLinesMessages(base: self, options: options)
    }
}
