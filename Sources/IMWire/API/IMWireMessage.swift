/// A message type of the IMWire schema (`Schemas/imwire/v1/message.proto`): ``Message`` and every
/// type inside it — ``Elem``, ``TextElem``, ``GroupMemberInfo``, ``OfflinePushInfo``… Each one is
/// encoded and decoded on its own with the same codecs as ``Message``, as a protobuf runtime allows
/// for any message type:
///
/// ```swift
/// let member = GroupMemberInfo(userID: "alice", role: .admin)
/// let bytes = try member.serializedBytes()
/// let again = try GroupMemberInfo(serializedBytes: bytes)
/// ```
///
/// Input is any contiguous byte collection — `[UInt8]`, `ArraySlice<UInt8>`, Foundation's `Data`,
/// swift-nio's `ByteBufferView`, `UnsafeRawBufferPointer`, `RawSpan` — read in place, not copied;
/// output is a fresh `[UInt8]`, a container of the caller's choosing, or appended to a caller's buffer.
///
/// Only IMWire's generated types conform: the field tables behind the protocol are an
/// implementation detail (`_imwireCodec` cannot be built outside the library).
public protocol IMWireMessage: Hashable, Sendable, CustomDebugStringConvertible {
    /// An empty value: every field at its proto3 default.
    init()
    /// Fields this schema does not know, kept and re-emitted after the known ones.
    var unknownFields: UnknownFields { get set }
    /// Implementation detail: this type's codecs. Not for use outside IMWire.
    static var _imwireCodec: _IMWireMessageCodec<Self> { get }
    /// The type's read-only view over borrowed bytes (``withView(serializedBytes:options:_:)``).
    associatedtype View: IMWireMessageView where View.Owned == Self
    /// An owned copy of a view's fields.
    init(_ view: View)
}

// MARK: - Binary

extension IMWireMessage {
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
            try Self._imwireCodec.decodeBinaryInto(&self, buffer, options)
        }
    }

    /// Decodes a message from borrowed bytes; see ``init(serializedBytes:options:)-(Bytes,_)``.
    @inlinable
    public init(serializedBytes bytes: UnsafeRawBufferPointer, options: BinaryDecodingOptions = .init()) throws(IMWireError) {
        self.init()
        // [unsafe: api-bytes] Bound to `UInt8` for the call, as any initialised memory can be.
        try bytes.withMemoryRebound(to: UInt8.self) { (buffer) throws(IMWireError) in
            try Self._imwireCodec.decodeBinaryInto(&self, buffer, options)
        }
    }

    #if compiler(>=6.2)
    /// Decodes a message from a borrowed span of bytes.
    @inlinable
    public init(serializedBytes bytes: RawSpan, options: BinaryDecodingOptions = .init()) throws(IMWireError) {
        let result = bytes.withUnsafeBytes { buffer in
            // [unsafe: api-bytes] Bound to `UInt8` for the call.
            buffer.withMemoryRebound(to: UInt8.self) { bytes in
                Result { () throws(IMWireError) in try Self._imwireCodec.decodeBinary(bytes, options) }
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
        try Self._imwireCodec.encodeBinary(self, options) { result = Array($0) }
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
        try Self._imwireCodec.encodeBinary(self, options) { bytes.append(contentsOf: $0) }
    }

    /// The size of ``serializedBytes(options:)->[UInt8]`` in bytes. (The encoder writes in one pass
    /// without sizing first, so this encodes into a per-thread buffer and counts, copying nothing.)
    @inlinable
    public func serializedSize(options: BinaryEncodingOptions = .init()) throws(IMWireError) -> Int {
        var size = 0
        try Self._imwireCodec.encodeBinary(self, options) { size = $0.count }
        return size
    }
}

// MARK: - JSON

extension IMWireMessage {
    /// Decodes a message from proto3 JSON (UTF-8), as ``JSONDecodingOptions`` describes: JSON names
    /// and proto names, 64-bit integers as numbers or strings, bytes as standard or URL-safe base64,
    /// enums by name or number; duplicate keys, unknown keys (unless ignored) and two members of one
    /// oneof are errors. `bytes` is read in place when it has contiguous storage.
    @inlinable
    public init<Bytes: Collection>(jsonUTF8Bytes bytes: Bytes, options: JSONDecodingOptions = .init()) throws(IMWireError)
    where Bytes.Element == UInt8 {
        self = try withContiguousBytes(bytes) { (buffer) throws(IMWireError) in
            try Self._imwireCodec.decodeJSON(buffer, options)
        }
    }

    /// Decodes a message from proto3 JSON as ``init(jsonUTF8Bytes:options:)-(Bytes,_)`` does, and
    /// puts in `report` (replacing what it held) every key and enum name the decode skipped, with
    /// its path: with ``JSONDecodingOptions/ignoreUnknownFields`` the keys that are not fields of
    /// the schema (`reason` ``SkippedKey/Reason/unknownKey``, with the field they were probably
    /// meant to be) and the enum names it does not know (``SkippedKey/Reason/unknownValue``, read as
    /// the default). Without that option nothing is skipped — those are errors — and the report
    /// comes back empty. Nothing is collected until something is skipped.
    @inlinable
    public init<Bytes: Collection>(
        jsonUTF8Bytes bytes: Bytes, options: JSONDecodingOptions = .init(), report: inout DecodingReport
    ) throws(IMWireError) where Bytes.Element == UInt8 {
        self = try withContiguousBytes(bytes) { (buffer) throws(IMWireError) in
            try Self._imwireCodec.decodeJSONReporting(buffer, options, &report)
        }
    }

    /// Decodes a message from borrowed proto3 JSON bytes.
    @inlinable
    public init(jsonUTF8Bytes bytes: UnsafeRawBufferPointer, options: JSONDecodingOptions = .init()) throws(IMWireError) {
        // [unsafe: api-bytes] Bound to `UInt8` for the call.
        self = try bytes.withMemoryRebound(to: UInt8.self) { (buffer) throws(IMWireError) in
            try Self._imwireCodec.decodeJSON(buffer, options)
        }
    }

    /// Decodes a message from proto3 JSON text.
    @inlinable
    public init(jsonString: String, options: JSONDecodingOptions = .init()) throws(IMWireError) {
        var text = jsonString
        let result = text.withUTF8 { buffer in
            Result { () throws(IMWireError) in try Self._imwireCodec.decodeJSON(buffer, options) }
        }
        self = try result.get()
    }

    /// The canonical proto3 JSON form as UTF-8: lowerCamelCase keys in field-number order, defaults
    /// omitted, 64-bit integers as strings, bytes as padded base64, enums by name, compact unless
    /// `options.prettyPrinted`. Unknown fields have no JSON form and are not written.
    @inlinable
    public func jsonUTF8Bytes(options: JSONEncodingOptions = .init()) throws(IMWireError) -> [UInt8] {
        try Self._imwireCodec.encodeJSON(self, options)
    }

    /// The canonical JSON form in a container of the caller's choice.
    @inlinable
    public func jsonUTF8Bytes<Bytes: RangeReplaceableCollection>(
        options: JSONEncodingOptions = .init()
    ) throws(IMWireError) -> Bytes where Bytes.Element == UInt8 {
        Bytes(try jsonUTF8Bytes(options: options))
    }

    /// Appends the canonical JSON form to `bytes`. On error `bytes` is left as it was.
    @inlinable
    public func appendJSONUTF8Bytes<Bytes: RangeReplaceableCollection>(
        to bytes: inout Bytes, options: JSONEncodingOptions = .init()
    ) throws(IMWireError) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: try jsonUTF8Bytes(options: options))
    }

    /// ``jsonUTF8Bytes(options:)->[UInt8]`` as a `String`.
    @inlinable
    public func jsonString(options: JSONEncodingOptions = .init()) throws(IMWireError) -> String {
        String(decoding: try jsonUTF8Bytes(options: options), as: UTF8.self)
    }
}

// MARK: - Debugging

extension IMWireMessage {
    /// The fields that are set, by their Swift names, and their values:
    /// `Message(msgID: "m1", sender: "alice", groupID: "g1", elems: [Elem(text: TextElem(text: "hi"))])`.
    /// Bytes are shown in hex (the first 32, then the count); unknown fields by their size.
    @inlinable
    public var debugDescription: String { Self._imwireCodec.describe(self) }
}

// MARK: - Byte access

/// Calls `body` with `bytes` in place when the collection has contiguous storage, with a copy
/// otherwise.
@inlinable @inline(__always)
func withContiguousBytes<Bytes: Collection, R>(

    _ bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>) throws(IMWireError) -> R

) throws(IMWireError) -> R where Bytes.Element == UInt8 {
    // [unsafe: api-bytes] the cast runs only when `Bytes` is `[UInt8]` (checked just before), so the value is
    // already of the target type.
    if Bytes.self == [UInt8].self {
        // The common case, without a `Result` to carry the error out of the closure (moving a large
        // message through one is measurable): the test folds away when specialised.
        return try unsafeBitCast(bytes, to: [UInt8].self).withUnsafeBufferPointer { (buffer) throws(IMWireError) in try body(buffer) }
    }
    if let result = bytes.withContiguousStorageIfAvailable({ buffer in
        Result { () throws(IMWireError) in try body(buffer) }
    }) {
        return try result.get()
    }
    let copy = Array(bytes)
    return try copy.withUnsafeBufferPointer { (buffer) throws(IMWireError) in try body(buffer) }
}

/// ``withContiguousBytes(_:_:)`` for a body that may throw any error: the views' closures, which run
/// the caller's code.
@inlinable @inline(__always)
func withContiguousBytesRethrowing<Bytes: Collection, R>(
    _ bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
) rethrows -> R where Bytes.Element == UInt8 {
    if let result = try bytes.withContiguousStorageIfAvailable(body) { return result }
    return try Array(bytes).withUnsafeBufferPointer(body)
}
