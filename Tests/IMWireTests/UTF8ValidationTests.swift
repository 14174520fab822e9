// The vectorised UTF-8 validator (Support/UTF8Validation.swift over the CIMWireUTF8 target) against the
// standard library's validator: every implementation this processor runs (scalar, SSSE3, AVX2 or
// NEON) must agree with `String(validating:as:)` on validity and with a byte scan on "all ASCII", on
// random input, on every pair of bytes at every offset of a vector, on truncations at every
// position, and on every class of ill-formed sequence placed across every vector boundary.
//
// Iteration counts: each test's default below, or IMWIRE_PROPERTY_ITERATIONS.

import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    /// What the standard library says of `bytes`.
    static func reference(_ bytes: [UInt8]) -> UTF8Validation.Result {
        guard String(validating: bytes, as: UTF8.self) != nil else { return .invalid }
        return bytes.allSatisfy { $0 < 0x80 } ? .ascii : .valid
    }

    /// Every implementation this processor runs, by name.
    static let implementations = UTF8Validation.Implementation.allCases.filter(\.isAvailable)

    static func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = reference(bytes)
        for implementation in implementations {
            let found = bytes.withUnsafeBufferPointer { UTF8Validation.check($0, with: implementation) }
            #expect(found == expected, "\(implementation) on \(TestWire.hex(bytes))", sourceLocation: sourceLocation)
        }
        let found = bytes.withUnsafeBufferPointer { UTF8Validation.check($0) }
        #expect(found == expected, "check on \(TestWire.hex(bytes))", sourceLocation: sourceLocation)
        let isValid = bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
        #expect(isValid == (expected != .invalid), "isValid on \(TestWire.hex(bytes))", sourceLocation: sourceLocation)
    }

    @Test func thisProcessorRunsAVectorImplementation() {
        #if arch(x86_64) || arch(arm64)
        #expect(Self.implementations.count >= 2, "only \(Self.implementations)")
        #endif
        #expect(Self.implementations.contains(.scalar))
    }

    // MARK: Random and structured input

    /// Bytes drawn to look like UTF-8 often: ASCII, continuations, every kind of lead, whole valid
    /// scalars of every length, and the edges of each ill-formed class.
    static func utf8ish() -> Generator<[UInt8], Shrink.None<[UInt8]>> {
        let edges: [[UInt8]] = [[0xE0, 0x80], [0xF0, 0x8F], [0xF4, 0x90], [0xED, 0xA0], [0xC0, 0xAF], [0xC1], [0xF5], [0xFF]]
        return Generator { rng in
            var bytes: [UInt8] = []
            let pieces = Int(rng.next() % 90)
            for _ in 0..<pieces {
                let draw = rng.next()
                switch draw % 8 {
                case 0, 1, 2: bytes.append(UInt8(truncatingIfNeeded: draw >> 8) & 0x7F)
                case 3: bytes.append(0x80 | UInt8(truncatingIfNeeded: draw >> 8))
                case 4, 5, 6:
                    let value = UInt32(truncatingIfNeeded: draw >> 8) % 0x110000
                    if let scalar = Unicode.Scalar(value) { bytes += Array(String(Character(scalar)).utf8) }
                default: bytes += edges[Int(truncatingIfNeeded: (draw >> 8) % UInt64(edges.count))]
                }
            }
            return bytes
        }
    }

    @Test func everyImplementationAgreesWithTheStandardLibraryOnRandomInput() async {
        await propertyCheck(count: PropertyIterations.count(default: 3000), input: Self.utf8ish()) { bytes in
            Self.expectAgreement(bytes)
        }
    }

    @Test func everyPairOfBytesAtEveryOffsetOfAVector() {
        // Two bytes after an ASCII run of 0...33 (every position in a 16- and a 32-byte block, and
        // across the boundary), then ASCII: 65,536 pairs at 34 offsets. Between ASCII bytes a pair's
        // validity does not depend on where it stands, so the standard library judges each pair once.
        var bytes = [UInt8](repeating: 0x41, count: 80)
        var disagreements = 0
        for first in 0...255 {
            for second in 0...255 {
                let expected = Self.reference([0x41, UInt8(first), UInt8(second), 0x41])
                for offset in 0...33 {
                    bytes[offset] = UInt8(first)
                    bytes[offset + 1] = UInt8(second)
                    for implementation in Self.implementations {
                        let found = bytes.withUnsafeBufferPointer { UTF8Validation.check($0, with: implementation) }
                        if found != expected {
                            disagreements += 1
                            if disagreements <= 5 {
                                Issue.record("\(implementation): \(found) for \(first), \(second) at \(offset); expected \(expected)")
                            }
                        }
                    }
                    bytes[offset] = 0x41
                    bytes[offset + 1] = 0x41
                }
            }
        }
        #expect(disagreements == 0)
    }

    @Test func truncatingValidTextAtEveryPositionAgrees() {
        let texts = [
            "群聊的聊天记录 see you at 8 🍜 and 👨‍👩‍👧‍👦 — café naïve Ωμέγα",
            String(repeating: "中文字符", count: 20) + "𠀀𠀁",
            "a" + String(repeating: "😀", count: 17),
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            for cut in 0...bytes.count {
                Self.expectAgreement(Array(bytes[..<cut]))
                Self.expectAgreement(Array(bytes[cut...]))
            }
        }
    }

    @Test func illFormedSequencesAcrossEveryVectorBoundaryAreRejected() {
        let illFormed: [[UInt8]] = [
            [0xC0, 0x80], [0xC1, 0xBF],              // overlong two-byte
            [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],  // overlong three-byte
            [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong four-byte
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates
            [0xF4, 0x90, 0x80, 0x80], [0xF7, 0xBF, 0xBF, 0xBF],  // above U+10FFFF
            [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF],      // never in UTF-8
            [0x80], [0xBF], [0x80, 0x80],            // a continuation without a lead
            [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],  // a lead without its continuations
            [0xC3, 0x41], [0xE2, 0x41, 0x82],        // a lead followed by ASCII
        ]
        let wellFormed: [[UInt8]] = [[0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
                                     [0xEE, 0x80, 0x80], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]]
        for sequence in illFormed + wellFormed {
            for prefix in 0...70 {
                for suffix in [0, 1, 15, 33] {
                    let bytes = [UInt8](repeating: 0x61, count: prefix) + sequence + [UInt8](repeating: 0x62, count: suffix)
                    Self.expectAgreement(bytes)
                }
            }
        }
    }

    @Test func asciiRunsOfEveryLengthAreASCII() {
        for length in 0...200 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 % 0x80) }
            Self.expectAgreement(bytes)
            Self.expectAgreement(bytes + [0xC3, 0xA9])
            Self.expectAgreement([0xC3, 0xA9] + bytes)
        }
    }

    // MARK: Strings built from validated bytes

    @Test func stringsBuiltFromValidatedBytesEqualTheStandardLibrarysDecoding() async {
        await propertyCheck(count: PropertyIterations.count(default: 2000), input: Self.utf8ish()) { bytes in
            guard let expected = String(validating: bytes, as: UTF8.self) else { return }
            bytes.withUnsafeBufferPointer { buffer in
                let isASCII = UTF8Validation.check(buffer) == .ascii
                let fast = UTF8Validation.string(validated: buffer, isASCII: isASCII)
                let fallback = UTF8Validation.stringValidatingAgain(buffer)
                #expect(fast == expected && Array(fast.utf8) == bytes, "\(TestWire.hex(bytes))")
                #expect(fallback == expected && Array(fallback.utf8) == bytes, "\(TestWire.hex(bytes))")
            }
        }
    }

    // MARK: Time

    @Test(.timed) func validationTimeIsLinearInTheInput() {
        let text = Array(String(repeating: "群聊的聊天记录 see you at 8 🍜 ", count: 2_000).utf8)  // ~78 KB
        let large = Array(repeating: text, count: 8).flatMap { $0 }
        for implementation in Self.implementations {
            let ratio = growthRatio(
                bound: growthBound,
                small: { _ = text.withUnsafeBufferPointer { UTF8Validation.check($0, with: implementation) } },
                large: { _ = large.withUnsafeBufferPointer { UTF8Validation.check($0, with: implementation) } })
            #expect(ratio < growthBound, "\(implementation): 8× the input took \(ratio)× the time")
        }
    }
}
