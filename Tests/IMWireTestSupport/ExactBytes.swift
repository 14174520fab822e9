#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` with a copy of `bytes` in a heap block of exactly `bytes.count` bytes and nothing
/// after it, so that a read one byte past the input is an AddressSanitizer report (the test
/// command's sanitizer step) rather than a read of an array's spare capacity.
package func withExactBytes<R>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let block = malloc(max(bytes.count, 1))!.bindMemory(to: UInt8.self, capacity: bytes.count)
    defer { free(block) }
    bytes.withUnsafeBufferPointer { source in
        if let base = source.baseAddress { block.update(from: base, count: bytes.count) }
    }
    return try body(UnsafeBufferPointer(start: block, count: bytes.count))
}
