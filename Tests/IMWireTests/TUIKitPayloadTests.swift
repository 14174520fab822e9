import IMWire
import IMWireTestSupport
import Testing

/// `TUIKitCustomPayload` and `TUIKitLinkMessage`: reading TUIKit's custom-message JSON from the
/// golden fixtures (written by Python from TUIKit's documented example), keeping every member,
/// building and writing payloads, the errors, the `tuikit` profile's rule, and linear time.
@Suite struct TUIKitPayloadTests {
    static func customData(_ fixture: String) throws -> [UInt8] {
        let fixture = try #require(Fixtures.cases(kind: "valid").first { $0.name == fixture })
        let message = try Message(serializedBytes: fixture.bytes("binpb"))
        guard case .custom(let custom)? = message.elems.first?.content else {
            Issue.record("\(fixture.name) holds no custom elem")
            return []
        }
        return custom.data
    }

    static func payload(_ json: String) throws(IMWireError) -> TUIKitCustomPayload {
        try TUIKitCustomPayload(jsonUTF8Bytes: Array(json.utf8))
    }

    // MARK: Reading

    @Test func theDocumentedLinkMessageReads() throws {
        let payload = try TUIKitCustomPayload(jsonUTF8Bytes: Self.customData("tuikit_custom_message_link"))
        #expect(payload.businessID == "custom_message_link")
        #expect(payload.version == nil)
        #expect(payload[field: "text"] == .string("Welcome to Tencent Cloud IM group"))
        let link = try TUIKitLinkMessage(payload)
        #expect(link.text == "Welcome to Tencent Cloud IM group")
        #expect(link.link == "https://cloud.tencent.com/document/product/269/3794")
        #expect(link.otherFields.isEmpty)
        // Written back, it is the document's JSON again, byte for byte.
        #expect(try link.payload.jsonUTF8Bytes() == Self.customData("tuikit_custom_message_link"))
    }

    @Test func unknownMembersAndNumbersAreKeptAsTheyCame() throws {
        let payload = try TUIKitCustomPayload(jsonUTF8Bytes: Self.customData("tuikit_custom_message_versioned"))
        #expect(payload.businessID == "order_card")
        #expect(payload.version == 4)
        #expect(payload.fields.map(\.name) == ["version", "order", "note", "title"])
        #expect(payload[field: "order"] == .object([
            .init("id", .string("A1024")),
            .init("items", .array([.number(TUIKitCustomPayload.Number(1)), .number(TUIKitCustomPayload.Number("2.5e3")!), .bool(true)])),
        ]))
        #expect(payload[field: "note"] == .null)
        #expect(payload[field: "title"]?.stringValue == "订单 #A1024")
        let written = try payload.jsonUTF8Bytes()
        #expect(String(decoding: written, as: UTF8.self)
            == #"{"businessID":"order_card","version":4,"order":{"id":"A1024","items":[1,2.5e3,true]},"note":null,"title":"订单 #A1024"}"#)
        #expect(try TUIKitCustomPayload(jsonUTF8Bytes: written) == payload)
    }

    @Test func businessIDIsWrittenFirstWhereverItCame() throws {
        let payload = try Self.payload(#"{"text":"x","businessID":"b","n":-0.5}"#)
        #expect(String(decoding: try payload.jsonUTF8Bytes(), as: UTF8.self) == #"{"businessID":"b","text":"x","n":-0.5}"#)
    }

    @Test func theFlyHeartCommandIsJSONButNoPayload() throws {
        let data = try Self.customData("tuikit_flyheart_command_not_tuikit")
        do {
            _ = try TUIKitCustomPayload(jsonUTF8Bytes: data)
            Issue.record("read without a businessID")
        } catch {
            #expect(error.code == .missingField)
            #expect(error.path == "businessID")
        }
    }

    @Test(arguments: [
        ("not json", "json_syntax", nil as String?),
        (#"["businessID"]"#, "invalid_value", nil),
        (#"{"businessID":7}"#, "invalid_value", "businessID"),
        (#"{"businessID":""}"#, "invalid_value", "businessID"),
        (#"{"text":"x"}"#, "missing_field", "businessID"),
        (#"{"businessID":"a","x":1,"x":2}"#, "duplicate_key", nil),
        (#"{"businessID":"a","x":"\ud800"}"#, "invalid_escape", nil),
        (#"{"businessID":"a"} {}"#, "json_syntax", nil),
        (#"{"businessID":"a","n":01}"#, "json_syntax", nil),
    ])
    func malformedPayloadsAreTypedErrors(_ json: String, _ code: String, _ path: String?) {
        do {
            _ = try Self.payload(json)
            Issue.record("\(json) was read")
        } catch {
            #expect(error.code.name == code, "\(error)")
            #expect(error.path == path)
            if path == nil { #expect(error.offset != nil, "\(error)") }
        }
    }

    @Test func nestingIsBoundedByMaxDepth() throws {
        let deep = #"{"businessID":"a","x":"# + String(repeating: "[", count: 99) + String(repeating: "]", count: 99) + "}"
        #expect(try Self.payload(deep).businessID == "a")  // 100 levels: the object and 99 arrays
        let deeper = #"{"businessID":"a","x":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(throws: IMWireError.matching(.depthLimitExceeded)) { try Self.payload(deeper) }
        #expect(try TUIKitCustomPayload(jsonUTF8Bytes: Array(deeper.utf8), maxDepth: 101).businessID == "a")
    }

    @Test func invalidUTF8IsRefused() {
        let bytes = Array(#"{"businessID":""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(throws: IMWireError.matching(.invalidUTF8)) { try TUIKitCustomPayload(jsonUTF8Bytes: bytes) }
    }

    // MARK: Building and writing

    @Test func versionIsTheFirstFieldAndCanBeRemoved() throws {
        var payload = TUIKitCustomPayload(businessID: "order_card", fields: [.init("orderId", .string("A1024"))])
        payload.version = 2
        #expect(payload.fields.map(\.name) == ["version", "orderId"])
        payload.version = 3
        #expect(payload.fields.first == .init("version", .number(TUIKitCustomPayload.Number(3))))
        payload.version = nil
        #expect(payload.fields.map(\.name) == ["orderId"])
        payload[field: "price"] = .number(try #require(TUIKitCustomPayload.Number(99.5)))
        #expect(String(decoding: try payload.jsonUTF8Bytes(), as: UTF8.self) == #"{"businessID":"order_card","orderId":"A1024","price":99.5}"#)
        // A version that is no integer is kept, and read as nil.
        let odd = try Self.payload(#"{"businessID":"a","version":"4"}"#)
        #expect(odd.version == nil && odd[field: "version"] == .string("4"))
    }

    @Test func numbersAreCheckedJSONNumbers() {
        #expect(TUIKitCustomPayload.Number("101")?.int64Value == 101)
        #expect(TUIKitCustomPayload.Number("1.2e1")?.int64Value == 12)
        #expect(TUIKitCustomPayload.Number("-0.5")?.doubleValue == -0.5)
        #expect(TUIKitCustomPayload.Number("1e400")?.doubleValue == nil)
        for bad in ["", "01", "+1", "1.", ".5", "1e", "0x10", "NaN", "1 "] {
            #expect(TUIKitCustomPayload.Number(bad) == nil, "\(bad)")
        }
        #expect(TUIKitCustomPayload.Number(Double.nan) == nil)
        #expect(TUIKitCustomPayload.Number(2500.0)?.text == "2500")
        #expect(TUIKitCustomPayload.Number(1e-07)?.text == "1e-07")
    }

    @Test func writingRefusesWhatAReaderWouldRefuse() {
        let empty = TUIKitCustomPayload(businessID: "")
        #expect(throws: IMWireError.matching(.invalidValue)) { try empty.jsonUTF8Bytes() }
        let twice = TUIKitCustomPayload(businessID: "a", fields: [.init("x", .null), .init("o", .object([.init("y", .null), .init("y", .null)]))])
        do {
            _ = try twice.jsonUTF8Bytes()
            Issue.record("written")
        } catch {
            #expect(error.code == .duplicateKey)
            #expect(error.path == "o.y")
        }
        let businessIDTwice = TUIKitCustomPayload(businessID: "a", fields: [.init("businessID", .string("b"))])
        #expect(throws: IMWireError.matching(.duplicateKey)) { try businessIDTwice.jsonUTF8Bytes() }
    }

    @Test func aCustomElemCarriesAPayloadBothWays() throws {
        let link = TUIKitLinkMessage(text: "Docs", link: "https://example.com", otherFields: [.init("version", .number(.init(1)))])
        let elem = try CustomElem(tuikitPayload: link.payload, desc: "[Link]")
        #expect(elem.desc == "[Link]")
        #expect(String(decoding: elem.data, as: UTF8.self) == #"{"businessID":"custom_message_link","version":1,"text":"Docs","link":"https://example.com"}"#)
        let back = try TUIKitLinkMessage(try elem.tuikitPayload())
        #expect(back == link)
        #expect(Message(sender: "a", target: .receiver("b"), elems: [.custom(elem)]).validate(profile: .tuikit).isEmpty)
    }

    @Test func aLinkMessageNeedsItsBusinessIDAndStrings() {
        func error(_ json: String) -> IMWireError? {
            do {
                _ = try TUIKitLinkMessage(Self.payload(json))
                return nil
            } catch {
                return error
            }
        }
        #expect(error(#"{"businessID":"other","text":"t","link":"l"}"#)?.path == "businessID")
        #expect(error(#"{"businessID":"custom_message_link","link":"l"}"#)?.code == .missingField)
        #expect(error(#"{"businessID":"custom_message_link","text":1,"link":"l"}"#)?.path == "text")
    }

    // MARK: The tuikit profile

    @Test func theTUIKitRuleNamesWhatIsWrong() {
        func rule(_ data: [UInt8]) -> [String] {
            Message(sender: "a", target: .receiver("b"), elems: [.custom(CustomElem(data: data))])
                .validate(profile: .tuikit).map { "\($0.code.name) \($0.path) \($0.limit) \($0.actual)" }
        }
        #expect(rule(Array(#"{"businessID":"x"}"#.utf8)) == [])
        #expect(rule([0xFF]) == ["custom_data_not_tuikit elems[0].custom.data businessID not_json"])
        #expect(rule(Array("[]".utf8)) == ["custom_data_not_tuikit elems[0].custom.data businessID not_an_object"])
        #expect(rule(Array(#"{"businessID":1}"#.utf8)) == ["custom_data_not_tuikit elems[0].custom.data businessID no_business_id"])
        #expect(rule(Array(#"{"businessID":""}"#.utf8)) == ["custom_data_not_tuikit elems[0].custom.data businessID no_business_id"])
        #expect(rule([]) == ["custom_data_not_tuikit elems[0].custom.data businessID not_json"])
        // Validation takes any depth (the reader's default is 100 levels).
        let deep = #"{"businessID":"a","x":"# + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}"
        #expect(rule(Array(deep.utf8)) == [])
    }

    // MARK: Linear time

    static let bound = 16.0

    /// A payload with `n` members.
    static func manyMembers(_ n: Int) -> [UInt8] {
        var json = #"{"businessID":"wide""#
        for index in 0..<n { json += #","f\#(index)":[\#(index),"v\#(index)",{"k":null}]"# }
        return Array((json + "}").utf8)
    }

    /// A payload with one string of `n` bytes, with an escape every 16 bytes.
    static func longString(_ n: Int) -> [UInt8] {
        let piece = #"abcdefghijklmn\""#
        return Array((#"{"businessID":"long","s":""# + String(repeating: piece, count: n / 16) + #""}"#).utf8)
    }

    @Test(.timed, arguments: ["many members", "one long string"])
    func readingIsLinearInTheInput(_ shape: String) throws {
        let make = shape == "many members" ? Self.manyMembers : Self.longString
        let n = shape == "many members" ? 2_000 : 200_000
        let small = make(n)
        let large = make(8 * n)
        #expect(try TUIKitCustomPayload(jsonUTF8Bytes: large).fields.count >= 1)
        let ratio = growthRatio(bound: Self.bound, small: {
            _ = try? TUIKitCustomPayload(jsonUTF8Bytes: small)
        }, large: {
            _ = try? TUIKitCustomPayload(jsonUTF8Bytes: large)
        })
        #expect(ratio < Self.bound, "\(shape): 8× the input took \(ratio)× the time")
    }

    @Test(.timed) func writingAndValidatingAreLinearInThePayload() throws {
        let small = try TUIKitCustomPayload(jsonUTF8Bytes: Self.manyMembers(2_000))
        let large = try TUIKitCustomPayload(jsonUTF8Bytes: Self.manyMembers(16_000))
        let writing = growthRatio(bound: Self.bound, small: { _ = try? small.jsonUTF8Bytes() }, large: { _ = try? large.jsonUTF8Bytes() })
        #expect(writing < Self.bound, "writing: \(writing)×")
        func message(_ data: [UInt8]) -> Message { Message(sender: "a", target: .receiver("b"), elems: [.custom(CustomElem(data: data))]) }
        let smallMessage = message(Self.manyMembers(2_000))
        let largeMessage = message(Self.manyMembers(16_000))
        let validating = growthRatio(bound: Self.bound, small: { _ = smallMessage.validate(profile: .tuikit) },
                                     large: { _ = largeMessage.validate(profile: .tuikit) })
        #expect(validating < Self.bound, "validating: \(validating)×")
    }
}
