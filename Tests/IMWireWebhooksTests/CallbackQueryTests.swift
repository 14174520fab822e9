import IMWireWebhooks
import Testing

/// Reading the query Tencent adds to the webhook URL ("Webhook Overview", Webhook Protocol).
@Suite struct CallbackQueryTests {
    @Test func readsTencentsSampleURL() throws {
        let query = try CallbackQuery(
            query: "?SdkAppid=888888&CallbackCommand=Group.CallbackAfterNewMemberJoin&contenttype=json&ClientIP=127.0.0.1&OptPlatform=RESTAPI")
        #expect(query == CallbackQuery(
            sdkAppID: 888888, command: CallbackCommand("Group.CallbackAfterNewMemberJoin"), contentType: "json",
            clientIP: "127.0.0.1", platform: "RESTAPI"))
        #expect(query.command.beforeSend == nil)
    }

    @Test func decodesPercentEscapesAndPlus() throws {
        let query = try CallbackQuery(query: "SdkAppid=1&CallbackCommand=C2C.CallbackBeforeSendMsg&ClientIP=%3A%3a1&OptPlatform=Unknown+device")
        #expect(query.clientIP == "::1")
        #expect(query.platform == "Unknown device")
        #expect(query.contentType == nil)
    }

    @Test func ignoresParametersOfYourOwnAndEmptyPairs() throws {
        let query = try CallbackQuery(query: "appId=zjy_test&&SdkAppid=1&CallbackCommand=C2C.CallbackAfterSendMsg&flag&")
        #expect(query.sdkAppID == 1)
    }

    @Test(arguments: ["SdkAppid", "CallbackCommand", "Sign", "RequestTime"])
    func aParameterNamedTwiceIsRefused(name: String) {
        let error = #expect(throws: WebhookError.self) {
            try CallbackQuery(query: "SdkAppid=1&CallbackCommand=C2C.CallbackAfterSendMsg&Sign=a&RequestTime=1&\(name)=2")
        }
        #expect(error?.code == .duplicateParameter)
        #expect(error?.parameter == name)
        #expect(error?.httpStatus == 400)
    }

    @Test(arguments: [
        ("CallbackCommand=C2C.CallbackAfterSendMsg", "SdkAppid"),
        ("SdkAppid=1", "CallbackCommand"),
        ("", "SdkAppid"),
    ])
    func aMissingParameterIsNamed(query: String, parameter: String) {
        let error = #expect(throws: WebhookError.self) { try CallbackQuery(query: query) }
        #expect(error?.code == .missingParameter)
        #expect(error?.parameter == parameter)
        #expect(error?.httpStatus == 400)
    }

    @Test(arguments: [
        ("SdkAppid=14e8&CallbackCommand=x", "SdkAppid"),
        ("SdkAppid=-1&CallbackCommand=x", "SdkAppid"),
        ("SdkAppid=+1&CallbackCommand=x", "SdkAppid"),
        ("SdkAppid=1234567890123456789&CallbackCommand=x", "SdkAppid"),
        ("SdkAppid=1&CallbackCommand=", "CallbackCommand"),
        ("SdkAppid=1&CallbackCommand=x&contenttype=xml", "contenttype"),
    ])
    func aValueOfTheWrongFormIsInvalid(query: String, parameter: String) {
        let error = #expect(throws: WebhookError.self) { try CallbackQuery(query: query) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.parameter == parameter)
    }

    @Test(arguments: ["SdkAppid=1&CallbackCommand=x%", "SdkAppid=1&CallbackCommand=x%4", "SdkAppid=1&CallbackCommand=%zz",
                      "SdkAppid=1&CallbackCommand=%ff%fe"])
    func aBadEscapeIsAMalformedQuery(query: String) {
        #expect(throws: WebhookError(code: .malformedQuery, reason: "")) { try CallbackQuery(query: query) }
    }

    @Test func namesAreCaseSensitiveAsTencentSpellsThem() {
        #expect(throws: WebhookError(code: .missingParameter, reason: "")) {
            try CallbackQuery(query: "sdkappid=1&CallbackCommand=x")
        }
    }

    @Test func aLongValueIsCutInTheReason() {
        let error = #expect(throws: WebhookError.self) {
            try CallbackQuery(query: "SdkAppid=\(String(repeating: "x", count: 10_000))&CallbackCommand=x")
        }
        #expect((error?.reason.utf8.count ?? .max) < 200)
    }

    @Test func decodedParametersAreCheckedTheSameWay() throws {
        let query = try CallbackQuery(parameters: [(name: "SdkAppid", value: "5"), (name: "CallbackCommand", value: "C2C.CallbackBeforeSendMsg")])
        #expect(query.command == .c2cBeforeSendMsg)
        #expect(throws: WebhookError(code: .duplicateParameter, reason: "")) {
            try CallbackQuery(parameters: [(name: "SdkAppid", value: "5"), (name: "SdkAppid", value: "6"), (name: "CallbackCommand", value: "x")])
        }
    }

    // Linearity: a query is an input shape of its own.

    @Test func readingAQueryIsLinearInItsParameters() {
        func query(_ n: Int) -> String {
            "SdkAppid=1&CallbackCommand=C2C.CallbackAfterSendMsg" + String(repeating: "&own=%41%42+c", count: n)
        }
        let (small, large) = (query(20_000), query(160_000))
        let ratio = growthRatio(small: { _ = try? CallbackQuery(query: small) }, large: { _ = try? CallbackQuery(query: large) })
        #expect(ratio < 24, "8× the parameters took \(ratio)× the time")
    }

    @Test func readingAQueryIsLinearInAValuesLength() {
        func query(_ n: Int) -> String {
            "CallbackCommand=x&SdkAppid=1&ClientIP=" + String(repeating: "%41", count: n)
        }
        let (small, large) = (query(100_000), query(800_000))
        let ratio = growthRatio(small: { _ = try? CallbackQuery(query: small) }, large: { _ = try? CallbackQuery(query: large) })
        #expect(ratio < 24, "8× the value took \(ratio)× the time")
    }
}
