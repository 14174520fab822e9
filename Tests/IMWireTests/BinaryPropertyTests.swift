// Property tests of the binary codec (the BinaryAndJSON article (IMWire.docc)): round trips, the canonical fixed point, unknown
// fields, robustness against truncated and corrupted input, and merging (agreement with protobuf-c:
// IMWirePeerTests/ProtobufCPropertyTests.swift).
//
// Iteration counts: each test's default below, or IMWIRE_PROPERTY_ITERATIONS for all of them. A failure
// prints the input and a `.fixedSeed(...)` trait that reproduces it; failure comments carry the bytes in hex.

import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

@Suite("Binary codec properties")
struct BinaryPropertyTests {
    // MARK: Round trips

    @Test func decodingTheEncodingOfAnyMessageGivesTheSameMessage() async {
        await propertyCheck(count: PropertyIterations.count(default: 2000), input: IMWireGen.message()) { message in
            let encoded: [UInt8]
            do { encoded = try message.serializedBytes() } catch {
                Issue.record("encoding failed: \(error)")
                return
            }
            do {
                let decoded = try Message(serializedBytes: encoded)
                #expect(decoded == message, "bytes: \(TestWire.hex(encoded))")
            } catch {
                Issue.record("decoding our own encoding failed: \(error); bytes: \(TestWire.hex(encoded))")
            }
        }
    }

    @Test func reencodingCanonicalBytesReproducesThemExactly() async {
        await propertyCheck(count: PropertyIterations.count(default: 2000), input: IMWireGen.message()) { message in
            do {
                let canonical = try message.serializedBytes()
                let reencoded = try Message(serializedBytes: canonical).serializedBytes()
                #expect(reencoded == canonical, "canonical: \(TestWire.hex(canonical))")
                // Deterministic: encoding the same value again gives the same bytes.
                #expect(try message.serializedBytes() == canonical)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func unknownFieldsAppendedToAMessageAreKeptAndReemittedAfterKnownFields() async {
        await propertyCheck(count: PropertyIterations.count(default: 2000), input: IMWireGen.messageAndUnknownFields()) {
            message, unknown in
            do {
                let canonical = try message.serializedBytes()
                let input = canonical + unknown
                let decoded = try Message(serializedBytes: input)
                #expect(decoded.unknownFields.bytes == message.unknownFields.bytes + unknown, "input: \(TestWire.hex(input))")
                // The canonical form of "m plus unknown U" is encode(m) + U: known fields, then unknown ones.
                #expect(try decoded.serializedBytes() == input, "input: \(TestWire.hex(input))")
                var withoutUnknown = decoded
                withoutUnknown.unknownFields = message.unknownFields
                #expect(withoutUnknown == message, "input: \(TestWire.hex(input))")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func unknownFieldsInsideAnEmbeddedElemOrTextElemStayThereAndAreReemitted() async {
        let input = IMWireGen.model { generator in
            var message = generator.message()
            if message.elems.isEmpty || generator.rng.chance(0.5) {
                message.elems.insert(Elem(content: .text(generator.text())), at: 0)
            }
            return (message, generator.unknownFields(count: 1...3))
        }
        await propertyCheck(count: PropertyIterations.count(default: 1000), input: input) { message, unknown in
            do {
                let canonical = try message.serializedBytes()

                // Into the first elem (Message.elems = 10).
                guard let intoElem = TestWire.appendingToEmbeddedMessage(canonical, path: [10], extra: unknown) else {
                    Issue.record("no elem in \(TestWire.hex(canonical))")
                    return
                }
                let decoded = try Message(serializedBytes: intoElem)
                #expect(decoded.elems.first?.unknownFields.bytes == message.elems[0].unknownFields.bytes + unknown)
                #expect(decoded.elems.dropFirst() == message.elems.dropFirst())
                #expect(decoded.elems.first?.content == message.elems[0].content)
                #expect(try decoded.serializedBytes() == intoElem, "input: \(TestWire.hex(intoElem))")

                // Into the text elem inside it (Elem.text = 1).
                guard case .text(let text)? = message.elems[0].content else { return }
                guard let intoText = TestWire.appendingToEmbeddedMessage(canonical, path: [10, 1], extra: unknown) else {
                    Issue.record("no text elem in \(TestWire.hex(canonical))")
                    return
                }
                let decodedText = try Message(serializedBytes: intoText)
                guard case .text(let textAfter)? = decodedText.elems.first?.content else {
                    Issue.record("text elem lost: \(TestWire.hex(intoText))")
                    return
                }
                #expect(textAfter.text == text.text)
                #expect(textAfter.unknownFields.bytes == text.unknownFields.bytes + unknown)
                #expect(decodedText.elems[0].unknownFields == message.elems[0].unknownFields)
                #expect(try decodedText.serializedBytes() == intoText, "input: \(TestWire.hex(intoText))")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    // MARK: Hostile input

    @Test func decodingAnyPrefixOfAnEncodingNeverCrashesAndCutsInsideAFieldThrowTruncated() async {
        await propertyCheck(count: PropertyIterations.count(default: 500), input: IMWireGen.message(.small)) { message in
            let encoded: [UInt8]
            do { encoded = try message.serializedBytes() } catch {
                Issue.record("encoding failed: \(error)")
                return
            }
            guard let fields = TestWire.fields(encoded[...]) else {
                Issue.record("our encoding is not well-formed: \(TestWire.hex(encoded))")
                return
            }
            let boundaries = Set([0] + fields.map(\.end))
            let groups = fields.filter { $0.wireType == TestWire.startGroup }

            var lengths = Array(0...encoded.count)
            if encoded.count > 800 {
                var rng = TestRandom(seed: UInt64(encoded.count))
                lengths = Array(boundaries) + (0..<400).map { _ in rng.int(0...encoded.count) }
            }
            for length in lengths {
                let prefix = Array(encoded[..<length])
                do throws(IMWireError) {
                    let decoded = try Message(serializedBytes: prefix)
                    // Every cut inside a top-level field leaves a length, varint or fixed value unfinished.
                    #expect(boundaries.contains(length), "a prefix cut inside a field decoded: \(TestWire.hex(prefix))")
                    expectFixedPoint(decoded, input: prefix)
                } catch {
                    #expect(!boundaries.contains(length), "a prefix of whole fields failed with \(error): \(TestWire.hex(prefix))")
                    let insideGroup = groups.contains { $0.start < length && length < $0.end }
                    let allowed: [IMWireError.Code] =
                        insideGroup ? [.truncated, .lengthOutOfBounds, .malformedGroup] : [.truncated, .lengthOutOfBounds]
                    #expect(allowed.contains(error.code), "\(error) for prefix \(TestWire.hex(prefix))")
                    #expect(error.offset.map { (0...length).contains($0) } == true, "\(error) for prefix \(TestWire.hex(prefix))")
                }
            }
        }
    }

    @Test func decodingCorruptedBytesThrowsOrGivesAMessageThatReencodesToAFixedPoint() async {
        let input = IMWireGen.corruptedEncoding()
        await propertyCheck(count: PropertyIterations.count(default: 10000), input: input) { corrupted in
            do throws(IMWireError) {
                let decoded = try Message(serializedBytes: corrupted)
                expectFixedPoint(decoded, input: corrupted)
            } catch {
                #expect(error.offset.map { (0...corrupted.count).contains($0) } ?? true, "\(error) for \(TestWire.hex(corrupted))")
            }
        }
    }

    // MARK: Merging

    @Test func decodingConcatenatedEncodingsMergesTheMessages() async {
        let input = IMWireGen.model(.small) { generator in (generator.message(), generator.message()) }
        await propertyCheck(count: PropertyIterations.count(default: 1000), input: input) { first, second in
            do {
                let concatenated = try first.serializedBytes() + second.serializedBytes()
                let decoded = try Message(serializedBytes: concatenated)
                let expected = try ProtoMerge.merged(first, second)
                #expect(decoded == expected, "input: \(TestWire.hex(concatenated))")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func decodingAnElemWhoseContentOccursTwiceMergesTheSameMemberAndReplacesAnother() async {
        let input = IMWireGen.model(MessageGenerationOptions.full.withoutUnknownFields()) { generator in
            func content(_ generator: inout ModelGenerator) -> Elem.Content? {
                switch generator.rng.int(0...4) {
                case 0: return nil
                case 1: return .text(generator.text())
                case 2: return .custom(generator.custom())
                case 3: return .location(generator.location())
                default: return .face(generator.face())
                }
            }
            return (Elem(content: content(&generator)), Elem(content: content(&generator)))
        }
        await propertyCheck(count: PropertyIterations.count(default: 2000), input: input) { first, second in
            do {
                // One elem on the wire whose body is the two elems' bodies back to back.
                let body = try elemBody(first) + elemBody(second)
                let bytes = TestWire.lengthDelimited(10, body)
                let decoded = try Message(serializedBytes: bytes)
                let expected = ProtoMerge.merged(first.content, second.content)
                #expect(decoded.elems.count == 1, "input: \(TestWire.hex(bytes))")
                #expect(decoded.elems.first?.content == expected, "input: \(TestWire.hex(bytes))")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}

// MARK: - Helpers

/// The body of an elem's encoding (without the tag and length it has inside a message).
private func elemBody(_ elem: Elem) throws(IMWireError) -> [UInt8] {
    let encoded = try Message(elems: [elem]).serializedBytes()
    guard let field = TestWire.fields(encoded[...])?.first else { return [] }
    return Array(encoded[field.valueStart..<field.end])
}

/// decode(encode(decoded)) == decoded, and encoding that again gives the same bytes.
private func expectFixedPoint(_ decoded: Message, input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let reencoded = try decoded.serializedBytes()
        let again = try Message(serializedBytes: reencoded)
        #expect(again == decoded, "not a fixed point; input: \(TestWire.hex(input))", sourceLocation: sourceLocation)
        #expect(
            try again.serializedBytes() == reencoded, "re-encoding is not stable; input: \(TestWire.hex(input))",
            sourceLocation: sourceLocation)
    } catch {
        Issue.record("re-encoding a decoded message failed: \(error); input: \(TestWire.hex(input))", sourceLocation: sourceLocation)
    }
}

/// The protobuf merge of two messages (what parsing their concatenation gives): scalars, strings and
/// bytes take the second value unless it is the default, the oneof takes the second member if set,
/// repeated fields append, the optional sub-message merges field by field, unknown fields append.
enum ProtoMerge {
    static func merged(_ a: Message, _ b: Message) throws(IMWireError) -> Message {
        var result = a
        if !b.msgID.isEmpty { result.msgID = b.msgID }
        if !b.sender.isEmpty { result.sender = b.sender }
        if let target = b.target { result.target = target }
        if b.timestampMs != 0 { result.timestampMs = b.timestampMs }
        if b.seq != 0 { result.seq = b.seq }
        if b.random != 0 { result.random = b.random }
        if b.priority.rawValue != 0 { result.priority = b.priority }
        result.elems += b.elems
        result.atUserList += b.atUserList
        result.targetedReceivers += b.targetedReceivers
        if !b.cloudCustomData.isEmpty { result.cloudCustomData = b.cloudCustomData }
        if let push = b.offlinePushInfo {
            result.offlinePushInfo = try a.offlinePushInfo.map { (first) throws(IMWireError) in try merged(first, push) } ?? push
        }
        result.needReadReceipt = a.needReadReceipt || b.needReadReceipt
        result.excludedFromUnreadCount = a.excludedFromUnreadCount || b.excludedFromUnreadCount
        result.excludedFromLastMessage = a.excludedFromLastMessage || b.excludedFromLastMessage
        result.onlineUserOnly = a.onlineUserOnly || b.onlineUserOnly
        result.supportMessageExtension = a.supportMessageExtension || b.supportMessageExtension
        if !b.topicID.isEmpty { result.topicID = b.topicID }
        result.barrage = a.barrage || b.barrage
        result.signal = merged(a.signal, b.signal)
        // Unknown fields can only be made by decoding: a message of nothing but unknown fields.
        result.unknownFields = try Message(serializedBytes: a.unknownFields.bytes + b.unknownFields.bytes).unknownFields
        return result
    }

    /// The oneof: the same member merges, another member (or none before it) is replaced.
    /// Covers the members the test generates: text, custom, location and face, without unknown fields.
    static func merged(_ a: Elem.Content?, _ b: Elem.Content?) -> Elem.Content? {
        switch (a, b) {
        case (_, nil): return a
        case (.text(var x)?, .text(let y)?):
            if !y.text.isEmpty { x.text = y.text }
            return .text(x)
        case (.custom(var x)?, .custom(let y)?):
            if !y.data.isEmpty { x.data = y.data }
            if !y.desc.isEmpty { x.desc = y.desc }
            if !y.ext.isEmpty { x.ext = y.ext }
            if !y.sound.isEmpty { x.sound = y.sound }
            return .custom(x)
        case (.location(var x)?, .location(let y)?):
            if !y.desc.isEmpty { x.desc = y.desc }
            if y.longitude.bitPattern != 0 { x.longitude = y.longitude }
            if y.latitude.bitPattern != 0 { x.latitude = y.latitude }
            return .location(x)
        case (.face(var x)?, .face(let y)?):
            if y.index != 0 { x.index = y.index }
            if !y.data.isEmpty { x.data = y.data }
            return .face(x)
        default: return b
        }
    }

    /// The signal oneof: the same member merges field by field, another member (or none before it)
    /// is replaced. The generator gives signals no unknown fields.
    static func merged(_ a: Message.Signal?, _ b: Message.Signal?) -> Message.Signal? {
        switch (a, b) {
        case (_, nil): return a
        case (.recallNotice(var x)?, .recallNotice(let y)?):
            if !y.msgID.isEmpty { x.msgID = y.msgID }
            if !y.recalledBy.isEmpty { x.recalledBy = y.recalledBy }
            if !y.reason.isEmpty { x.reason = y.reason }
            return .recallNotice(x)
        case (.groupReadReceipt(var x)?, .groupReadReceipt(let y)?):
            if !y.msgID.isEmpty { x.msgID = y.msgID }
            if y.readCount != 0 { x.readCount = y.readCount }
            if y.unreadCount != 0 { x.unreadCount = y.unreadCount }
            return .groupReadReceipt(x)
        case (.c2cReadReceipt(var x)?, .c2cReadReceipt(let y)?):
            if !y.userID.isEmpty { x.userID = y.userID }
            if y.readTimestampMs != 0 { x.readTimestampMs = y.readTimestampMs }
            return .c2cReadReceipt(x)
        default: return b
        }
    }

    static func merged(_ a: OfflinePushInfo, _ b: OfflinePushInfo) throws(IMWireError) -> OfflinePushInfo {
        var result = a
        if !b.title.isEmpty { result.title = b.title }
        if !b.desc.isEmpty { result.desc = b.desc }
        if !b.ext.isEmpty { result.ext = b.ext }
        result.disablePush = a.disablePush || b.disablePush
        if !b.iosSound.isEmpty { result.iosSound = b.iosSound }
        if !b.androidSound.isEmpty { result.androidSound = b.androidSound }
        result.ignoreIOSBadge = a.ignoreIOSBadge || b.ignoreIOSBadge
        if b.iosPushType.rawValue != 0 { result.iosPushType = b.iosPushType }
        if !b.iosTitle.isEmpty { result.iosTitle = b.iosTitle }
        if !b.iosSubtitle.isEmpty { result.iosSubtitle = b.iosSubtitle }
        if !b.iosImage.isEmpty { result.iosImage = b.iosImage }
        result.iosMutableContent = a.iosMutableContent || b.iosMutableContent
        let unknown = a.unknownFields.bytes + b.unknownFields.bytes
        let carrier = try Message(serializedBytes: TestWire.lengthDelimited(14, unknown))
        result.unknownFields = carrier.offlinePushInfo?.unknownFields ?? UnknownFields()
        return result
    }
}
