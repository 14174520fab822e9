// The sizing pass that Scripts/bench times beside the encoder (`binary-size-traverse`, the reason the
// binary writer keeps its own generated walk): it must count what the encoder writes, or the timing
// would compare the encoder with something else.

@_spi(Benchmarks) import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

@Suite struct BinarySizeVisitorTests {
    @Test func countsWhatTheEncoderWrites() async {
        await propertyCheck(count: PropertyIterations.count(default: 500), input: IMWireGen.message()) { message in
            do {
                let encoded = try message.serializedBytes()
                #expect(_BinarySizing.sizeThroughTraverse(of: message) == encoded.count, "bytes: \(TestWire.hex(encoded))")
            } catch {
                Issue.record("encoding failed: \(error)")
            }
        }
    }

    @Test func countsUnknownFieldsAndMaps() throws {
        // An unknown varint field 99 = 7 and a map entry with an empty value: both written by the encoder.
        let bytes: [UInt8] = [0x98, 0x06, 0x07]
        var message = try Message(serializedBytes: bytes)
        message.msgID = "m"
        let encoded = try message.serializedBytes()
        #expect(_BinarySizing.sizeThroughTraverse(of: message) == encoded.count)
        #expect(encoded.count == bytes.count + 3)
    }
}
