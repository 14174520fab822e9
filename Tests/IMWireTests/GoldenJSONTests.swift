import IMWire
import IMWireTestSupport
import Testing

/// The golden fixtures' canonical JSON (written by Python's json_format) against the Swift JSON
/// codec: Swift's JSON output equals the fixture byte for byte, and decoding the fixture's JSON
/// gives the same model as its binary.
@Suite struct GoldenJSONTests {
    static let cases = Fixtures.cases(kind: "valid") + Fixtures.cases(kind: "noncanonical_binary")

    @Test(arguments: cases)
    func jsonOutputEqualsTheCanonicalFixture(_ fixture: Fixtures.Case) throws {
        let message = try Message(serializedBytes: fixture.bytes("binpb"))
        let json = try message.jsonString()
        #expect(json == fixture.text("json"))
    }

    @Test(arguments: cases)
    func fixtureJSONDecodesToTheBinaryModel(_ fixture: Fixtures.Case) throws {
        let fromJSON = try Message(jsonUTF8Bytes: fixture.bytes("json"))
        let binary = try fromJSON.serializedBytes()
        if fixture.hasUnknownFields {
            // JSON cannot carry unknown fields: it decodes to the binary minus them.
            #expect(!fromJSON.containsUnknownFields)
            #expect(try Message(serializedBytes: binary).jsonString() == fixture.text("json"))
        } else {
            #expect(binary == fixture.bytes("binpb"), "JSON→binary \(hex(binary))\nexpected    \(hex(fixture.bytes("binpb")))")
        }
    }

    @Test(arguments: cases)
    func prettyJSONDecodesToTheSameMessage(_ fixture: Fixtures.Case) throws {
        let message = try Message(jsonUTF8Bytes: fixture.bytes("json"))
        let pretty = try message.jsonString(options: JSONEncodingOptions(prettyPrinted: true))
        #expect(try Message(jsonString: pretty) == message)
        #expect(pretty.contains("\n") || pretty == "{}")
    }
}
