import IMWire
import IMWireTestSupport
import Testing

/// Every golden fixture through the protobuf-c peer: protobuf-c must re-pack the canonical bytes
/// byte for byte, and IMWire must decode what protobuf-c packs to the same model — except for the
/// fixtures listed in ``ProtobufCKnownDifferences``, which must really differ (so the list stays honest).
@Suite struct ProtobufCFixtureTests {
    @Test(arguments: Fixtures.cases(kind: "valid") + Fixtures.cases(kind: "noncanonical_binary"))
    func protobufCRepacksCanonicalBytesIdentically(_ fixture: Fixtures.Case) throws {
        let canonical = fixture.bytes("binpb")
        let outcome = ProtobufC.repack(canonical)
        if let reason = ProtobufCKnownDifferences.validFixtures[fixture.name] {
            #expect(outcome != .repacked(canonical), "listed as a known difference (\(reason)) but protobuf-c agrees now")
            return
        }
        guard case .repacked(let packed) = outcome else {
            Issue.record("protobuf-c \(outcome) for \(hex(canonical))")
            return
        }
        #expect(packed == canonical, "protobuf-c \(hex(packed))\nIMWire     \(hex(canonical))")
        #expect(try Message(serializedBytes: packed) == Message(serializedBytes: canonical))
    }

    @Test(arguments: Fixtures.cases(kind: "invalid_binary"))
    func protobufCRefusesInvalidInput(_ fixture: Fixtures.Case) throws {
        let input = fixture.bytes("input")
        let outcome = ProtobufC.repack(input)
        if let reason = ProtobufCKnownDifferences.invalidFixtures[fixture.name] {
            guard case .repacked = outcome else {
                Issue.record("listed as accepted by protobuf-c (\(reason)) but it refuses now")
                return
            }
            return
        }
        guard case .refused = outcome else {
            Issue.record("protobuf-c accepted an input IMWire rejects with \(fixture.fields["error"] ?? "?"): \(outcome)")
            return
        }
    }
}
