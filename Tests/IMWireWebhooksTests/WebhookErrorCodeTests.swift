import IMWire
import IMWireWebhooks
import Testing

/// `WebhookError.Code` has the library's code shape (`StableCode`): unique snake_case names, each
/// found again by name and printed as itself.
@Suite struct WebhookErrorCodeTests {
    @Test func codesHaveTheSharedShape() {
        let codes = WebhookError.Code.all
        #expect(codes.count >= 10)
        #expect(Set(codes.map(\.name)).count == codes.count)
        for code in codes {
            #expect(WebhookError.Code(name: code.name) == code)
            #expect(code.description == code.name)
        }
        #expect(WebhookError.Code(name: "bad_signature") == .badSignature)
        #expect(WebhookError.Code(name: "truncated") == nil)
    }
}
