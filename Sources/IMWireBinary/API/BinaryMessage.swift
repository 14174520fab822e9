import IMWireCore

/// A message type with the protobuf binary wire format: every type of the IMWire schema when its
/// program imports `IMWireBinary` (or `IMWire`, which brings every format). A client that speaks
/// binary only depends on the `IMWireBinary` product and links no other format.
///
/// Only IMWire's generated types conform: the codec behind the protocol is an implementation
/// detail (`_binaryCodec` cannot be built outside the library).
public protocol BinaryMessage: IMWireModel {
    /// Implementation detail: this type's binary codec. Not for use outside IMWire.
    static var _binaryCodec: _BinaryCodec<Self> { get }
}

extension BinaryMessage {
    /// Decodes a message from the protobuf binary wire format.
    ///
    /// Accepts everything a conforming proto3 parser accepts (any field order, over-long varints,
    /// last-one-wins scalars, merged sub-messages, unknown fields of every wire type, which are kept)
    /// and throws an ``IMWireError`` with the byte offset for anything malformed. Memory and time are
    /// linear in the input; nesting and input size are bounded by `options`.
    ///
    /// `bytes` is read in place when it has contiguous storage (`[UInt8]`, `ArraySlice`, `Data`,
    /// `ByteBufferView`, a `String`'s UTF-8 view…); anything else is copied once.
    @inlinable
    public init<Bytes: Collection>(serializedBytes bytes: Bytes, options: BinaryDecodingOptions = .init()) throws(IMWireError)
    where Bytes.Element == UInt8 {
        self.init()
        try withContiguousBytes(bytes) { (buffer) throws(IMWireError) in
            try Self._binaryCodec.decodeInto(&self, buffer, options)
        }
    }

    /// Decodes a message from borrowed bytes; see ``init(serializedBytes:options:)-(Bytes,_)``.
    @inlinable
    public init(serializedBytes bytes: UnsafeRawBufferPointer, options: BinaryDecodingOptions = .init()) throws(IMWireError) {
        self.init()
        // [unsafe: api-bytes] Bound to `UInt8` for the call, as any initialised memory can be.
        try bytes.withMemoryRebound(to: UInt8.self) { (buffer) throws(IMWireError) in
            try Self._binaryCodec.decodeInto(&self, buffer, options)
        }
    }

    #if compiler(>=6.2)
    /// Decodes a message from a borrowed span of bytes.
    @inlinable
    public init(serializedBytes bytes: RawSpan, options: BinaryDecodingOptions = .init()) throws(IMWireError) {
        let result = bytes.withUnsafeBytes { buffer in
            // [unsafe: api-bytes] Bound to `UInt8` for the call.
            buffer.withMemoryRebound(to: UInt8.self) { bytes in
                Result { () throws(IMWireError) in try Self._binaryCodec.decode(bytes, options) }
            }
        }
        self = try result.get()
    }
    #endif

    /// The canonical protobuf encoding: fields in field-number order, proto3 defaults omitted, map
    /// entries sorted by key, unknown fields after known ones. Deterministic: equal messages give
    /// equal bytes. Throws `depth_limit_exceeded` for a model nested deeper than `options.maxDepth`.
    @inlinable
    public func serializedBytes(options: BinaryEncodingOptions = .init()) throws(IMWireError) -> [UInt8] {
        var result: [UInt8] = []
        try Self._binaryCodec.encode(self, options) { result = Array($0) }
        return result
    }

    /// The canonical encoding in a container of the caller's choice: `let data: Data = try
    /// message.serializedBytes()`.
    @inlinable
    public func serializedBytes<Bytes: RangeReplaceableCollection & MutableCollection>(
        options: BinaryEncodingOptions = .init()
    ) throws(IMWireError) -> Bytes where Bytes.Element == UInt8 {
        var bytes = Bytes()
        try appendSerializedBytes(to: &bytes, options: options)
        return bytes
    }

    /// Appends the canonical encoding to `bytes` (a buffer being filled with several messages, a
    /// frame after its header), in one contiguous copy. On error `bytes` is left as it was.
    @inlinable
    public func appendSerializedBytes<Bytes: RangeReplaceableCollection & MutableCollection>(
        to bytes: inout Bytes, options: BinaryEncodingOptions = .init()
    ) throws(IMWireError) where Bytes.Element == UInt8 {
        try Self._binaryCodec.encode(self, options) { bytes.append(contentsOf: $0) }
    }

    /// The size of ``serializedBytes(options:)->[UInt8]`` in bytes. (The encoder writes in one pass
    /// without sizing first, so this encodes into a per-thread buffer and counts, copying nothing.)
    @inlinable
    public func serializedSize(options: BinaryEncodingOptions = .init()) throws(IMWireError) -> Int {
        var size = 0
        try Self._binaryCodec.encode(self, options) { size = $0.count }
        return size
    }
}
