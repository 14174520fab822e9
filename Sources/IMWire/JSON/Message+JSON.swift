extension Message {
    /// Decodes a message from proto3 JSON (UTF-8), as SPEC §2.2 and ``JSONDecodingOptions`` describe.
    public init(jsonUTF8 bytes: [UInt8], options: JSONDecodingOptions = .init()) throws(IMWireError) {
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(IMWireError) in
            try JSONReader.decode(Message.self, from: buffer, options: options)
        }
    }

    /// Decodes a message from proto3 JSON text.
    public init(jsonString: String, options: JSONDecodingOptions = .init()) throws(IMWireError) {
        var text = jsonString
        let result = text.withUTF8 { buffer in
            Result { () throws(IMWireError) in try JSONReader.decode(Message.self, from: buffer, options: options) }
        }
        self = try result.get()
    }

    /// The canonical proto3 JSON form as UTF-8: lowerCamelCase keys in field-number order, defaults
    /// omitted, 64-bit integers as strings, bytes as padded base64, enums by name, compact unless
    /// `options.prettyPrinted`. Unknown fields have no JSON form and are not written.
    public func jsonUTF8Bytes(options: JSONEncodingOptions = .init()) throws(IMWireError) -> [UInt8] {
        try JSONWriter.encode(self, options: options)
    }

    /// ``jsonUTF8Bytes(options:)`` as a `String`.
    public func jsonString(options: JSONEncodingOptions = .init()) throws(IMWireError) -> String {
        String(decoding: try jsonUTF8Bytes(options: options), as: UTF8.self)
    }
}
