import IMWireCore
import IMWireJSONText

/// A message type with proto3 JSON: every type of the IMWire schema when its program imports
/// `IMWireJSON` (or `IMWire`).
///
/// Only IMWire's generated types conform: the codec behind the protocol is an implementation
/// detail (`_jsonCodec` cannot be built outside the library).
public protocol JSONMessage: IMWireModel {
    /// Implementation detail: this type's proto3 JSON codec. Not for use outside IMWire.
    static var _jsonCodec: _JSONCodec<Self> { get }
}

extension JSONMessage {
    /// Decodes a message from proto3 JSON (UTF-8), as ``JSONDecodingOptions`` describes: JSON names
    /// and proto names, 64-bit integers as numbers or strings, bytes as standard or URL-safe base64,
    /// enums by name or number; duplicate keys, unknown keys (unless ignored) and two members of one
    /// oneof are errors. `bytes` is read in place when it has contiguous storage.
    @inlinable
    public init<Bytes: Collection>(jsonUTF8Bytes bytes: Bytes, options: JSONDecodingOptions = .init()) throws(IMWireError)
    where Bytes.Element == UInt8 {
        self = try withContiguousBytes(bytes) { (buffer) throws(IMWireError) in
            try Self._jsonCodec.decode(buffer, options)
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
            try Self._jsonCodec.decodeReporting(buffer, options, &report)
        }
    }

    /// Decodes a message from borrowed proto3 JSON bytes.
    @inlinable
    public init(jsonUTF8Bytes bytes: UnsafeRawBufferPointer, options: JSONDecodingOptions = .init()) throws(IMWireError) {
        // [unsafe: api-bytes] Bound to `UInt8` for the call.
        self = try bytes.withMemoryRebound(to: UInt8.self) { (buffer) throws(IMWireError) in
            try Self._jsonCodec.decode(buffer, options)
        }
    }

    /// Decodes a message from proto3 JSON text.
    @inlinable
    public init(jsonString: String, options: JSONDecodingOptions = .init()) throws(IMWireError) {
        var text = jsonString
        let result = text.withUTF8 { buffer in
            Result { () throws(IMWireError) in try Self._jsonCodec.decode(buffer, options) }
        }
        self = try result.get()
    }

    /// The canonical proto3 JSON form as UTF-8: lowerCamelCase keys in field-number order, defaults
    /// omitted, 64-bit integers as strings, bytes as padded base64, enums by name, compact unless
    /// `options.prettyPrinted`. Unknown fields have no JSON form and are not written.
    @inlinable
    public func jsonUTF8Bytes(options: JSONEncodingOptions = .init()) throws(IMWireError) -> [UInt8] {
        try Self._jsonCodec.encode(self, options)
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
