// proto3 JSON cut off at every byte: the decoder and the message view refuse every prefix of a
// document that holds every kind of JSON value, with the same error at the same offset, inside the
// prefix — and, run under AddressSanitizer by the test command, without reading a byte past it
// (each prefix is a heap block of its exact size).

import IMWire
import IMWireTestSupport
import Testing

@Suite("Truncated JSON")
struct JSONTruncationTests {
    /// Every kind of value: strings with and without escapes, bytes (base64, in a field and as map
    /// values), numbers (integer, quoted 64-bit, fraction and exponent), bools, null, objects,
    /// arrays (of objects and of strings) and a map.
    static let document = Array(#"""
        {"msgId":"m-1","sender":"al\u00e9x \"a\"\n","groupId":"@TGS#1","timestampMs":"1700000000000","random":7,
         "needReadReceipt":true,"barrage":false,"topicId":null,"cloudCustomData":"AAEC/w==",
         "elems":[{"text":{"text":"hi \ud83d\ude00"}},{"custom":{"data":"aGk=","desc":"d"}},
                  {"location":{"desc":"here","longitude":1.5e2,"latitude":-0.25}},
                  {"groupTips":{"memberList":[{"userId":"u","customInfo":{"k":"dg==","k\u0032":""}}]}}],
         "atUserList":["a","b"]}
        """#.utf8)

    /// The whole document is a message with every one of those values.
    @Test func theWholeDocumentDecodesAndViews() throws {
        let message = try Message(jsonUTF8Bytes: Self.document)
        #expect(message.sender == "aléx \"a\"\n")
        #expect(message.cloudCustomData == [0, 1, 2, 0xFF])
        #expect(message.needReadReceipt && !message.barrage && message.random == 7)
        #expect(message.elems.count == 4 && message.atUserList == ["a", "b"])
        guard case .groupTips(let tips)? = message.elems.last?.content else {
            Issue.record("no group tips elem")
            return
        }
        #expect(tips.memberList.first?.customInfo == ["k": [0x76], "k2": []])
        let viewed = try withExactBytes(Self.document) { bytes in try Message.withView(jsonUTF8Bytes: bytes) { Message($0) } }
        #expect(viewed == message)
    }

    /// The input the fuzzer found: a bytes value cut off before its opening quote, which the view
    /// once copied from one byte past the end of the input into a scratch buffer of the input's size.
    /// Both now refuse it at the end of the input, with the same error.
    @Test func aBytesValueCutOffBeforeItsQuoteIsRefusedAtTheEnd() throws {
        let input = Array(#"{"elems":[{"custom":{"data":"#.utf8)
        #expect(input.count == 28)
        let (decoded, viewed) = Self.decodeAndView(input)
        guard case .failure(let error) = decoded, case .failure(let viewError) = viewed else {
            Issue.record("accepted: decoder \(decoded), view \(viewed)")
            return
        }
        #expect(error.code.name == "json_syntax" && error.offset == 28, "\(error)")
        #expect(viewError == error && viewError.offset == error.offset, "view \(viewError), decoder \(error)")
    }

    /// `bytes` decoded and read through the JSON view, each from a heap block of their exact size.
    static func decodeAndView(_ bytes: [UInt8]) -> (Result<Message, IMWireError>, Result<Message, IMWireError>) {
        withExactBytes(bytes) { bytes in
            (Result { () throws(IMWireError) in try Message(jsonUTF8Bytes: bytes) },
             Result { () throws(IMWireError) in
                 do { return try Message.withView(jsonUTF8Bytes: bytes) { Message($0) } } catch let error as IMWireError { throw error } catch { fatalError("\(error)") }
             })
        }
    }

    /// Every prefix is refused by the decoder and by the view with the same error (code, reason and
    /// offset), located inside the prefix; the codes are those of text that ends too soon.
    @Test func everyPrefixIsRefusedByTheDecoderAndTheViewAlike() throws {
        var codes: Set<String> = []
        for length in 0..<Self.document.count {
            let prefix = Array(Self.document[..<length])
            let (decoded, viewed) = Self.decodeAndView(prefix)
            let text = String(decoding: prefix.suffix(24), as: UTF8.self)
            guard case .failure(let error) = decoded else {
                Issue.record("a prefix of \(length) bytes decodes: …\(text)")
                continue
            }
            guard case .failure(let viewError) = viewed else {
                Issue.record("the view accepts a prefix of \(length) bytes the decoder refuses: …\(text)")
                continue
            }
            #expect(viewError == error && viewError.offset == error.offset && viewError.reason == error.reason,
                    "prefix of \(length) bytes (…\(text)): view \(viewError), decoder \(error)")
            #expect(error.offset.map { $0 >= 0 && $0 <= length } == true, "prefix of \(length): \(error)")
            codes.insert(error.code.name)
        }
        #expect(codes.isSubset(of: ["json_syntax", "invalid_number", "invalid_escape"]), "\(codes.sorted())")
        #expect(codes.contains("json_syntax"))
    }
}
