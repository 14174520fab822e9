import IMWireCore
import IMWireJSONText

/// Implementation detail of ``JSONMessage``: the proto3 JSON codec of one message type,
/// specialised for it. It has no public members and no public initialiser.
public struct _JSONCodec<M: JSONMessage>: Sendable {
    @usableFromInline package let decode: @Sendable (UnsafeBufferPointer<UInt8>, JSONDecodingOptions) throws(IMWireError) -> M
    @usableFromInline let decodeReporting: @Sendable (UnsafeBufferPointer<UInt8>, JSONDecodingOptions, inout DecodingReport) throws(IMWireError) -> M
    @usableFromInline let encode: @Sendable (M, JSONEncodingOptions) throws(IMWireError) -> [UInt8]
}

extension _JSONCodec where M: JSONFieldReading {
    @usableFromInline package init() {
        decode = { (bytes, options) throws(IMWireError) in try JSONReader.decode(M.self, from: bytes, options: options) }
        decodeReporting = { (bytes, options, report) throws(IMWireError) in
            try JSONReader.decode(M.self, from: bytes, options: options, report: &report)
        }
        encode = { (message, options) throws(IMWireError) in try JSONWriter.encode(message, options: options) }
    }
}
