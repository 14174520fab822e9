// What the decoders skip is reported, never silent (DecodingReport): proto3 JSON with
// ignoreUnknownFields and tim-rest name every key they read past, with its path and the key it was
// probably meant to be; tim-rest's strict option refuses the unknown ones; webhook bodies need the keys
// Tencent always sends for their CallbackCommand. Collecting the report is linear in the keys skipped.

import IMWire
import IMWireTestSupport
import Testing

@Suite struct DecodingReportTests {
    static func timREST(_ text: String, strict: Bool = false) throws(IMWireError) -> (Message, DecodingReport) {
        var report = DecodingReport(skippedKeys: [SkippedKey(reason: .unknownKey, key: "stale", path: "stale", offset: nil, suggestion: nil, detail: "")])
        let message = try Message(timRESTUTF8Bytes: Array(text.utf8), options: TIMRESTDecodingOptions(rejectsUnknownKeys: strict), report: &report)
        return (message, report)
    }

    static func json(_ text: String) throws(IMWireError) -> (Message, DecodingReport) {
        var report = DecodingReport()
        let message = try Message(jsonUTF8Bytes: Array(text.utf8), options: JSONDecodingOptions(ignoreUnknownFields: true), report: &report)
        return (message, report)
    }

    /// (reason, path, suggestion) of each entry, for comparing.
    static func summary(_ report: DecodingReport) -> [String] {
        report.skippedKeys.map { "\($0.reason) \($0.path)" + ($0.suggestion.map { " → \($0)" } ?? "") }
    }

    static let c2cCallback = #"""
        {"CallbackCommand":"C2C.CallbackAfterSendMsg","From_Account":"jared","To_Account":"Jonh","MsgSeq":48374,
         "MsgRandom":2837546,"MsgTime":1557481126,"MsgKey":"48374_2837546_1557481126","OnlineOnlyFlag":1,
         "SendMsgResult":0,"ErrorInfo":"send msg succeed","UnreadMsgNum":7,
         "MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"red packet"}}],"EventTime":1670574414123}
        """#

    // MARK: - tim-rest

    @Test func aWebhookBodysMetadataIsReportedAsKeysWithoutAField() throws {
        let (message, report) = try Self.timREST(Self.c2cCallback)
        #expect(message.sender == "jared" && message.target == .receiver("Jonh"))
        #expect(Self.summary(report) == [
            "no_field CallbackCommand", "no_field SendMsgResult", "no_field ErrorInfo", "no_field UnreadMsgNum", "no_field EventTime",
        ])
        // A report is replaced, not appended to, and strict decoding accepts documented keys.
        #expect(try Self.timREST(Self.c2cCallback, strict: true).1 == report)
    }

    @Test func aKeyInTheWrongCaseIsReportedWithTheKeyItWasMeantToBe() throws {
        let text = #"{"To_Account":"b","FromAccount":"a","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"text":"x","Text":"y"},"msgType":1}]}"#
        let (message, report) = try Self.timREST(text)
        #expect(message.sender == "")
        #expect(Self.summary(report) == [
            "unknown_key FromAccount → From_Account", "unknown_key MsgBody[0].msgType → MsgType",
            "unknown_key MsgBody[0].MsgContent.text → Text",
        ])
        let first = try #require(report.skippedKeys.first)
        #expect(first.key == "FromAccount" && first.offset == 18)
        #expect(first.description == #"unknown_key: "FromAccount" is not a key of a message envelope; did you mean "From_Account"? (at FromAccount)"#)
    }

    @Test func strictDecodingRefusesAnUnknownKeyNamingItsPath() {
        let text = #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"y","Colour":"red"}}]}"#
        #expect(throws: IMWireError.matching(.unknownField)) { try Self.timREST(text, strict: true) }
        do {
            _ = try Self.timREST(text, strict: true)
        } catch {
            #expect(error.path == "MsgBody[0].MsgContent.Colour")
            #expect(error.reason == #""Colour" is not a key of a TIMTextElem's MsgContent"#)
        }
    }

    /// Every place tim-rest reads past a value: second spellings that disagree, a lifetime the model
    /// has no field for, control values, a download flag, a count next to its list, an account next
    /// to @all, vendor push channels, keys of the wrong object — in the order the reader meets them.
    @Test func everyValueTimRESTReadsPastIsReported() throws {
        let text = #"""
            {"GroupId":"g","MsgRandom":1,"Random":2,"MsgTimeStamp":10,"MsgTime":20,"OnlineOnlyFlag":0,"MsgLifeTime":0,
             "IsNeedReadReceipt":1,"NeedReadReceipt":0,"SendMsgControl":["NoUnread","WithMuteNotifications","NoUnRead"],
             "GroupAtInfo":[{"GroupAtAllFlag":1,"GroupAt_Account":"tommy"}],"MsgType":"TIMTextElem",
             "OfflinePushInfo":{"AndroidInfo":{"OPPOChannelID":"c"},"ApnsInfo":{"InterruptionLevel":"passive","sound":"x"}},
             "MsgBody":[{"MsgType":"TIMSoundElem","MsgContent":{"UUID":"u","Download_Flag":1}},
                        {"MsgType":"TIMRelayElem","MsgContent":{"MsgNum":3,"MsgList":[{"CallbackCommand":"C2C.CallbackAfterSendMsg","MsgBody":[]}]}}]}
            """#
        let (message, report) = try Self.timREST(text)
        #expect(message.random == 1 && message.timestampMs == 10_000 && message.onlineUserOnly && message.needReadReceipt)
        #expect(message.atUserList == [Message.atAllUserID] && message.excludedFromUnreadCount)
        #expect(Self.summary(report) == [
            "overridden Random", "overridden MsgTime", "unknown_key MsgType",
            "no_field MsgBody[0].MsgContent.Download_Flag", "overridden MsgBody[1].MsgContent.MsgNum",
            "unknown_key MsgBody[1].MsgContent.MsgList[0].CallbackCommand", "overridden GroupAtInfo[0].GroupAt_Account",
            "no_field SendMsgControl[1]", "unknown_value SendMsgControl[2] → NoUnread", "overridden NeedReadReceipt",
            "overridden OnlineOnlyFlag", "no_field OfflinePushInfo.AndroidInfo.OPPOChannelID",
            "no_field OfflinePushInfo.ApnsInfo.InterruptionLevel", "unknown_key OfflinePushInfo.ApnsInfo.sound → Sound",
        ], "\(report.skippedKeys.map(\.description).joined(separator: "\n"))")
        #expect(report.skippedKeys[0].detail == #""Random" (2) disagrees with "MsgRandom" (1), which is read"#)
        // Offsets point at the key in the input, or for an array entry at the value.
        let bytes = Array(text.utf8)
        for skipped in report.skippedKeys {
            let offset = try #require(skipped.offset)
            let value = skipped.path.hasSuffix("]")
            let expected = value ? #""NoUnread","# : "\"\(skipped.key)\""
            let at = String(decoding: bytes[offset...].prefix(value ? 1 : expected.utf8.count), as: UTF8.self)
            #expect(at == (value ? "\"" : expected), "\(skipped.path): \(at)")
        }
    }

    @Test func twoSpellingsThatAgreeAreNotReported() throws {
        let text = #"{"To_Account":"b","MsgRandom":5,"Random":5,"IsNeedReadReceipt":1,"NeedReadReceipt":true,"MsgBody":[]}"#
        #expect(try Self.timREST(text).1.isEmpty)
    }

    @Test func strictDecodingRefusesADisagreeingSecondSpellingAsADuplicateKey() {
        #expect(throws: IMWireError.matching(.duplicateKey)) {
            try Self.timREST(#"{"To_Account":"b","MsgRandom":5,"Random":6,"MsgBody":[]}"#, strict: true)
        }
        #expect(throws: IMWireError.matching(.invalidValue)) {
            try Self.timREST(#"{"To_Account":"b","SendMsgControl":["NoUnRead"],"MsgBody":[]}"#, strict: true)
        }
    }

    // MARK: - Webhook bodies

    /// The issue's body: `From_account` / `To_account` read as a message with neither sender nor receiver.
    @Test func aC2CCallbackWithKeysInTheWrongCaseIsRefusedNamingTheKey() {
        let text = Self.c2cCallback.replacingOccurrences(of: "From_Account", with: "From_account")
            .replacingOccurrences(of: "To_Account", with: "To_account")
        do {
            _ = try Message(timRESTString: text)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .missingField)
            #expect(error.path == "From_Account")
            #expect(error.reason == #"a C2C.CallbackAfterSendMsg body has no "From_Account"; did you mean "From_account"?"#)
        }
    }

    @Test(arguments: [
        ("C2C.CallbackBeforeSendMsg", ["From_Account", "To_Account", "MsgSeq", "MsgRandom", "MsgTime", "MsgKey", "MsgBody"]),
        ("C2C.CallbackAfterSendMsg", ["From_Account", "To_Account", "MsgSeq", "MsgRandom", "MsgTime", "MsgKey", "MsgBody"]),
        ("Group.CallbackBeforeSendMsg", ["GroupId", "From_Account", "Random", "MsgBody"]),
        ("Group.CallbackAfterSendMsg", ["GroupId", "From_Account", "Random", "MsgSeq", "MsgTime", "MsgBody"]),
    ])
    func eachCallbackNeedsTheKeysTencentAlwaysSends(_ command: String, _ required: [String]) throws {
        let values: [String: String] = [
            "From_Account": #""a""#, "To_Account": #""b""#, "GroupId": #""g""#, "MsgSeq": "1", "MsgRandom": "2", "Random": "2",
            "MsgTime": "3", "MsgKey": #""1_2_3""#, "MsgBody": #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]"#,
        ]
        func body(without missing: String?) -> String {
            let members = required.filter { $0 != missing }.map { "\"\($0)\":\(values[$0]!)" }
            return "{\"CallbackCommand\":\"\(command)\"," + members.joined(separator: ",") + "}"
        }
        _ = try Message(timRESTString: body(without: nil))
        for key in required {
            #expect(throws: IMWireError.matching(.missingField), "\(command) without \(key)") { try Message(timRESTString: body(without: key)) }
            do { _ = try Message(timRESTString: body(without: key)) } catch { #expect(error.path == key) }
        }
    }

    @Test func aSendRequestNeedsNoSender() throws {
        let message = try Message(timRESTString: #"{"GroupId":"g","Random":1,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}"#)
        #expect(message.sender.isEmpty && message.target == .groupID("g"))
    }

    @Test func anUnknownCallbackCommandIsReadAsAMessageAndReported() throws {
        let (message, report) = try Self.timREST(#"{"CallbackCommand":"C2C.CallbackAfterSendMSG","From_Account":"a","MsgBody":[]}"#)
        #expect(message.sender == "a")
        #expect(Self.summary(report) == ["unknown_value CallbackCommand → C2C.CallbackAfterSendMsg"])
    }

    // MARK: - proto3 JSON

    @Test func ignoredJSONKeysAndEnumNamesAreReportedWithTheirPaths() throws {
        let text = #"{"Sender":"a","msg_Id":"m","elems":[{"text":{"text":"hi","colour":{"r":1}}},{"image":{"images":[{"type":"image_type_large"}]}}]}"#
        let (message, report) = try Self.json(text)
        #expect(message.elems.count == 2)
        #expect(Self.summary(report) == [
            "unknown_key Sender → sender", "unknown_key msg_Id → msgId", "unknown_key elems[0].text.colour",
            "unknown_value elems[1].image.images[0].type → IMAGE_TYPE_LARGE",
        ])
        let bytes = Array(text.utf8)
        func offset(of needle: String) -> Int? { bytes.firstRange(of: Array(needle.utf8))?.lowerBound }
        #expect(report.skippedKeys.map(\.offset) == [offset(of: #""Sender""#), offset(of: #""msg_Id""#), offset(of: #""colour""#), offset(of: #""image_type_large""#)])
        #expect(report.skippedKeys[2].detail == #"imwire.v1.TextElem has no field "colour""#)
    }

    @Test func withoutIgnoreUnknownFieldsAnUnknownKeyIsAnErrorThatNamesTheField() {
        do {
            _ = try Message(jsonString: #"{"Sender":"a"}"#)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .unknownField)
            #expect(error.reason == #"imwire.v1.Message has no field "Sender"; did you mean "sender"?"#)
        }
    }

    @Test func aDocumentWithNothingSkippedHasAnEmptyReport() throws {
        let message = Message(sender: "a", target: .receiver("b"), elems: [.text("hi")])
        var report = DecodingReport()
        _ = try Message(jsonUTF8Bytes: try message.jsonUTF8Bytes(), options: JSONDecodingOptions(ignoreUnknownFields: true), report: &report)
        #expect(report.isEmpty)
        _ = try Message(timRESTUTF8Bytes: try message.timRESTUTF8Bytes(), report: &report)
        #expect(report.isEmpty)
    }

    // MARK: - Non-messages

    @Test func aByteOrderMarkIsNamedByBothJSONReaders() {
        let text: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"MsgBody":[]}"#.utf8)
        for decode in [{ _ = try Message(jsonUTF8Bytes: text) }, { _ = try Message(timRESTUTF8Bytes: text) }] as [() throws -> Void] {
            do {
                try decode()
                Issue.record("accepted")
            } catch let error as IMWireError {
                #expect(error.code == .jsonSyntax && error.offset == 0)
                #expect(error.reason.contains("UTF-8 byte-order mark (EF BB BF)"), "\(error)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test(arguments: [("null", "null"), ("[]", "an array"), ("\"x\"", "a string"), ("12", "a number"), ("true", "true")])
    func aJSONValueThatIsNoObjectIsNamed(_ text: String, _ found: String) {
        #expect(throws: IMWireError.matching(.jsonSyntax)) { try Message(jsonString: text) }
        do { _ = try Message(jsonString: text) } catch { #expect(error.reason == "expected a JSON object, found \(found)") }
    }

    // MARK: - Cost

    /// N vs 8N skipped keys, in both dialects: the report (and the path walk behind proto3 JSON's)
    /// grows linearly.
    @Test(.timed, arguments: ["json", "tim-rest"])
    func reportingManySkippedKeysIsLinear(_ format: String) {
        func document(_ count: Int) -> [UInt8] {
            let keys = (0..<count).map { #""Key\#($0)":{"a":[1,2]}"# }.joined(separator: ",")
            return Array((format == "json" ? #"{"elems":[{"text":{"# + keys + "}}]}" : #"{"MsgBody":[],"# + keys + "}").utf8)
        }
        let small = document(2_000), large = document(16_000)
        func decode(_ bytes: [UInt8]) {
            var report = DecodingReport()
            if format == "json" {
                _ = try? Message(jsonUTF8Bytes: bytes, options: JSONDecodingOptions(ignoreUnknownFields: true), report: &report)
            } else {
                _ = try? Message(timRESTUTF8Bytes: bytes, report: &report)
            }
            precondition(report.skippedKeys.count >= 2_000)
        }
        let ratio = growthRatio(bound: growthBound) { decode(small) } large: { decode(large) }
        #expect(ratio < growthBound, "8× the skipped keys took \(ratio)× the time")
    }
}
