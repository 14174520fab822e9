extension Message {
    /// Renamed to mirror ``jsonUTF8Bytes(options:)``.
    @available(*, deprecated, renamed: "init(jsonUTF8Bytes:options:)")
    public init(jsonUTF8 bytes: [UInt8], options: JSONDecodingOptions = .init()) throws(IMWireError) {
        try self.init(jsonUTF8Bytes: bytes, options: options)
    }
}
