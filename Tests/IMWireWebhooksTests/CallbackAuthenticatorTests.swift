import IMWire
import IMWireWebhooks
import Testing

/// Signature, time window and app ID, against Tencent's published example and the signatures
/// Python's hashlib computed (Fixtures/webhooks/signatures.json).
@Suite struct CallbackAuthenticatorTests {
    @Test func thePublishedExampleSignsAsTencentSays() throws {
        let token = try CallbackToken(Published.token)
        #expect(token.signature(requestTime: "1669872112") == Published.sign)
    }

    @Test(arguments: try WebhookFixtures.signatures())
    func signaturesAreWhatHashlibComputes(_ fixture: WebhookFixtures.Signature) throws {
        #expect(try CallbackToken(fixture.token).signature(requestTime: fixture.request_time) == fixture.sign)
    }

    @Test func thePublishedExampleVerifies() throws {
        let query = try Published.authenticator().verify(query: Published.query())
        #expect(query.sdkAppID == Published.appID)
        #expect(query.command == .c2cBeforeSendMsg)
        #expect(query.sign == Published.sign)
        #expect(query.requestTime == "1669872112")
        #expect(query.clientIP == "127.0.0.1")
        #expect(query.platform == "iOS")
    }

    @Test func anUppercaseSignVerifiesToo() throws {
        _ = try Published.authenticator().verify(query: Published.query(sign: Published.sign.uppercased()))
    }

    @Test(arguments: 0..<64)
    func aSignWithOneChangedDigitIsRefused(position: Int) throws {
        var digits = Array(Published.sign)
        digits[position] = digits[position] == "0" ? "1" : "0"
        let error = try #require(throws: WebhookError.self) {
            try Published.authenticator().verify(query: Published.query(sign: String(digits)))
        }
        #expect(error.code == .badSignature)
        #expect(error.parameter == "Sign")
        #expect(error.httpStatus == 401)
        #expect(!error.reason.contains(Published.token))
    }

    @Test(arguments: ["", "17773bc3", Published.sign + "00", String(Published.sign.dropLast()) + "g"])
    func aSignThatIsNot64HexDigitsIsRefused(sign: String) throws {
        #expect(throws: WebhookError(code: .badSignature, reason: "")) {
            try Published.authenticator().verify(query: Published.query(sign: sign))
        }
    }

    @Test func aChangedRequestTimeBreaksTheSignature() throws {
        // One second later, still inside the window: the signature covers the time.
        #expect(throws: WebhookError(code: .badSignature, reason: "")) {
            try Published.authenticator().verify(query: Published.query(requestTime: "1669872113"))
        }
        // The same number with a leading zero is other characters, so another signature.
        #expect(throws: WebhookError(code: .badSignature, reason: "")) {
            try Published.authenticator().verify(query: Published.query(requestTime: "01669872112"))
        }
    }

    @Test(arguments: [-60, -1, 0, 1, 60] as [Int64])
    func aRequestTimeWithinAMinuteIsAccepted(offset: Int64) throws {
        _ = try Published.authenticator(now: Published.requestTime + offset).verify(query: Published.query())
    }

    @Test func aRequestTime61SecondsOldIsAReplay() throws {
        let error = try #require(throws: WebhookError.self) {
            try Published.authenticator(now: Published.requestTime + 61).verify(query: Published.query())
        }
        #expect(error.code == .requestTimeTooOld)
        #expect(error.httpStatus == 401)
        #expect(error.reason.contains("61 s"))
    }

    @Test func aRequestTime61SecondsAheadIsRefused() throws {
        let error = try #require(throws: WebhookError.self) {
            try Published.authenticator(now: Published.requestTime - 61).verify(query: Published.query())
        }
        #expect(error.code == .requestTimeInFuture)
        #expect(error.httpStatus == 401)
    }

    @Test func theSkewCanBeNarrowed() throws {
        var authenticator = try Published.authenticator(now: Published.requestTime + 10)
        authenticator.allowedClockSkew = 5
        #expect(throws: WebhookError(code: .requestTimeTooOld, reason: "")) { try authenticator.verify(query: Published.query()) }
    }

    @Test func anotherSdkAppidIsRefused() throws {
        let error = try #require(throws: WebhookError.self) {
            try Published.authenticator().verify(query: Published.query(appID: Published.appID + 1))
        }
        #expect(error.code == .wrongAppID)
        #expect(error.parameter == "SdkAppid")
        #expect(error.httpStatus == 403)
    }

    @Test func anUnsignedRequestIsRefusedWhenATokenIsSet() throws {
        let unsigned = "SdkAppid=\(Published.appID)&CallbackCommand=C2C.CallbackAfterSendMsg&contenttype=json"
        let error = try #require(throws: WebhookError.self) { try Published.authenticator().verify(query: unsigned) }
        #expect(error.code == .missingParameter)
        #expect(error.parameter == "Sign")
        #expect(error.httpStatus == 401)

        let noTime = try #require(throws: WebhookError.self) {
            try Published.authenticator().verify(query: unsigned + "&Sign=\(Published.sign)")
        }
        #expect(noTime.parameter == "RequestTime")
        #expect(noTime.httpStatus == 401)
    }

    @Test func theSignatureIsCheckedBeforeTheAppID() throws {
        // Unsigned and for another app: the answer says only "not authenticated".
        let error = try #require(throws: WebhookError.self) {
            try Published.authenticator().verify(query: "SdkAppid=1&CallbackCommand=C2C.CallbackAfterSendMsg")
        }
        #expect(error.httpStatus == 401)
    }

    @Test func aSignedRequestTimeThatIsNotANumberIsInvalid() throws {
        let token = try CallbackToken(Published.token)
        let time = "1669872112.5"
        let error = try #require(throws: WebhookError.self) {
            try Published.authenticator().verify(query: Published.query(sign: token.signature(requestTime: time), requestTime: time))
        }
        #expect(error.code == .invalidParameter)
        #expect(error.parameter == "RequestTime")
    }

    @Test func withoutATokenOnlyTheAppIDIsChecked() throws {
        let authenticator = CallbackAuthenticator(sdkAppID: Published.appID, token: nil, clock: .fixed(0))
        _ = try authenticator.verify(query: "SdkAppid=\(Published.appID)&CallbackCommand=C2C.CallbackAfterSendMsg")
        _ = try authenticator.verify(query: Published.query(sign: "forged"))  // ignored: authentication is off
        #expect(throws: WebhookError(code: .wrongAppID, reason: "")) {
            try authenticator.verify(query: "SdkAppid=7&CallbackCommand=C2C.CallbackAfterSendMsg")
        }
    }

    @Test(arguments: [0, 129])
    func aTokenTencentWouldNotAcceptIsRefused(length: Int) {
        let error = #expect(throws: WebhookError.self) { try CallbackToken(String(repeating: "k", count: length)) }
        #expect(error?.code == .invalidToken)
    }

    @Test func theTokenNeverShowsInItsDescription() throws {
        let token = try CallbackToken("s3cret-token")
        #expect(!"\(token)".contains("s3cret"))
        #expect(!String(reflecting: token).contains("s3cret"))
    }

    @Test func theSystemClockIsNearTheCalendar() {
        // 2025-01-01 ≤ now < 2100-01-01: the clock reads Unix seconds, not milliseconds or a monotonic count.
        #expect((1_735_689_600..<4_102_444_800).contains(WebhookClock.system.now()))
    }
}
