/// Calls `body` with `bytes` in place when the collection has contiguous storage, with a copy
/// otherwise.
@inlinable @inline(__always)
package func withContiguousBytes<Bytes: Collection, R>(
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
package func withContiguousBytesRethrowing<Bytes: Collection, R>(
    _ bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
) rethrows -> R where Bytes.Element == UInt8 {
    if let result = try bytes.withContiguousStorageIfAvailable(body) { return result }
    return try Array(bytes).withUnsafeBufferPointer(body)
}
