import IMWire
import IMWireConformance
import Testing

/// The conformance protocol's messages are a schema file of their own
/// (`Schemas/imwire/conformance/v1/conformance.proto`), and their proto3 JSON uses that file's names
/// (`conformanceJSONNames`, built from `conformanceSchemaFile`), not `message.proto`'s: a runner or a
/// testee may exchange them as JSON.
struct ConformanceJSONTests {
    @Test func aRequestIsWrittenAndReadWithItsOwnNames() throws {
        let request = ConformanceRequest(
            testName: "valid.text", payload: .jsonPayload(Array("{}".utf8)), requestedOutputFormat: .binary,
            validationProfile: "tencent", jsonIgnoreUnknownFields: true)
        let text = String(decoding: try request.jsonUTF8Bytes(), as: UTF8.self)
        #expect(text == #"{"testName":"valid.text","jsonPayload":"e30=","requestedOutputFormat":"WIRE_FORMAT_BINARY","validationProfile":"tencent","jsonIgnoreUnknownFields":true}"#)
        #expect(try ConformanceRequest(jsonUTF8Bytes: Array(text.utf8)) == request)
    }

    @Test func aResponseIsReadUnderItsProtoNamesToo() throws {
        let response = try ConformanceResponse(jsonUTF8Bytes: Array(#"{"parse_error": "truncated at 3"}"#.utf8))
        #expect(response.result == .parseError("truncated at 3"))
        #expect(try ConformanceResponse(jsonUTF8Bytes: try response.jsonUTF8Bytes()) == response)
        let skipped = try ConformanceResponse(jsonUTF8Bytes: Array(#"{"skipped":"no JSON"}"#.utf8))
        #expect(skipped.result == .skipped("no JSON"))
    }

    @Test func everyTypeIsInItsFileAtItsIndex() {
        func indexInFile<M: ProtoMessage>(_ type: M.Type) -> Int {
            #expect(M._schemaFile === conformanceSchemaFile, "\(M.self)")
            #expect(conformanceSchemaFile.messages[M._typeIndex] === M.schema, "\(M.self)")
            return M._typeIndex
        }
        let indices = [indexInFile(ConformanceRequest.self), indexInFile(ConformanceResponse.self)]
        #expect(Set(indices).count == indices.count)
        #expect(conformanceSchemaFile.messages.count == indices.count)
        #expect(conformanceJSONNames.count == indices.count)
    }
}
