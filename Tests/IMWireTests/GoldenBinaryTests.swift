import IMWire
import IMWireTestSupport
import Testing

/// The golden fixtures, produced by Python's google.protobuf (Scripts/gen_fixtures.py), checked
/// against the Swift binary codec. Each fixture is its own test case.
@Suite struct GoldenBinaryTests {
    @Test(arguments: Fixtures.cases(kind: "valid"))
    func canonicalFixtureDecodesAndReencodesToTheSameBytes(_ fixture: Fixtures.Case) throws {
        let golden = fixture.bytes("binpb")
        let message = try Message(serializedBytes: golden)
        let reencoded = try message.serializedBytes()
        #expect(reencoded == golden, "re-encoded \(hex(reencoded))\nexpected    \(hex(golden))")
        #expect(message.containsUnknownFields == fixture.hasUnknownFields)
    }

    @Test(arguments: Fixtures.cases(kind: "noncanonical_binary"))
    func noncanonicalInputDecodesToTheCanonicalForm(_ fixture: Fixtures.Case) throws {
        let input = fixture.bytes("input")
        let canonical = fixture.bytes("binpb")
        let message = try Message(serializedBytes: input)
        let reencoded = try message.serializedBytes()
        #expect(reencoded == canonical, "re-encoded \(hex(reencoded))\nexpected    \(hex(canonical))")
        #expect(try Message(serializedBytes: canonical) == message)
    }

    @Test(arguments: Fixtures.cases(kind: "invalid_binary"))
    func invalidInputIsRejectedWithItsErrorCode(_ fixture: Fixtures.Case) throws {
        let input = fixture.bytes("input")
        let expected = try #require(fixture.fields["error"])
        do {
            let message = try Message(serializedBytes: input)
            Issue.record("decoded instead of failing with \(expected): \(message)")
        } catch {
            #expect(error.code.name == expected, "\(error)")
            #expect(error.offset != nil, "wire errors carry a byte offset")
            if let offset = error.offset { #expect(offset >= 0 && offset <= input.count) }
        }
    }

    @Test func manifestCoversEveryKind() {
        for kind in ["valid", "noncanonical_binary", "invalid_binary"] {
            #expect(!Fixtures.cases(kind: kind).isEmpty, "no \(kind) fixtures")
        }
        // Every error code a wire-format decode can produce has at least one fixture.
        let codes = Set(Fixtures.cases(kind: "invalid_binary").compactMap { $0.fields["error"] })
        for code in ["truncated", "varint_too_long", "invalid_field_number", "invalid_wire_type",
                     "malformed_group", "length_out_of_bounds", "invalid_utf8", "depth_limit_exceeded"] {
            #expect(codes.contains(code), "no fixture for \(code)")
        }
    }
}
