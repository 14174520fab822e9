extension UnsafeBufferPointer<UInt8> {
    /// The first byte's address for a reader's cursor: an empty buffer may have no base address, and
    /// gets a placeholder that is never dereferenced (every reader stops at a position equal to the
    /// count before it reads).
    @inlinable
    package var readableBase: UnsafePointer<UInt8> { baseAddress ?? UnsafePointer(bitPattern: 0x10)! }
}
