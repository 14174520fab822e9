// Property test against libprotobuf-c (the BinaryAndJSON article (IMWire.docc)): protobuf-c re-packs
// IMWire's encoding of random messages byte for byte, and IMWire decodes its output back.
//
// Iteration count: the default below, or IMWIRE_PROPERTY_ITERATIONS. A failure prints the input and a
// `.fixedSeed(...)` trait that reproduces it; failure comments carry the bytes in hex.

import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

@Suite("Binary codec properties against protobuf-c")
struct ProtobufCPropertyTests {
    // The generator leaves out what protobuf-c knowingly handles differently
    // (Sources/IMWireProtobufC/KNOWN_DIFFERENCES.md): U+0000 in strings (h), -0.0 (e), unknown groups (c),
    // and empty map keys or values, which protobuf-c omits inside the map entry.

    @Test func protobufCRepacksOurEncodingByteForByteAndWeDecodeItsOutputBack() async {
        await propertyCheck(
            count: PropertyIterations.count(default: 2000), input: IMWireGen.messageAndUnknownFields(.protobufCSafe)
        ) { message, unknown in
            do {
                let canonical = try message.serializedBytes()
                let withUnknown = canonical + unknown
                let expectedWithUnknown = try Message(serializedBytes: withUnknown)

                for (swiftBytes, expected) in [(canonical, message), (withUnknown, expectedWithUnknown)] {
                    guard case .repacked(let cBytes) = ProtobufC.repack(swiftBytes) else {
                        Issue.record("protobuf-c refused our encoding: \(TestWire.hex(swiftBytes))")
                        continue
                    }
                    #expect(
                        cBytes == swiftBytes,
                        "protobuf-c re-encoded differently\n  swift:      \(TestWire.hex(swiftBytes))\n  protobuf-c: \(TestWire.hex(cBytes))")
                    do {
                        let decoded = try Message(serializedBytes: cBytes)
                        #expect(decoded == expected, "protobuf-c output: \(TestWire.hex(cBytes))")
                    } catch {
                        Issue.record("decoding protobuf-c output failed: \(error); bytes: \(TestWire.hex(cBytes))")
                    }
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
