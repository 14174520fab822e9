// The message view of proto3 JSON (issue 34): every field read through the view agrees with the
// owned model decoded from the same JSON, escapes and base64 included; the view refuses what a
// decode refuses, with the same error (the JSON corpus's rejects, made by Python, and corrupted
// documents); making and walking it is linear in the input.

import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

@Suite("Message view of JSON")
struct JSONViewTests {
    /// `json` viewed and copied out, or the error making the view threw.
    static func viewed(_ json: [UInt8], _ options: JSONDecodingOptions = .init()) -> Result<Message, IMWireError>? {
        do {
            return .success(try Message.withView(jsonUTF8Bytes: json, options: options) { Message($0) })
        } catch let error as IMWireError {
            return .failure(error)
        } catch {
            Issue.record("not an IMWireError: \(error)")
            return nil
        }
    }

    static func decoded(_ json: [UInt8], _ options: JSONDecodingOptions = .init()) -> Result<Message, IMWireError> {
        Result { () throws(IMWireError) in try Message(jsonUTF8Bytes: json, options: options) }
    }

    /// Every field of every type, written by the JSON writer compact and pretty, then with escapes
    /// put into its strings (keys, text, base64, enum names, quoted numbers): the view reads what a
    /// decode gives.
    @Test func theViewOfAnyJSONMessageReadsWhatADecodeGives() async {
        let input = IMWireGen.model(.full) { generator -> ([UInt8], [UInt8], [UInt8]) in
            let message = generator.message()
            let json = (try? message.jsonUTF8Bytes()) ?? []
            let pretty = (try? message.jsonUTF8Bytes(options: JSONEncodingOptions(prettyPrinted: true))) ?? []
            return (json, pretty, Self.escaping(json, using: &generator.rng))
        }
        await propertyCheck(count: PropertyIterations.count(default: 1000), input: input) { json, pretty, escaped in
            for document in [json, pretty, escaped] {
                let decoded = Self.decoded(document)
                #expect(decoded.isSuccess, "\(String(decoding: document, as: UTF8.self))")
                #expect(Self.viewed(document) == decoded, "\(String(decoding: document, as: UTF8.self))")
            }
        }
    }

    /// Hostile JSON: a document with bytes flipped, inserted, deleted, duplicated or cut off.
    @Test func theViewRefusesWhatADecodeRefusesWithTheSameError() async {
        let input = IMWireGen.model(.small) { generator -> [UInt8] in
            let json = (try? generator.message().jsonUTF8Bytes()) ?? []
            let escaped = generator.rng.chance(0.3) ? Self.escaping(json, using: &generator.rng) : json
            return Corruption.apply(to: escaped, using: &generator.rng)
        }
        var refused = 0
        await propertyCheck(count: PropertyIterations.count(default: 5000), input: input) { corrupted in
            let decoded = Self.decoded(corrupted)
            if !decoded.isSuccess { refused += 1 }
            #expect(Self.viewed(corrupted) == decoded, "input: \(String(decoding: corrupted, as: UTF8.self))")
            let lenient = JSONDecodingOptions(ignoreUnknownFields: true)
            #expect(Self.viewed(corrupted, lenient) == Self.decoded(corrupted, lenient))
        }
        #expect(refused > 0, "no corrupted document was refused: the test compared accepted input only")
    }

    /// The JSON corpus (Fixtures/json, its verdicts from Python's json_format): every input it
    /// accepts views as it decodes, every input it rejects the view refuses with the decode's error.
    @Test func theCorpusViewsAsItDecodes() {
        #expect(JSONCorpus.accept.count >= 60 && JSONCorpus.reject.count >= 150)
        for corpusCase in JSONCorpus.all {
            let input = corpusCase.input
            let decoded = Self.decoded(input, corpusCase.options)
            #expect(decoded.isSuccess == (corpusCase.kind == "json_accept") || JSONCorpus.knownDisagreements[corpusCase.name] != nil)
            #expect(Self.viewed(input, corpusCase.options) == decoded, "\(corpusCase.name)")
        }
    }

    @Test func stringsWithEscapesAndBytesReadTheirValues() throws {
        let json = #"{"msgId":"a\"b\\c\u00e9\ud83d\ude00","sender":"plain","cloudCustomData":"/wA=","#
            + #""elems":[{"text":{"text":"line\nnext"}},{"custom":{"data":"AQID","desc":"d"}}],"#
            + #""atUserList":["b\u006fb","carol"],"priority":"PRIORITY_HIGH","seq":"42"}"#
        try Message.withView(jsonUTF8Bytes: Array(json.utf8)) { view in
            #expect(view.msgID == "a\"b\\cé😀")
            #expect(view.sender == "plain")
            #expect(Array(view.cloudCustomData) == [0xFF, 0x00])
            #expect(view.atUserList.map { String($0) } == ["bob", "carol"])
            #expect(view.priority == .high && view.seq == 42)
            guard case .text(let text)? = view.elems.first?.content, case .custom(let custom)? = view.elems.last?.content else {
                Issue.record("elems: \(Message(view).elems)")
                return
            }
            #expect(text.text == "line\nnext")
            #expect(Array(custom.data) == [1, 2, 3] && custom.desc == "d")
        }
    }

    @Test func unknownKeysAndEnumNamesAreSkippedWhenAsked() throws {
        let json = Array(#"{"msgId":"m","future":{"a":[1,2]},"priority":"PRIORITY_SOMEDAY","seq":7}"#.utf8)
        #expect(throws: IMWireError.self) { try Message.withView(jsonUTF8Bytes: json) { _ in () } }
        let lenient = JSONDecodingOptions(ignoreUnknownFields: true)
        let viewed = try Message.withView(jsonUTF8Bytes: json, options: lenient) { Message($0) }
        #expect(viewed == Message(msgID: "m", seq: 7))
        #expect(viewed == (try Message(jsonUTF8Bytes: json, options: lenient)))
    }

    @Test func theDepthAndSizeLimitsAreADecodesLimits() throws {
        var message = Message(msgID: "inner", elems: [.text("x")])
        for _ in 0..<5 { message = Message(elems: [.merger(MergerElem(messages: [message]))]) }
        let json = try message.jsonUTF8Bytes()
        let tight = JSONDecodingOptions(maxDepth: 8)
        #expect(Self.viewed(json, tight) == Self.decoded(json, tight))
        #expect(Self.viewed(json, tight)?.error?.code == .depthLimitExceeded)
        let small = JSONDecodingOptions(maxInputSize: json.count - 1)
        #expect(Self.viewed(json, small)?.error?.code == .inputTooLarge)
        #expect(Self.viewed(Array("  ".utf8)) == Self.decoded(Array("  ".utf8)))
        #expect(Self.viewed(Array("{} x".utf8)) == Self.decoded(Array("{} x".utf8)))
    }

    @Test(.timed, arguments: DecodedValueLinearTimeTests.shapes)
    func makingAndWalkingAJSONViewIsLinear(_ shape: String) throws {
        let small = try DecodedValueLinearTimeTests.message(shape, 2_000).jsonUTF8Bytes()
        let large = try DecodedValueLinearTimeTests.message(shape, 16_000).jsonUTF8Bytes()
        func walk(_ bytes: [UInt8]) -> Int {
            (try? Message.withView(jsonUTF8Bytes: bytes) { view in
                view.elems.reduce(0) { sum, elem in sum &+ (elem.content == nil ? 0 : 1) }
            }) ?? -1
        }
        #expect(walk(large) > 0)
        let ratio = growthRatio(bound: growthBound) { _ = walk(small) } large: { _ = walk(large) }
        #expect(ratio < growthBound, "8× the \(shape) took \(ratio)× as long to view as JSON and walk")
    }

    /// `json` with some of its string bytes written as `\u` escapes (an ASCII letter or digit as
    /// `\u00XX`, a non-ASCII character as its UTF-16 escape, a surrogate pair beyond the BMP), and
    /// some `/` as `\/`: the same document to any JSON reader.
    static func escaping(_ json: [UInt8], using rng: inout TestRandom) -> [UInt8] {
        let text = String(decoding: json, as: UTF8.self)
        var out: [UInt8] = []
        var inString = false
        var escaped = false
        var hexDigitsLeft = 0
        for scalar in text.unicodeScalars {
            let utf8 = Array(String(scalar).utf8)
            if !inString {
                if scalar == "\"" { inString = true }
                out += utf8
                continue
            }
            if escaped || hexDigitsLeft > 0 {
                // The character after a backslash, and the four hex digits of a `\u`, stay as written.
                if escaped, scalar == "u" { hexDigitsLeft = 5 }
                escaped = false
                hexDigitsLeft = max(0, hexDigitsLeft - 1)
                out += utf8
                continue
            }
            switch scalar {
            case "\\": escaped = true; out += utf8
            case "\"": inString = false; out += utf8
            case "/" where rng.chance(0.5): out += Array(#"\/"#.utf8)
            default:
                let isWord = scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || !scalar.isASCII
                guard isWord, rng.chance(0.25) else {
                    out += utf8
                    continue
                }
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                }
            }
        }
        return out
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
