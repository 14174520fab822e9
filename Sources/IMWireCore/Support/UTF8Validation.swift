import CIMWireUTF8

/// UTF-8 checks for strings read from the wire and from JSON text: the binary decoder (and through
/// it the routing view) and the JSON scanner validate with these.
@usableFromInline package enum UTF8Validation {
    /// What ``check(_:)`` found.
    @usableFromInline package enum Result: Equatable, Sendable {
        case ascii, valid, invalid
    }

    /// Whether `bytes` are valid UTF-8 (Unicode's table 3-7), and whether they are all ASCII: ASCII
    /// strings of up to 64 bytes here, eight bytes at a time; the others by the vectorised validator
    /// of the `CIMWireUTF8` target (the lookup algorithm of Keiser and Lemire, on AVX-512, AVX2, SSSE3
    /// or NEON, chosen once per process), at well under an instruction per byte.
    @inline(__always)
    @inlinable
    package static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        // [unsafe: utf8-validator] single bytes below `count`, eight-byte loads ending at or before `count`
        // (the last one at `count - 8`, `count >= 8`).
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return .ascii }
        if count < 8 {
            var index = 0
            while index < count, base[index] < 0x80 { index += 1 }
            if index == count { return .ascii }
        } else if count <= shortString {
            // IDs, URLs and short texts: ASCII eight bytes at a time (the last word overlapping the
            // one before), without the call into the vectorised validator and its setup.
            let raw = UnsafeRawPointer(base)
            var high = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            var offset = 0
            while offset &+ 8 < count {
                high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            if high & 0x8080_8080_8080_8080 == 0 { return .ascii }
        }
        return Result(imwire_utf8_check(base, count))
    }

    /// Up to this many bytes, ``check(_:)`` tests for ASCII in Swift before calling the vectorised
    /// validator, which pays for itself on longer strings.
    @usableFromInline static var shortString: Int { 64 }

    /// The implementations of ``check(_:)``, for tests and benchmarks that compare them.
    @usableFromInline package enum Implementation: Int32, CaseIterable, Sendable {
        case scalar = 0, ssse3 = 1, avx2 = 2, neon = 3, avx512 = 4

        /// Whether this processor (and build) has it.
        @inlinable
        package var isAvailable: Bool { imwire_utf8_check_with(rawValue, nil, 0) >= 0 }

        /// The one ``check(_:)`` uses here.
        @inlinable
        package static var inUse: Implementation { Implementation(rawValue: imwire_utf8_implementation()) ?? .scalar }
    }

    /// ``check(_:)`` with a given implementation (which must be available).
    @inlinable
    package static func check(_ bytes: UnsafeBufferPointer<UInt8>, with implementation: Implementation) -> Result {
        Result(imwire_utf8_check_with(implementation.rawValue, bytes.baseAddress, bytes.count))
    }

    /// A `String` of bytes that are known to be valid UTF-8 (checked by ``check(_:)``): built without
    /// checking them again where the standard library offers it.
    /// `smallStrings`: ``SmallString/isAvailable``, which a decoder reads once, not per string.
    @inline(__always)
    @inlinable
    package static func string(
        validated bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, smallStrings: Bool = SmallString.isAvailable
    ) -> String {
        // [unsafe: validated-utf8] Every caller passes bytes ``check(_:)`` found valid (and `isASCII`
        // as it found), so the `String` is built without checking them again.
        if bytes.count <= SmallString.capacity, smallStrings {
            return SmallString.make(bytes, isASCII: isASCII)
        }
        #if compiler(>=6.2)  // `UTF8Span` first shipped with Swift 6.2; a 6.1 compiler takes the fallback
        if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
            return String(copying: UTF8Span(unchecked: Span(_unsafeElements: bytes), isKnownASCII: isASCII))
        }
        #endif
        return stringValidatingAgain(bytes)
    }

    /// ``string(validated:isASCII:)`` where `UTF8Span` is not available (Apple systems before the 26
    /// releases): the standard library's decoding, which checks the bytes a second time.
    @inline(never)
    @usableFromInline package static func stringValidatingAgain(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `bytes` are valid UTF-8, without making a string (for keys and skipped values).
    @inline(__always)
    @inlinable
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        check(bytes) != .invalid
    }

    // Locating the bad byte, for error messages: the cold path.
    /// Index of the first byte that does not start or continue a valid UTF-8 sequence.
    @inlinable
    package static func firstInvalidIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): index += scalar.count
            case .emptyInput: return index
            case .error: return index
            }
        }
    }
}

extension UTF8Validation.Result {
    @inline(__always)
    @usableFromInline init(_ code: Int32) {
        switch code {
        case Int32(IMWIRE_UTF8_ASCII): self = .ascii
        case Int32(IMWIRE_UTF8_VALID): self = .valid
        default: self = .invalid
        }
    }
}

/// For the benchmark harness only (`Benchmarks/`, `imwire-bench --op string-build`): builds a
/// `String` from validated bytes the way decoded values do, or the way they do on Apple systems
/// before the 26 releases (`fallback`), so both paths are measured side by side. Not API.
@_spi(Benchmarks)
public enum _UTF8StringBuilding {
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, fallback: Bool) -> String {
        fallback ? UTF8Validation.stringValidatingAgain(bytes) : UTF8Validation.string(validated: bytes, isASCII: isASCII)
    }
}
