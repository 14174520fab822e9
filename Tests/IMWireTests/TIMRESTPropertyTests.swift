// Property tests of the tim-rest dialect (the TimRest article (IMWire.docc)): REST-representable messages round-trip
// model → REST → model exactly; any message either encodes and round-trips or is refused with a
// typed error (never a silent drop); damaged REST text never crashes the decoder.
//
// Iteration counts: each test's default below, or IMWIRE_PROPERTY_ITERATIONS for all of them. A failure
// prints the input and a `.fixedSeed(...)` trait that reproduces it.

import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

@Suite("tim-rest properties")
struct TIMRESTPropertyTests {
    @Test func restRepresentableMessagesRoundTripExactly() async {
        let input = IMWireGen.model(MessageGenerationOptions.full.withoutUnknownFields()) { generator in
            TIMRESTRepresentable.project(generator.message())
        }
        await propertyCheck(count: PropertyIterations.count(default: 1000), input: input) { message in
            do {
                let rest = try message.timRESTUTF8Bytes()
                let decoded = try Message(timRESTUTF8Bytes: rest)
                #expect(try decoded.serializedBytes() == message.serializedBytes(), "\(String(decoding: rest, as: UTF8.self))")
                // The canonical form is a fixed point.
                #expect(try decoded.timRESTUTF8Bytes() == rest)
                let pretty = try message.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(prettyPrinted: true))
                #expect(try Message(timRESTUTF8Bytes: pretty).serializedBytes() == message.serializedBytes())
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func anyMessageIsEitherRefusedWithATypedErrorOrRoundTripsExactly() async {
        await propertyCheck(count: PropertyIterations.count(default: 1000), input: IMWireGen.message()) { message in
            let rest: [UInt8]
            do {
                rest = try message.timRESTUTF8Bytes()
            } catch let error as IMWireError {
                #expect(error.code == .notRepresentable || error.code == .depthLimitExceeded, "\(error)")
                return
            } catch {
                Issue.record("untyped error \(error)")
                return
            }
            do {
                let decoded = try Message(timRESTUTF8Bytes: rest)
                #expect(try decoded.serializedBytes() == message.serializedBytes(), "\(String(decoding: rest, as: UTF8.self))")
            } catch {
                Issue.record("our own tim-rest does not decode: \(error)\n\(String(decoding: rest, as: UTF8.self))")
            }
        }
    }

    @Test func lossyEncodingOfARepresentableShapeAlwaysSucceeds() async {
        // With loss allowed, only whole elems REST has no element for, bytes that are not UTF-8,
        // non-finite doubles, randoms above 32 bits and impossible targets still fail.
        let input = IMWireGen.model { generator in
            var message = TIMRESTRepresentable.project(generator.message(), keepingFieldLevelLoss: true)
            message.unknownFields = generator.message().unknownFields
            return message
        }
        await propertyCheck(count: PropertyIterations.count(default: 500), input: input) { message in
            do {
                let rest = try message.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(allowsLossyConversion: true))
                _ = try Message(timRESTUTF8Bytes: rest)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func damagedTIMRESTNeverCrashesTheDecoder() async {
        let input = IMWireGen.model(.small) { generator -> ([UInt8], Int, UInt8) in
            let message = TIMRESTRepresentable.project(generator.message())
            let rest = (try? message.timRESTUTF8Bytes()) ?? []
            let position = rest.isEmpty ? 0 : generator.rng.int(0...rest.count - 1)
            return (rest, position, generator.rng.pick([0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x30, 0x2D, 0xFF, 0x00]))
        }
        await propertyCheck(count: PropertyIterations.count(default: 1000), input: input) { rest, position, byte in
            guard !rest.isEmpty else { return }
            var replaced = rest
            replaced[position] = byte
            for damaged in [Array(rest[..<position]), replaced, Array(rest[..<position] + rest[(position + 1)...])] {
                do {
                    _ = try Message(timRESTUTF8Bytes: damaged)
                } catch let error as IMWireError {
                    #expect(!error.reason.isEmpty)
                } catch {
                    Issue.record("untyped error \(error)")
                }
            }
        }
    }
}

/// Makes a generated message representable in tim-rest by changing what REST cannot carry.
enum TIMRESTRepresentable {
    /// `message` with: room targets as groups, no signal, targeted receivers and a topic only next
    /// to a group, the random cut to 32 bits, whole-second timestamps, bytes that are not UTF-8
    /// replaced by their repaired UTF-8, group tips / group system / unknown elem kinds replaced by
    /// text, non-finite doubles zeroed, one UUID per image elem, no sound format, no
    /// layers-over-limit, APNs pushes, no barrage flag, no unknown fields. With
    /// `keepingFieldLevelLoss`, the last six (which the lossy option drops) are left as generated.
    static func project(_ message: Message, keepingFieldLevelLoss: Bool = false) -> Message {
        var message = message
        if case .roomID(let room)? = message.target { message.target = .groupID(room) }
        message.signal = nil
        if case .groupID? = message.target {} else { message.topicID = "" }
        if case .groupID? = message.target {} else { message.targetedReceivers = [] }
        message.random &= 0xFFFF_FFFF
        message.cloudCustomData = repaired(message.cloudCustomData)
        message.atUserList = message.atUserList.map { Message.isAtAllUserID($0) ? Message.atAllUserID : $0 }
        message.elems = message.elems.map { elem($0, keepingFieldLevelLoss) }
        if !keepingFieldLevelLoss {
            message.timestampMs -= message.timestampMs % 1000
            message.barrage = false
            message.unknownFields = UnknownFields()
            message.offlinePushInfo?.iosPushType = .apns
            message.offlinePushInfo?.unknownFields = UnknownFields()
        }
        return message
    }

    private static func repaired(_ bytes: [UInt8]) -> [UInt8] {
        Array(String(decoding: bytes, as: UTF8.self).utf8)
    }

    private static func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }

    private static func elem(_ elem: Elem, _ keepingFieldLevelLoss: Bool) -> Elem {
        var content: Elem.Content
        switch elem.content {
        case nil, .groupTips?, .groupSystem?:
            content = .text(TextElem(text: "was not representable"))
        case .custom(var custom)?:
            custom.data = repaired(custom.data)
            content = .custom(custom)
        case .face(var face)?:
            face.data = repaired(face.data)
            content = .face(face)
        case .location(var location)?:
            location.latitude = finite(location.latitude)
            location.longitude = finite(location.longitude)
            content = .location(location)
        case .sound(var sound)?:
            if !keepingFieldLevelLoss { sound.format = "" }
            content = .sound(sound)
        case .image(var image)?:
            if !keepingFieldLevelLoss, let uuid = image.images.first?.uuid {
                for index in image.images.indices { image.images[index].uuid = uuid }
            }
            content = .image(image)
        case .merger(var merger)?:
            merger.messages = merger.messages.map { project($0, keepingFieldLevelLoss: keepingFieldLevelLoss) }
            if !keepingFieldLevelLoss { merger.layersOverLimit = false }
            content = .merger(merger)
        case let other?:
            content = other
        }
        var result = Elem(content: content)
        if keepingFieldLevelLoss { result.unknownFields = elem.unknownFields } else { result = withoutUnknownFields(result) }
        return result
    }

    private static func withoutUnknownFields(_ elem: Elem) -> Elem {
        var elem = elem
        elem.unknownFields = UnknownFields()
        switch elem.content {
        case .text(var value)?: value.unknownFields = UnknownFields(); elem.content = .text(value)
        case .custom(var value)?: value.unknownFields = UnknownFields(); elem.content = .custom(value)
        case .image(var value)?:
            value.unknownFields = UnknownFields()
            for index in value.images.indices { value.images[index].unknownFields = UnknownFields() }
            elem.content = .image(value)
        case .sound(var value)?: value.unknownFields = UnknownFields(); elem.content = .sound(value)
        case .video(var value)?: value.unknownFields = UnknownFields(); elem.content = .video(value)
        case .file(var value)?: value.unknownFields = UnknownFields(); elem.content = .file(value)
        case .location(var value)?: value.unknownFields = UnknownFields(); elem.content = .location(value)
        case .face(var value)?: value.unknownFields = UnknownFields(); elem.content = .face(value)
        case .merger(var value)?: value.unknownFields = UnknownFields(); elem.content = .merger(value)
        case .groupTips?, .groupSystem?, nil: break
        }
        return elem
    }
}
