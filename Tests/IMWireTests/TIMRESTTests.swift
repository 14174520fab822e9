import IMWire
import Testing

/// The tim-rest dialect (the TimRest article (IMWire.docc)) beyond the fixtures: every elem type and envelope key round-trips
/// tim-rest → model → tim-rest, the request shapes, JsonMsgKey, the lossy option, limits on small
/// stacks (the CLI: IMWireCLITests/TIMRESTCLITests.swift).
@Suite struct TIMRESTTests {
    // MARK: - Round trips of every elem type and envelope key

    static let image = Image(type: .origin, uuid: "img-md5", size: 1_853_095, width: 2448, height: 3264, url: "https://x/0")

    /// One elem of every kind REST carries, every field set.
    static let everyElem: [(String, Elem)] = [
        ("text", .text("hello 世界 👋")),
        ("custom", .custom(CustomElem(data: Array("{\"k\":1}".utf8), desc: "notification", ext: "url", sound: "dingdong.aiff"))),
        ("image", .image(ImageElem(format: .png, images: [
            image,
            Image(type: .large, uuid: "img-md5", size: 2_565_240, width: 720, height: 960, url: "https://x/720"),
            Image(type: .thumb, uuid: "img-md5", size: 12_535, width: 198, height: 264, url: "https://x/198"),
        ]))),
        ("sound", .sound(SoundElem(uuid: "snd", url: "https://x/s", dataSize: 62_351, duration: 17))),
        ("video", .video(VideoElem(
            videoUUID: "vid", videoURL: "https://x/v", videoSize: 1_194_603, videoFormat: "mp4", duration: 5,
            snapshotUUID: "thumb", snapshotURL: "https://x/t", snapshotSize: 13_907, snapshotWidth: 720,
            snapshotHeight: 1280, snapshotFormat: "JPG"))),
        ("file", .file(FileElem(uuid: "f", url: "https://x/f", fileName: "report.pdf", fileSize: 1_773_552))),
        ("location", .location(LocationElem(desc: "someinfo", longitude: 116.77497920478824, latitude: -29.340656774469956))),
        ("face", .face(FaceElem(index: -7, data: [0x61, 0x00, 0x01]))),
        ("merger", .merger(MergerElem(
            title: "history", abstractList: ["a: hi", "b: yo"], compatibleText: "upgrade",
            messages: [
                Message(sender: "a", target: .receiver("b"), timestampMs: 1_700_000_000_000, seq: 1, random: 2, elems: [.text("hi")]),
                Message(sender: "b", target: .groupID("g"), random: 3, elems: [.face(FaceElem(index: 1))],
                        cloudCustomData: Array("c".utf8)),
            ]))),
    ]

    @Test(arguments: everyElem.map(\.0))
    func everyElemTypeRoundTripsThroughTIMREST(_ kind: String) throws {
        let elem = Self.everyElem.first { $0.0 == kind }!.1
        let message = Message(sender: "alice", target: .receiver("bob"), elems: [elem])
        let rest = try message.timRESTString()
        let decoded = try Message(timRESTString: rest)
        #expect(try decoded.serializedBytes() == message.serializedBytes(), "\(rest)")
        #expect(try decoded.timRESTString() == rest)
    }

    static let c2cEverything = Message(
        msgID: "46_2637218_1676513390", sender: "alice", target: .receiver("bob"), timestampMs: 1_676_513_390_000,
        seq: 46, random: 4_294_967_295, priority: .lowest, elems: Self.everyElem.map(\.1),
        atUserList: [Message.atAllUserID, "carol"], cloudCustomData: Array("云端 data".utf8),
        offlinePushInfo: OfflinePushInfo(
            title: "t", desc: "d", ext: "e", disablePush: true, iosSound: "a.caf", androidSound: "a.mp3", ignoreIOSBadge: true),
        needReadReceipt: true, excludedFromUnreadCount: true, excludedFromLastMessage: true, onlineUserOnly: true,
        supportMessageExtension: true)

    @Test func everyEnvelopeKeyRoundTripsInTheC2CShape() throws {
        let rest = try Self.c2cEverything.timRESTString()
        #expect(try Message(timRESTString: rest).serializedBytes() == Self.c2cEverything.serializedBytes(), "\(rest)")
        for key in ["\"MsgKey\":", "\"From_Account\":", "\"To_Account\":\"bob\"", "\"MsgSeq\":46", "\"MsgRandom\":4294967295",
                    "\"MsgTimeStamp\":1676513390", "\"MsgPriority\":\"Lowest\"", "\"GroupAtInfo\":", "\"SendMsgControl\":",
                    "\"MsgLifeTime\":0", "\"IsNeedReadReceipt\":1", "\"SupportMessageExtension\":1", "\"OfflinePushInfo\":",
                    "\"CloudCustomData\":\"云端 data\""] {
            #expect(rest.contains(key), "\(key) missing from \(rest)")
        }
        #expect(rest.hasPrefix("{\"From_Account\":\"alice\",\"To_Account\":\"bob\",\"MsgSeq\":46,"))
        #expect(!rest.contains("\"Random\"") && !rest.contains("\"OnlineOnlyFlag\""))
    }

    @Test func everyEnvelopeKeyRoundTripsInTheGroupShape() throws {
        var message = Self.c2cEverything
        message.target = .groupID("@TGS#2C5SZEAEF")
        message.atUserList = []
        message.targetedReceivers = ["bob", "carol"]
        let rest = try message.timRESTString()
        #expect(try Message(timRESTString: rest).serializedBytes() == message.serializedBytes(), "\(rest)")
        #expect(rest.hasPrefix("{\"GroupId\":\"@TGS#2C5SZEAEF\",\"From_Account\":\"alice\",\"To_Account\":[\"bob\",\"carol\"],"))
        #expect(rest.contains("\"Random\":4294967295") && rest.contains("\"OnlineOnlyFlag\":1"))
        // Messages inside a relay's MsgList say MsgRandom even in a group request.
        #expect(rest.contains("\"MsgList\":[{\"From_Account\":\"a\",\"To_Account\":\"b\",\"MsgSeq\":1,\"MsgRandom\":2"))
        #expect(rest.contains("{\"GroupId\":\"g\",\"From_Account\":\"b\",\"MsgRandom\":3,"))
        #expect(!rest.contains("MsgLifeTime"))
    }

    @Test func aMessageWithoutTargetOrFieldsIsJustItsBody() throws {
        #expect(try Message(elems: [.text("x")]).timRESTString() == #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}"#)
        #expect(try Message().timRESTString() == #"{"MsgBody":[]}"#)
    }

    @Test func theAlternateAtAllSpellingInTheModelIsWrittenAsAtAll() throws {
        let message = Message(target: .groupID("g"), elems: [.text("x")], atUserList: [Message.atAllUserIDAlternateSpelling])
        let rest = try message.timRESTString()
        #expect(rest.contains(#""GroupAtInfo":[{"GroupAtAllFlag":1}]"#))
        #expect(try Message(timRESTString: rest).atUserList == [Message.atAllUserID])
    }

    @Test func prettyOutputIndentsByTwoSpaces() throws {
        let rest = try Message(target: .receiver("b"), elems: [.text("x")]).timRESTString(options: TIMRESTEncodingOptions(prettyPrinted: true))
        #expect(rest == """
            {
              "To_Account": "b",
              "MsgBody": [
                {
                  "MsgType": "TIMTextElem",
                  "MsgContent": {
                    "Text": "x"
                  }
                }
              ]
            }
            """)
    }

    // MARK: - JsonMsgKey

    @Test func jsonMsgKeyAndMsgNumAreFieldsOfTheMergerInEveryFormat() throws {
        let merger = MergerElem(title: "t", compatibleText: "c", jsonMsgKey: "key-1", msgNum: 301)
        let message = Message(elems: [.merger(merger)])
        let binary = try message.serializedBytes()
        #expect(try Message(serializedBytes: binary) == message)
        let json = try message.jsonString()
        #expect(json.contains(#""jsonMsgKey":"key-1","msgNum":301"#))
        #expect(try Message(jsonString: json) == message)

        let rest = try message.timRESTString()
        #expect(rest.contains(#""MsgNum":301,"CompatibleText":"c","AbstractList":[],"JsonMsgKey":"key-1"}"#))
        #expect(try Message(timRESTString: rest).serializedBytes() == binary)
    }

    @Test func aMergerWithInlineMessagesAndAJSONMsgKeyIsRefused() {
        let merger = MergerElem(messages: [Message(elems: [.text("x")])], jsonMsgKey: "k")
        #expect(throws: IMWireError.matching(.notRepresentable)) {
            try Message(elems: [.merger(merger)]).timRESTUTF8Bytes()
        }
    }

    @Test func aMsgNumWithoutAKeyIsALossUnlessAllowed() throws {
        let message = Message(elems: [.merger(MergerElem(messages: [Message(elems: [.text("x")])], msgNum: 7))])
        #expect(throws: IMWireError.matching(.notRepresentable)) { try message.timRESTUTF8Bytes() }
        let lossy = try message.timRESTString(options: TIMRESTEncodingOptions(allowsLossyConversion: true))
        #expect(lossy.contains(#""MsgNum":1,"#))
    }

    @Test func unknownFieldsOfAMergerHaveNoRESTForm() throws {
        // Field 2000 (varint 5) arrives as an unknown field of the merger.
        let binary = try Message(elems: [.merger(MergerElem(title: "t"))]).serializedBytes()
        let carrier = try Message(serializedBytes: spliceIntoFirstMerger(binary, [0x80, 0x7D, 0x05]))
        guard case .merger(let merger)? = carrier.elems[0].content else { Issue.record("no merger"); return }
        #expect(merger.unknownFields.bytes == [0x80, 0x7D, 0x05])
        // The foreign field has no REST form: refused, or left out when loss is allowed.
        #expect(throws: IMWireError.matching(.notRepresentable)) { try carrier.timRESTUTF8Bytes() }
        let lossy = try carrier.timRESTString(options: TIMRESTEncodingOptions(allowsLossyConversion: true))
        #expect(lossy.contains(#"{"Title":"t","MsgNum":0,"#))
    }

    /// `binary` (a message whose first elem is a merger with only a title "t") with `extra` appended
    /// to the merger's body.
    private func spliceIntoFirstMerger(_ binary: [UInt8], _ extra: [UInt8]) -> [UInt8] {
        // 52 L1 (elems) 52 L2 (merger) 0a 01 74 — one-byte lengths throughout.
        #expect(binary == [0x52, 0x05, 0x52, 0x03, 0x0A, 0x01, 0x74])
        let n = UInt8(extra.count)
        return [0x52, 0x05 + n, 0x52, 0x03 + n, 0x0A, 0x01, 0x74] + extra
    }

    // MARK: - What REST cannot carry

    static let lossyCases: [(String, Message)] = [
        ("timestamp_ms", Message(timestampMs: 1_700_000_000_123, elems: [.text("x")])),
        ("elems[0].sound.format", Message(elems: [.sound(SoundElem(uuid: "s", format: "m4a"))])),
        ("elems[0].image.images[1].uuid", Message(elems: [.image(ImageElem(images: [
            Image(type: .origin, uuid: "a"), Image(type: .thumb, uuid: "b")]))])),
        ("elems[0].merger.layers_over_limit", Message(elems: [.merger(MergerElem(layersOverLimit: true))])),
        ("offline_push_info.ios_push_type", Message(elems: [.text("x")], offlinePushInfo: OfflinePushInfo(iosPushType: .voip))),
    ]

    @Test(arguments: lossyCases.map(\.0))
    func fieldLevelLossIsAnErrorUnlessAllowed(_ path: String) throws {
        let message = Self.lossyCases.first { $0.0 == path }!.1
        do {
            _ = try message.timRESTUTF8Bytes()
            Issue.record("no error")
        } catch {
            #expect(error.code == .notRepresentable)
            #expect(error.path == path)
        }
        let rest = try message.timRESTString(options: TIMRESTEncodingOptions(allowsLossyConversion: true))
        let back = try Message(timRESTString: rest)
        #expect(back != message)
        #expect(!rest.contains("m4a") && !rest.contains("\"b\""))
    }

    @Test func lossyConversionKeepsTheWholeSecondsAndTheFirstImageUUID() throws {
        let lossy = TIMRESTEncodingOptions(allowsLossyConversion: true)
        #expect(try Message(timestampMs: 1_700_000_000_999, elems: []).timRESTString(options: lossy).contains("\"MsgTimeStamp\":1700000000,"))
        let image = Message(elems: [.image(ImageElem(images: [Image(type: .origin), Image(type: .thumb, uuid: "b")]))])
        #expect(try image.timRESTString(options: lossy).contains(#""UUID":"b""#))
    }

    static let alwaysRefused: [(String, Message)] = [
        ("elems[0].group_tips", Message(elems: [.groupTips(GroupTipsElem(type: .join))])),
        ("elems[0].group_system", Message(elems: [.groupSystem(GroupSystemElem(type: .deleteGroup))])),
        ("elems[0]", Message(elems: [Elem()])),
        ("elems[0].custom.data", Message(elems: [.custom(CustomElem(data: [0xFF]))])),
        ("cloud_custom_data", Message(elems: [], cloudCustomData: [0xC0, 0x80])),
        ("random", Message(random: 1 << 32, elems: [])),
        ("room_id", Message(target: .roomID("r"), elems: [])),
        ("targeted_receivers", Message(elems: [], targetedReceivers: ["a"])),
        ("elems[0].location.latitude", Message(elems: [.location(LocationElem(latitude: .nan))])),
    ]

    @Test(arguments: alwaysRefused.map(\.0))
    func wholeElemsInvalidBytesAndOutOfRangeNumbersAreRefusedEvenWhenLossIsAllowed(_ path: String) {
        let message = Self.alwaysRefused.first { $0.0 == path }!.1
        do {
            _ = try message.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(allowsLossyConversion: true))
            Issue.record("no error")
        } catch {
            #expect(error.code == .notRepresentable)
            #expect(error.path == path)
            #expect(error.description.hasPrefix("not_representable: "))
        }
    }

    @Test func unknownFieldsOfAMessageAreNotRepresentable() throws {
        let binary = try Message(elems: [.text("x")]).serializedBytes() + [0xA0, 0x06, 0x01]  // field 100 = 1
        let message = try Message(serializedBytes: binary)
        #expect(throws: IMWireError.matching(.notRepresentable)) { try message.timRESTUTF8Bytes() }
        let lossy = try message.timRESTString(options: TIMRESTEncodingOptions(allowsLossyConversion: true))
        #expect(lossy == #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}"#)
    }

    // MARK: - Errors and limits

    @Test func valueErrorsCarryTheRESTPathAndSyntaxErrorsTheOffset() {
        do {
            _ = try Message(timRESTString: #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":1}}]}"#)
        } catch {
            #expect(error.path == "MsgBody[0].MsgContent.Text" && error.offset == nil)
            #expect(error.description == "invalid_value: \"Text\" must be a string, found the number 1 (at MsgBody[0].MsgContent.Text)")
        }
        do {
            _ = try Message(timRESTString: #"{"MsgBody": [}"#)
        } catch {
            #expect(error.code == .jsonSyntax && error.offset == 13 && error.path == nil)
        }
    }

    @Test func inputLargerThanTheLimitIsRefused() {
        let options = TIMRESTDecodingOptions(maxInputSize: 10)
        #expect(throws: IMWireError.matching(.inputTooLarge)) {
            try Message(timRESTString: #"{"MsgBody":[]}  "#, options: options)
        }
    }

    @Test func theDepthLimitIsAnOption() throws {
        let oneRelay = #"{"MsgBody":[{"MsgType":"TIMRelayElem","MsgContent":{"MsgList":[{"MsgBody":[]}]}}]}"#
        // Message 1, elem 2, relay content 3, inner message 4.
        #expect(throws: IMWireError.matching(.depthLimitExceeded)) {
            try Message(timRESTString: oneRelay, options: TIMRESTDecodingOptions(maxDepth: 3))
        }
        _ = try Message(timRESTString: oneRelay, options: TIMRESTDecodingOptions(maxDepth: 4))
    }

    static func nestedMerger(layers: Int) -> Message {
        var message = Message(elems: [.text("x")])
        for _ in 0..<layers { message = Message(elems: [.merger(MergerElem(messages: [message]))]) }
        return message
    }

    @Test func theEncoderRefusesModelsDeeperThanItsLimit() throws {
        let deep = Self.nestedMerger(layers: 110)
        #expect(throws: IMWireError.matching(.depthLimitExceeded)) { try deep.timRESTUTF8Bytes() }
        let rest = try deep.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(maxDepth: 400))
        #expect(try Message(timRESTUTF8Bytes: rest, options: TIMRESTDecodingOptions(maxDepth: 400)) == deep)
    }

    /// The stack the deep-input test runs on: a 512 KiB server worker in optimised builds
    /// (the Reliability article (IMWire.docc)); unoptimised code has larger frames (see DepthLimitTests).
    static let workerStackSize: Int = {
        #if DEBUG
        8 * 1024 * 1024
        #else
        512 * 1024
        #endif
    }()

    @Test(arguments: [100, 105, 106, 107, 300, 5000])
    func deepRelayInputIsDecodedOrRefusedWithoutOverflowingAWorkerStack(layers: Int) {
        var text = #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}"#
        for _ in 0..<layers {
            text = #"{"MsgBody":[{"MsgType":"TIMRelayElem","MsgContent":{"MsgList":["# + text + "]}}]}"
        }
        let input = text
        let outcome = runOnThread(stackSize: Self.workerStackSize) { () -> String in
            do {
                let message = try Message(timRESTString: input)
                return try message.timRESTString() == input.replacingOccurrences(of: "{\"MsgList\"", with: #"{"Title":"","MsgNum":1,"CompatibleText":"","AbstractList":[],"MsgList""#)
                    ? "decoded" : "differs"
            } catch let error as IMWireError {
                return error.code.name
            } catch {
                return "unexpected \(error)"
            }
        }
        // Root message 1, then 3 levels per relay; the innermost text content is level 3 × layers + 3.
        #expect(outcome == (layers * 3 + 3 <= BinaryDecodingOptions.defaultMaxDepth ? "decoded" : "depth_limit_exceeded"))
    }

    @Test func deepValuesOfIgnoredKeysAreBoundedToo() {
        let limit = 320 * 5 / 3 + 8
        @Sendable func input(_ depth: Int) -> String {
            #"{"MsgBody":[],"Future":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        }
        let outcome = runOnThread(stackSize: Self.workerStackSize) { () -> String in
            var report: [String] = []
            for depth in [limit, limit + 1, 100_000] {
                do {
                    _ = try Message(timRESTString: input(depth))
                    report.append("ok")
                } catch let error as IMWireError {
                    report.append(error.code.name)
                } catch {
                    report.append("unexpected \(error)")
                }
            }
            return report.joined(separator: ",")
        }
        #expect(outcome == "ok,depth_limit_exceeded,depth_limit_exceeded")
    }

    @Test func encodingTheDeepestAdmittedModelFitsAWorkerStack() {
        let outcome = runOnThread(stackSize: DepthLimitTests.workerStackSize) { () -> String in
            let model = TIMRESTTests.nestedMerger(layers: 105)
            do {
                return try model.timRESTUTF8Bytes().isEmpty ? "empty" : "encoded"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome == "encoded")
    }
}
