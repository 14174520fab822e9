import IMWire
import IMWireCLI
import IMWireTestSupport
import Testing

/// The command line never changes a message's meaning without a word: the format is detected only
/// when the input leaves no doubt, every skipped key is a warning line (an error with `--strict`),
/// webhook bodies need their keys, non-messages are named — each command of the issue "Nothing lost
/// at the edges" pinned with its exit status and message.
@Suite struct CLINothingLostTests {
    static func run(_ arguments: [String], _ stdin: String) -> CLI.Result {
        CLITests.run(arguments, stdin: Array(stdin.utf8))
    }

    static func run(_ arguments: [String], bytes: [UInt8]) -> CLI.Result {
        CLITests.run(arguments, stdin: bytes)
    }

    static let c2cCallback = #"""
        {"CallbackCommand":"C2C.CallbackAfterSendMsg","From_Account":"jared","To_Account":"Jonh","MsgSeq":48374,
         "MsgRandom":2837546,"MsgTime":1557481126,"MsgKey":"48374_2837546_1557481126",
         "MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"red packet"}}]}
        """#

    // MARK: - Detection

    /// The issue's first case: proto3 JSON with one stray key printed `{}` and exited 0.
    @Test func proto3JSONWithATimRESTKeyIsAUsageErrorNamingBothSidesKeys() {
        let input = #"{"sender":"alice","receiver":"bob","elems":[{"text":{"text":"hi"}}],"MsgBody":[]}"#
        let result = Self.run(["convert", "--to", "json"], input)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            error: format_not_detected: cannot tell whether the input is proto3 JSON or tim-rest: it has proto3 JSON \
            fields "sender", "receiver", "elems" and tim-rest keys "MsgBody"; pass --from json (tim-rest keys are then \
            unknown fields) or --from tim-rest (proto3 JSON fields are then skipped, with a warning each)

            """, "\(result.stderr)")
        let validate = Self.run(["validate", "--profile", "none"], input)
        #expect(validate.status == 2 && validate.stderr.contains("pass --format json"), "\(validate.stderr)")
        // Named, each reading says what it loses.
        let asTIMREST = Self.run(["convert", "--from", "tim-rest", "--to", "json"], input)
        #expect(asTIMREST.status == 0)
        #expect(asTIMREST.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("warning: unknown_key: ") }.count == 3, "\(asTIMREST.stderr)")
        let asJSON = Self.run(["convert", "--from", "json", "--to", "json", "--ignore-unknown-fields"], input)
        #expect(asJSON.status == 0)
        #expect(asJSON.stderr == "warning: unknown_key: imwire.v1.Message has no field \"MsgBody\" (at MsgBody)\n", "\(asJSON.stderr)")
        #expect(String(decoding: asJSON.stdout, as: UTF8.self) == #"{"sender":"alice","receiver":"bob","elems":[{"text":{"text":"hi"}}]}"# + "\n")
    }

    @Test func anObjectWithKeysOfNeitherDialectIsAUsageErrorNamingThem() {
        let result = Self.run(["convert", "--to", "binary"], #"{"foo":1,"bar":[]}"#)
        #expect(result.status == 2)
        #expect(result.stderr == """
            error: format_not_detected: cannot tell whether the input is proto3 JSON or tim-rest: it has no key of \
            either; "foo", "bar" decided nothing; pass --from json --ignore-unknown-fields or --from tim-rest, whose \
            warnings name the keys it skips

            """, "\(result.stderr)")
    }

    /// A misspelt key still votes for its dialect; `{}` is the empty proto3 message; an array is tim-rest.
    @Test func unambiguousInputsAreDetected() {
        #expect(Self.run(["convert", "--to", "json"], #"{"Sender":"a","receiver":"b"}"#).stderr.contains("unknown_field"))
        #expect(Self.run(["convert", "--to", "json"], "{}").status == 0)
        #expect(Self.run(["convert", "--to", "json"], #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]"#).status == 0)
        let misspelt = Self.run(["convert", "--to", "json"], #"{"msgbody":[],"From_account":"a"}"#)
        #expect(misspelt.stderr.hasPrefix("error: missing_field: "), "read as tim-rest: \(misspelt.stderr)")
    }

    // MARK: - Webhook envelopes

    /// The issue's second case: `From_account` / `To_account` converted to a message without sender
    /// or receiver, and `validate --profile tencent --format tim-rest` accepted it.
    @Test func aWebhookBodyWithAMisspeltEnvelopeKeyIsRefused() {
        let body = Self.c2cCallback.replacingOccurrences(of: "From_Account", with: "From_account")
            .replacingOccurrences(of: "To_Account", with: "To_account")
        let error = #"error: missing_field: a C2C.CallbackAfterSendMsg body has no "From_Account"; did you mean "From_account"? (at From_Account)"#
        let convert = Self.run(["convert", "--to", "json"], body)
        #expect(convert.status == 1)
        #expect(convert.stdout.isEmpty)
        #expect(convert.stderr == error + "; read as tim-rest, detected from the input; --from names the format\n", "\(convert.stderr)")
        let validate = Self.run(["validate", "--profile", "tencent", "--format", "tim-rest"], body)
        #expect(validate.status == 1)
        #expect(validate.stderr == error + "\n", "\(validate.stderr)")
    }

    @Test func aWebhookBodysSkippedKeysAreOneWarningLineEach() {
        let body = Self.c2cCallback.replacingOccurrences(of: "\"MsgSeq\"", with: "\"EventTime\":1,\"Colour\":\"red\",\"MsgSeq\"")
        let result = Self.run(["convert", "--from", "tim-rest", "--to", "json"], body)
        #expect(result.status == 0)
        #expect(result.stderr == """
            warning: no_field: Tencent documents "CallbackCommand" (callback metadata: which webhook this is, here C2C.CallbackAfterSendMsg); the model has no field for it (at CallbackCommand)
            warning: no_field: Tencent documents "EventTime" (callback metadata: when the webhook fired); the model has no field for it (at EventTime)
            warning: unknown_key: "Colour" is not a key of a C2C.CallbackAfterSendMsg body (at Colour)

            """, "\(result.stderr)")
        let strict = Self.run(["convert", "--from", "tim-rest", "--to", "json", "--strict"], body)
        #expect(strict.status == 1)
        #expect(strict.stdout.isEmpty)
        #expect(strict.stderr == #"error: unknown_field: "Colour" is not a key of a C2C.CallbackAfterSendMsg body (at Colour)"# + "\n")
        // Documented keys are no error: a real webhook body passes --strict.
        #expect(Self.run(["validate", "--profile", "tencent", "--strict"], Self.c2cCallback).status == 0)
    }

    @Test func strictAndIgnoreUnknownFieldsTogetherAreAUsageError() {
        let result = Self.run(["convert", "--from", "json", "--to", "json", "--strict", "--ignore-unknown-fields"], "{}")
        #expect(result.status == 2)
        #expect(result.stderr.contains("--strict refuses the keys --ignore-unknown-fields skips"), "\(result.stderr)")
    }

    @Test func aStreamWarnsPerRecord() {
        let lines = #"{"sender":"a"}"# + "\n" + #"{"sender":"b","Colour":1}"# + "\n"
        let result = Self.run(["convert", "--stream", "--from", "json", "--to", "json", "--ignore-unknown-fields"], lines)
        #expect(result.status == 0)
        #expect(result.stderr == """
            warning: record 1: unknown_key: imwire.v1.Message has no field "Colour" (at Colour)
            converted 2 records (0 bad)

            """, "\(result.stderr)")
    }

    // MARK: - Hints for non-messages

    /// The issue's third case: `null` was answered "the input looks like binary".
    @Test func nullIsNamedAsTheJSONValueItIs() {
        let detected = Self.run(["convert", "--to", "json"], "null")
        #expect(detected.status == 1)
        #expect(detected.stderr == """
            error: json_syntax: expected a JSON object, found null (at byte 0); the input is the JSON value null, not \
            a message: a message is a JSON object (proto3 JSON or tim-rest), a tim-rest MsgBody array or binary protobuf

            """, "\(detected.stderr)")
        let named = Self.run(["convert", "--from", "json", "--to", "json"], "null")
        #expect(named.stderr == detected.stderr, "\(named.stderr)")
        #expect(!named.stderr.contains("binary,") && !named.stderr.contains("looks like binary"))
    }

    /// …and a UTF-8 byte-order mark "expected a digit, found byte 0xef … looks like binary".
    @Test(arguments: [nil, "json", "tim-rest"] as [String?])
    func aByteOrderMarkIsNamedAsSuch(_ format: String?) {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(Self.c2cCallback.utf8)
        let result = Self.run(["convert", "--to", "json"] + (format.map { ["--from", $0] } ?? []), bytes: input)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(
            "error: json_syntax: the input starts with a UTF-8 byte-order mark (EF BB BF), which JSON text must not have (RFC 8259, section 8.1); remove it (at byte 0)"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("digit") && !result.stderr.contains("binary"), "\(result.stderr)")
        let asBinary = Self.run(["convert", "--from", "binary", "--to", "json"], bytes: input)
        #expect(asBinary.stderr.hasSuffix("; the input is text with a UTF-8 byte-order mark (EF BB BF), which JSON must not have: remove it\n"), "\(asBinary.stderr)")
    }

    @Test(arguments: [
        ([0x1F, 0x8B, 0x08, 0x00, 0x00], "the input is gzip-compressed: decompress it first (gunzip)"),
        ([0xFF, 0xFE] + Array("{\0}\0".utf8), "the input is UTF-16LE text; IMWire reads JSON as UTF-8: convert it first (iconv -f UTF-16LE -t UTF-8)"),
        (Array("{\0\"\0s\0\"\0:\0".utf8), "the input is UTF-16LE text; IMWire reads JSON as UTF-8: convert it first (iconv -f UTF-16LE -t UTF-8)"),
        (Array("POST /webhook HTTP/1.1\r\nHost: x\r\n\r\n{}".utf8), "the input is an HTTP message with its headers: pass only the body"),
        (Array(#""{\"sender\":\"a\"}""#.utf8), "the input is a JSON string that holds JSON text (encoded twice?): decode the string first (jq -r .)"),
        (Array("12".utf8), "the input is the JSON number 12, not a message: a message is a JSON object (proto3 JSON or tim-rest), a tim-rest MsgBody array or binary protobuf"),
        (Array("CgVhbGljZRIDYm9i".utf8), "the input looks like base64 text, not binary bytes: decode it (base64 -d) first"),
        (Array("0a05616c696365".utf8), "the input looks like hex text, not binary bytes: convert it (xxd -r -p) first"),
    ] as [([UInt8], String)])
    func aCommonNonMessageIsNamed(_ input: [UInt8], _ hint: String) {
        let result = Self.run(["convert", "--to", "json"], bytes: input)
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("; " + hint + "\n"), "\(result.stderr)")
    }

    @Test func severalJSONMessagesPointAtStream() {
        let result = Self.run(["convert", "--from", "json", "--to", "json"], #"{"sender":"a"}"# + "\n" + #"{"sender":"b"}"# + "\n")
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("; the input holds more than one JSON value: for one message per line use convert --stream --from json\n"), "\(result.stderr)")
    }

    // MARK: - Vendor rules

    /// "Up to 300 messages can be combined": a merger sent by download key counts too.
    @Test(arguments: ["tencent", "tencent-sdk"])
    func aDownloadKeyMergerOver300MessagesIsRefused(_ profile: String) {
        let rest = #"{"To_Account":"b","MsgBody":[{"MsgType":"TIMRelayElem","MsgContent":{"Title":"t","MsgNum":301,"JsonMsgKey":"k"}}]}"#
        let result = Self.run(["validate", "--profile", profile], rest)
        #expect(result.status == 1)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "too_many_merger_messages elems[0].merger.msg_num limit=300 actual=301\n")
        let json = Self.run(["validate", "--profile", profile], #"{"elems":[{"merger":{"title":"t","msgNum":100000,"jsonMsgKey":"k"}}]}"#)
        #expect(json.status == 1)
        #expect(json.stderr == """
            error: too_many_merger_messages: 1 violation of profile \(profile) (listed on stdout); first: the merger's \
            download key stands for 100000 messages; \(profile) allows at most 300 (at elems[0].merger.msg_num)

            """, "\(json.stderr)")
    }

    /// The profile refuses what `convert --to tim-rest` cannot write.
    @Test func aMergerWithAKeyAndInlineMessagesIsRefusedByTheProfileAsByTheWriter() {
        let json = #"{"elems":[{"merger":{"title":"t","jsonMsgKey":"k","messages":[{"elems":[{"text":{"text":"x"}}]}]}}]}"#
        let validate = Self.run(["validate", "--profile", "tencent"], json)
        #expect(validate.status == 1)
        #expect(String(decoding: validate.stdout, as: UTF8.self) == "merger_key_with_messages elems[0].merger.messages limit=0 actual=1\n")
        let convert = Self.run(["convert", "--to", "tim-rest"], json)
        #expect(convert.status == 1)
        #expect(convert.stderr.hasPrefix(
            "error: not_representable: a TIMRelayElem has either MsgList or JsonMsgKey; this merger has 1 inline message and a JsonMsgKey (at elems[0].merger.messages)"),
            "\(convert.stderr)")
    }

    @Test func aZIMMessageToItsOwnSenderIsRefused() {
        let result = Self.run(["validate", "--profile", "zim"], #"{"sender":"alice","receiver":"alice","elems":[{"text":{"text":"x"}}]}"#)
        #expect(result.status == 1)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "message_to_self receiver limit=other_than_sender actual=alice\n")
        #expect(result.stderr.contains("(ZIM error 6000001)"), "\(result.stderr)")
        #expect(Self.run(["validate", "--profile", "zim"], #"{"receiver":"alice","elems":[{"text":{"text":"x"}}]}"#).status == 0)
    }

    // MARK: - Wording

    /// The issue's three sentences: "businessID is a a number", "the data is a JSON an array",
    /// "these 1 bytes".
    @Test func theIssuesSentencesReadRight() {
        func tuikit(_ data: String) -> String {
            let json = #"{"receiver":"b","elems":[{"custom":{"data":""# + Array(data.utf8).base64 + #""}}]}"#
            return Self.run(["validate", "--profile", "tuikit"], json).stderr
        }
        #expect(tuikit(#"{"businessID":1}"#).contains("first: TUIKit custom data is a JSON object with a non-empty string businessID; businessID is a number, not a string (at elems[0].custom.data)"),
                "\(tuikit(#"{"businessID":1}"#))")
        #expect(tuikit("[1]").contains("; the data is JSON but an array, not an object (at elems[0].custom.data)"), "\(tuikit("[1]"))")
        let notUTF8 = Self.run(["convert", "--to", "tim-rest"], #"{"receiver":"b","elems":[{"custom":{"data":"/w=="}}]}"#)
        #expect(notUTF8.status == 1)
        #expect(notUTF8.stderr.hasPrefix("error: not_representable: the value (1 byte) is not valid UTF-8, and Tencent REST carries it as a JSON string (at elems[0].custom.data)"),
                "\(notUTF8.stderr)")
    }

    @Test func aGroupReadReceiptRequestIsWrittenWithTheSendGroupMessageKey() {
        let group = Self.run(["convert", "--to", "tim-rest"], #"{"groupId":"g","needReadReceipt":true}"#)
        #expect(String(decoding: group.stdout, as: UTF8.self) == #"{"GroupId":"g","MsgBody":[],"NeedReadReceipt":1}"# + "\n")
        let c2c = Self.run(["convert", "--to", "tim-rest"], #"{"receiver":"b","needReadReceipt":true}"#)
        #expect(String(decoding: c2c.stdout, as: UTF8.self) == #"{"To_Account":"b","MsgBody":[],"IsNeedReadReceipt":1}"# + "\n")
    }
}

extension Array where Element == UInt8 {
    /// Standard base64 with padding, for building proto3 JSON bytes fields in tests.
    fileprivate var base64: String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        for start in stride(from: 0, to: count, by: 3) {
            let chunk = Array(self[start..<Swift.min(start + 3, count)]) + [0, 0]
            let value = Int(chunk[0]) << 16 | Int(chunk[1]) << 8 | Int(chunk[2])
            for index in 0..<4 {
                out.append(index <= count - start ? alphabet[(value >> (18 - 6 * index)) & 63] : UInt8(ascii: "="))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
