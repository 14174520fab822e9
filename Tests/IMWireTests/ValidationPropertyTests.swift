// Property tests of validation: for every numeric limit, messages measuring just under,
// exactly at and just over the limit — strings made of random 1- to 4-byte UTF-8 scalars where the
// limit is in bytes, of random 1- and 2-unit UTF-16 scalars where it is in code units — are valid
// exactly up to the limit and report exactly one violation, with the measured value, past it.
// Encoding and decoding (binary and JSON) never changes what validation reports.
//
// Iteration counts: 100 per limit by default (each iteration checks limit - 1, limit, limit + 1 and
// one value further away), a fifth of that for the limits whose messages are big (12 KB and 32 KB
// strings, 300 merged messages, 100 merger layers); IMWIRE_PROPERTY_ITERATIONS sets them all. A
// failure prints the seed and a `.fixedSeed(...)` trait that reproduces it.

import IMWire
import IMWireTestSupport
import PropertyBased
import Testing

@Suite("Validation properties")
struct ValidationPropertyTests {
    @Test(arguments: LimitBoundary.all)
    func validityFlipsExactlyAtTheLimit(_ boundary: LimitBoundary) async {
        await propertyCheck(count: boundary.iterations, input: Gen.uint64()) { seed in
            var random = TestRandom(seed: seed)
            let limit = boundary.limit
            // Just under, at and just over every time, and once a little further away on one side.
            let further = random.chance(0.5)
                ? limit - 1 - random.int(0...max(0, min(boundary.spread, limit) - 1))
                : limit + 1 + random.int(0...boundary.spread)
            for n in [limit - 1, limit, limit + 1, further] where n >= 0 {
                let message = boundary.build(n, &random)
                let violations = message.validate(profile: boundary.profile)
                if n <= limit {
                    #expect(violations.isEmpty, "\(boundary.name) at \(n): \(violations)")
                } else {
                    #expect(violations.map(\.code) == [boundary.code], "\(boundary.name) at \(n): \(violations)")
                    #expect(violations.first?.limit == .integer(UInt64(limit)))
                    #expect(violations.first?.actual == .integer(UInt64(n)))
                }
            }
        }
    }

    @Test(arguments: LimitBoundary.all)
    func encodingAndDecodingDoesNotChangeTheViolations(_ boundary: LimitBoundary) async {
        await propertyCheck(count: boundary.iterations, input: zip(Gen.uint64(), Gen.int(in: -2...2))) { seed, delta in
            var random = TestRandom(seed: seed)
            let message = boundary.build(max(0, boundary.limit + delta), &random)
            do {
                let binary = try Message(serializedBytes: message.serializedBytes())
                let json = try Message(jsonUTF8Bytes: message.jsonUTF8Bytes())
                for profile in ValidationProfile.presets {
                    let expected = message.validate(profile: profile)
                    #expect(binary.validate(profile: profile) == expected, "\(boundary.name) \(profile)")
                    #expect(json.validate(profile: profile) == expected, "\(boundary.name) \(profile)")
                }
            } catch {
                Issue.record("\(boundary.name) at \(boundary.limit + delta): \(error)")
            }
        }
    }

    @Test func anyMessageValidatesTheSameAfterABinaryRoundTrip() async {
        await propertyCheck(count: PropertyIterations.count(default: 300), input: IMWireGen.message()) { message in
            do {
                let decoded = try Message(serializedBytes: message.serializedBytes())
                for profile in ValidationProfile.presets {
                    #expect(decoded.validate(profile: profile) == message.validate(profile: profile))
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func aLocationIsValidExactlyWhenBothCoordinatesAreFiniteAndInRange() async {
        let edges: [Double] = [90, -90, 180, -180].flatMap { edge in
            (-3...3).map { steps in
                var value = edge
                for _ in 0..<abs(steps) { value = steps > 0 ? value.nextUp : value.nextDown }
                return value
            }
        }
        let specials: [Double] = [.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.leastNonzeroMagnitude, 0, -0.0]
        let pool = edges + specials
        let coordinate = Generator<Double, Shrink.None<Double>> { rng in
            Bool.random(using: &rng) ? pool.randomElement(using: &rng) ?? 0 : Double.random(in: -400...400, using: &rng)
        }
        await propertyCheck(count: PropertyIterations.count(default: 500), input: zip(coordinate, coordinate)) { longitude, latitude in
            let message = Message(elems: [.location(longitude: longitude, latitude: latitude)])
            var expected: [Violation.Code] = []
            if !(longitude.isFinite && abs(longitude) <= 180) { expected.append(.longitudeOutOfRange) }
            if !(latitude.isFinite && abs(latitude) <= 90) { expected.append(.latitudeOutOfRange) }
            for profile in ValidationProfile.presets {
                // ZIM has no location message: that comes first, at the elem.
                let kind: [Violation.Code] = profile.supportedElemKinds?.contains(.location) == false ? [.elemKindNotSupported] : []
                #expect(message.validate(profile: profile).map(\.code) == kind + expected, "(\(longitude), \(latitude))")
            }
        }
    }

    @Test func eachRepeatedImageTypeIsReportedOnceAtItsSecondImage() async {
        let types = Gen<ImageType?>.element(of: [ImageType.unspecified, .origin, .large, .thumb, .unrecognized(7)]).map { $0 ?? .origin }
        await propertyCheck(count: PropertyIterations.count(default: 300), input: types.array(of: 0...8)) { types in
            let images = types.enumerated().map { Image(type: $1, size: UInt64($0)) }
            let violations = Message(elems: [.image(ImageElem(format: .png, images: images))]).validate(profile: .none)
            var expectedPaths: [String] = []
            var seen: [ImageType: Int] = [:]
            for (index, type) in types.enumerated() {
                seen[type, default: 0] += 1
                if seen[type] == 2 { expectedPaths.append("elems[0].image.images[\(index)].type") }
            }
            #expect(violations.map(\.path) == expectedPaths, "\(types)")
            #expect(violations.allSatisfy { $0.code == .duplicateImageType })
            for violation in violations {
                guard case .integer(let count) = violation.actual else { Issue.record("\(violation)"); continue }
                #expect(count >= 2)
            }
        }
    }
}

// MARK: - Boundaries

/// One numeric limit of a profile and a way to build messages that measure exactly `n` for it and
/// meet every other rule of the profile.
struct LimitBoundary: Sendable, CustomTestStringConvertible {
    let name: String
    let profile: ValidationProfile
    let limit: Int
    let code: Violation.Code
    /// How far from the limit the "further away" values may go.
    let spread: Int
    /// Property iterations: 100, or 20 for limits whose messages are big; IMWIRE_PROPERTY_ITERATIONS
    /// overrides both.
    let iterations: Int
    let build: @Sendable (_ n: Int, _ random: inout TestRandom) -> Message

    var testDescription: String { name }

    init(_ name: String, _ profile: ValidationProfile, _ limit: Int?, _ code: Violation.Code, spread: Int = 16,
         big: Bool = false, build: @escaping @Sendable (_ n: Int, _ random: inout TestRandom) -> Message) {
        self.name = name
        self.profile = profile
        self.limit = limit ?? 0
        self.code = code
        self.spread = spread
        self.iterations = PropertyIterations.count(default: big ? 20 : 100)
        self.build = build
        precondition(limit != nil, "\(name): the profile sets no limit")
    }

    static let kilobyte = 1024
    static let megabyte = 1024 * 1024

    static let all: [LimitBoundary] = tencent + tencentSDK + zim

    /// The limits the SDK profile adds to the server's, and the server's limits held by it too.
    static let tencentSDK: [LimitBoundary] = {
        let p = ValidationProfile.tencentSDK
        return [
            LimitBoundary("tencent-sdk user ID (UTF-8 bytes)", p, p.maxUserIDBytes, .userIDTooLong) { n, random in
                random.messageWithUserID(random.string(utf8Count: n))
            },
            LimitBoundary("tencent-sdk custom elems after text", p, p.maxCustomElems, .tooManyCustomElems, spread: 3) { n, random in
                var elems: [Elem] = [.text("first")]
                for index in 0..<n { elems.insert(.custom(CustomElem(desc: "c\(index)")), at: random.int(1...elems.count)) }
                return Message(sender: "alice", target: .receiver("bob"), elems: elems)
            },
        ]
    }()

    static let tencent: [LimitBoundary] = {
        let p = ValidationProfile.tencent
        return [
            LimitBoundary("tencent content, summed over elems", p, p.maxContentBytes, .contentTooLarge, big: true) { n, random in
                var parts = random.split(n, into: 6)
                let elems: [Elem] = [
                    .text(random.string(utf8Count: parts.removeFirst())),
                    .custom(CustomElem(data: random.bytes(count: parts.removeFirst()), desc: random.string(utf8Count: parts.removeFirst()))),
                    .face(FaceElem(index: 1, data: random.bytes(count: parts.removeFirst()))),
                    .location(LocationElem(desc: random.string(utf8Count: parts.removeFirst()), longitude: 116.4, latitude: 39.9)),
                    .text(random.string(utf8Count: parts.removeFirst())),
                ]
                var message = Message(msgID: random.string(utf8Count: 20), sender: "alice", target: .groupID("g"), elems: elems)
                message.cloudCustomData = random.bytes(count: random.int(0...2000))  // envelope: not content
                message.offlinePushInfo = OfflinePushInfo(title: random.string(utf8Count: random.int(0...500)))
                return message
            },
            LimitBoundary("tencent content, merged messages included", p, p.maxContentBytes, .contentTooLarge, big: true) { n, random in
                var parts = random.split(n, into: 4)
                let inner = (0..<3).map { _ in
                    Message(msgID: random.string(utf8Count: 30), sender: random.string(utf8Count: random.int(0...32)),
                            target: .receiver("bob"), elems: [.text(random.string(utf8Count: parts.removeFirst()))])
                }
                let merger = MergerElem(title: random.string(utf8Count: parts.removeFirst()), messages: inner)
                return Message(sender: "alice", target: .receiver("bob"), elems: [.merger(merger)])
            },
            LimitBoundary("tencent merger messages", p, p.maxMergerMessages, .tooManyMergerMessages, big: true) { n, _ in
                let inner = (0..<n).map { Message(elems: [.text(String($0))]) }
                return Message(sender: "alice", target: .receiver("bob"), elems: [.merger(MergerElem(title: "t", messages: inner))])
            },
            LimitBoundary("tencent merger abstracts", p, p.maxMergerAbstracts, .tooManyMergerAbstracts, spread: 4) { n, random in
                let abstracts = (0..<n).map { _ in random.string(utf16Count: random.int(0...100)) }
                return Message(elems: [.merger(MergerElem(abstractList: abstracts, messages: [Message(elems: [.text("x")])]))])
            },
            LimitBoundary("tencent merger abstract length (UTF-16)", p, p.maxMergerAbstractLength, .mergerAbstractTooLong) { n, random in
                var abstracts = (0..<random.int(0...4)).map { _ in random.string(utf16Count: random.int(0...100)) }
                abstracts.insert(random.string(utf16Count: n), at: random.int(0...abstracts.count))
                return Message(elems: [.merger(MergerElem(abstractList: abstracts, messages: [Message(elems: [.text("x")])]))])
            },
            LimitBoundary("tencent merger layers", p, p.maxMergerLayers, .mergerNestingTooDeep, spread: 4, big: true) { n, random in
                var message = Message(sender: "bob", target: .receiver("alice"), elems: [.text(random.string(utf8Count: 5))])
                for _ in 0..<n {
                    message = Message(sender: "bob", target: .receiver("alice"), elems: [.merger(MergerElem(title: "m", messages: [message]))])
                }
                return message
            },
            LimitBoundary("tencent @ list, @all included", p, p.maxAtUsers, .tooManyAtUsers) { n, random in
                var users = (0..<n).map { "user_\($0)" }
                if n > 0 && random.chance(0.5) { users[random.int(0...n - 1)] = Message.atAllUserID }
                var message = Message(sender: "alice", target: .groupID("g"), elems: [.text("@")])
                message.atUserList = users
                return message
            },
            LimitBoundary("tencent targeted receivers", p, p.maxTargetedReceivers, .tooManyTargetedReceivers) { n, _ in
                var message = Message(sender: "alice", target: .groupID("g"), elems: [.text("psst")])
                message.targetedReceivers = (0..<n).map { "member_\($0)" }
                return message
            },
            LimitBoundary("tencent custom elems", p, p.maxCustomElems, .tooManyCustomElems, spread: 3) { n, random in
                var elems: [Elem] = [.text("first")]
                for index in 0..<n { elems.insert(.custom(CustomElem(desc: "c\(index)")), at: random.int(1...elems.count)) }
                return Message(sender: "alice", target: .receiver("bob"), elems: elems)
            },
            LimitBoundary("tencent image size", p, p.maxImageBytes, .imageTooLarge) { n, random in
                .init(sender: "alice", target: .receiver("bob"), elems: [.image(random.imageElem(format: .jpg, size: n, otherMax: 28 * megabyte))])
            },
            LimitBoundary("tencent sound size", p, p.maxSoundBytes, .soundTooLarge) { n, _ in
                .init(sender: "alice", target: .receiver("bob"), elems: [.sound(SoundElem(dataSize: UInt64(n), duration: 9999, format: "amr"))])
            },
            LimitBoundary("tencent video size", p, p.maxVideoBytes, .videoTooLarge) { n, _ in
                .init(sender: "alice", target: .receiver("bob"), elems: [.video(VideoElem(videoSize: UInt64(n), videoFormat: "mkv"))])
            },
            LimitBoundary("tencent file size", p, p.maxFileBytes, .fileTooLarge) { n, _ in
                .init(sender: "alice", target: .receiver("bob"), elems: [.file(FileElem(fileName: "f", fileSize: UInt64(n)))])
            },
            LimitBoundary("tencent user ID (UTF-8 bytes)", p, p.maxUserIDBytes, .userIDTooLong) { n, random in
                random.messageWithUserID(random.string(utf8Count: n))
            },
            LimitBoundary("tencent group name", p, p.maxGroupNameBytes, .groupNameTooLong) { n, random in
                let name = random.string(utf8Count: n)
                let tips = random.chance(0.5)
                    ? GroupTipsElem(type: .groupInfoChange, groupChangeList: [GroupChangeInfo(type: .name, value: name)])
                    : GroupTipsElem(type: .join, groupName: name)
                return Message(target: .groupID("g"), elems: [.groupTips(tips)])
            },
            LimitBoundary("tencent group introduction", p, p.maxGroupIntroductionBytes, .groupIntroductionTooLong) { n, random in
                random.groupInfoChange(.introduction, value: random.string(utf8Count: n))
            },
            LimitBoundary("tencent group notification", p, p.maxGroupNotificationBytes, .groupNotificationTooLong) { n, random in
                random.groupInfoChange(.notification, value: random.string(utf8Count: n))
            },
            LimitBoundary("tencent group face URL", p, p.maxGroupFaceURLBytes, .groupFaceURLTooLong) { n, random in
                random.groupInfoChange(.faceURL, value: random.string(utf8Count: n))
            },
        ]
    }()

    static let zim: [LimitBoundary] = {
        let p = ValidationProfile.zim
        return [
            LimitBoundary("zim text (UTF-8 bytes)", p, p.maxTextBytes, .textTooLarge, big: true) { n, random in
                // A ZIM Text message: to a peer, a group or a room (a room text without the barrage flag).
                Message(sender: "alice", target: random.pick([Message.Target.receiver("bob"), .groupID("g"), .roomID("r")]),
                        elems: [.text(random.string(utf8Count: n))])
            },
            LimitBoundary("zim barrage", p, p.maxBarrageBytes, .barrageTooLarge) { n, random in
                Message(sender: "alice", target: .roomID("r"), elems: [.text(random.string(utf8Count: n))], barrage: true)
            },
            LimitBoundary("zim custom data", p, p.maxCustomDataBytes, .customDataTooLarge) { n, random in
                Message(sender: "alice", target: .receiver("bob"),
                        elems: [.custom(CustomElem(data: random.bytes(count: n), desc: random.string(utf8Count: random.int(0...9000))))])
            },
            LimitBoundary("zim image size", p, p.maxImageBytes, .imageTooLarge) { n, random in
                let format = random.pick([ImageFormat.jpg, .png, .bmp, .tiff, .gif, .webp])
                return Message(sender: "alice", target: .receiver("bob"), elems: [.image(random.imageElem(format: format, size: n, otherMax: 10 * megabyte))])
            },
            LimitBoundary("zim sound size", p, p.maxSoundBytes, .soundTooLarge) { n, random in
                Message(sender: "alice", target: .receiver("bob"),
                        elems: [.sound(SoundElem(dataSize: UInt64(n), duration: UInt32(random.int(0...300)), format: random.pick(["mp3", "m4a", "MP3"])))])
            },
            LimitBoundary("zim sound duration", p, p.maxSoundSeconds, .soundTooLong) { n, random in
                Message(sender: "alice", target: .receiver("bob"),
                        elems: [.sound(SoundElem(dataSize: UInt64(random.int(0...6 * megabyte)), duration: UInt32(n), format: "m4a"))])
            },
            LimitBoundary("zim video size", p, p.maxVideoBytes, .videoTooLarge) { n, random in
                Message(sender: "alice", target: .receiver("bob"),
                        elems: [.video(VideoElem(videoSize: UInt64(n), videoFormat: random.pick(["mp4", "mov", "MOV"])))])
            },
            LimitBoundary("zim file size", p, p.maxFileBytes, .fileTooLarge) { n, _ in
                Message(sender: "alice", target: .receiver("bob"), elems: [.file(FileElem(fileSize: UInt64(n)))])
            },
            LimitBoundary("zim multiple items", p, p.maxElems, .tooManyElems, spread: 4) { n, random in
                Message(sender: "alice", target: .receiver("bob"), elems: random.zimChain(count: n, images: min(n, random.int(0...10))))
            },
            LimitBoundary("zim multiple images", p, p.maxImageElems, .tooManyImageElems, spread: 4) { n, random in
                Message(sender: "alice", target: .receiver("bob"),
                        elems: random.zimChain(count: n + random.int(0...max(0, 20 - n)), images: n))
            },
            LimitBoundary("zim multiple files", p, p.maxFileElems, .tooManyFileElems, spread: 2) { n, random in
                random.zimChain(repeating: .file(FileElem(fileSize: 1)), n)
            },
            LimitBoundary("zim multiple sounds", p, p.maxSoundElems, .tooManySoundElems, spread: 2) { n, random in
                random.zimChain(repeating: .sound(SoundElem(dataSize: 1, duration: 1, format: "mp3")), n)
            },
            LimitBoundary("zim multiple videos", p, p.maxVideoElems, .tooManyVideoElems, spread: 2) { n, random in
                random.zimChain(repeating: .video(VideoElem(videoSize: 1, videoFormat: "mp4")), n)
            },
            LimitBoundary("zim multiple customs", p, p.maxCustomElems, .tooManyCustomElems, spread: 2) { n, random in
                random.zimChain(repeating: .custom(CustomElem(data: [1])), n)
            },
            LimitBoundary("zim user ID (UTF-8 bytes)", p, p.maxUserIDBytes, .userIDTooLong) { n, random in
                let id = random.string(utf8Count: n)
                return random.chance(0.5)
                    ? Message(sender: id, target: .receiver("bob"), elems: [.text("hi")])
                    : Message(sender: "alice", target: .receiver(id), elems: [.text("hi")])
            },
        ]
    }()
}

// MARK: - Random content

extension TestRandom {
    /// A string of exactly `count` UTF-8 bytes made of random 1-, 2-, 3- and 4-byte scalars
    /// (ASCII, Latin and combining marks, CJK and other BMP text, emoji and other astral scalars).
    mutating func string(utf8Count count: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let length = int(1...min(4, count - bytes.count))
            let value: UInt32
            switch length {
            case 1: value = UInt32(int(0x20...0x7E))
            case 2: value = UInt32(int(0x80...0x7FF))
            case 3: value = UInt32(chance(0.5) ? int(0x4E00...0x9FFF) : int(0xE000...0xFFFD))
            default: value = UInt32(chance(0.5) ? int(0x1F300...0x1FAFF) : int(0x10000...0x10FFFF))
            }
            // Scalars in these ranges are never surrogates, so their UTF-8 is `length` bytes.
            if let scalar = Unicode.Scalar(value) { bytes.append(contentsOf: UTF8.encode(scalar)!) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A string of exactly `count` UTF-16 code units: BMP scalars (one unit; 1 to 3 UTF-8 bytes) and
    /// astral scalars such as emoji (a surrogate pair; 4 UTF-8 bytes).
    mutating func string(utf16Count count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        var remaining = count
        while remaining > 0 {
            let units = int(1...min(2, remaining))
            let value = units == 2 ? int(0x1F300...0x1FAFF) : pick([int(0x20...0x7E), int(0x300...0x36F), int(0x4E00...0x9FFF)])
            scalars.append(Unicode.Scalar(UInt32(value)) ?? "?")
            remaining -= units
        }
        return String(scalars)
    }

    /// `total` split into `parts` random non-negative parts.
    mutating func split(_ total: Int, into parts: Int) -> [Int] {
        var cuts = (0..<parts - 1).map { _ in int(0...total) }.sorted()
        cuts.insert(0, at: 0)
        cuts.append(total)
        return (0..<parts).map { cuts[$0 + 1] - cuts[$0] }
    }

    /// An image elem with one Image (of a random type) of `size` bytes and up to two more, of other
    /// types, no larger than `otherMax`.
    mutating func imageElem(format: ImageFormat, size: Int, otherMax: Int) -> ImageElem {
        var types = [ImageType.origin, .large, .thumb]
        types.shuffle(using: &self)
        var images = [Image(type: types[0], size: UInt64(size))]
        for type in types.dropFirst().prefix(int(0...2)) {
            images.insert(Image(type: type, size: UInt64(int(0...otherMax))), at: int(0...images.count))
        }
        return ImageElem(format: format, images: images)
    }

    /// A tencent-valid message with `id` in one of the places that hold user IDs.
    mutating func messageWithUserID(_ id: String) -> Message {
        switch int(0...14) {
        case 0: return Message(sender: id, target: .receiver("bob"), elems: [.text("hi")])
        case 1: return Message(sender: "alice", target: .receiver(id), elems: [.text("hi")])
        case 2:
            var message = Message(sender: "alice", target: .groupID("g"), elems: [.text("@")])
            message.atUserList = ["bob", id]
            return message
        case 3:
            var message = Message(sender: "alice", target: .groupID("g"), elems: [.text("psst")])
            message.targetedReceivers = [id]
            return message
        case 4: return Message(target: .groupID("g"), elems: [.groupTips(GroupTipsElem(type: .kicked, opMember: GroupMemberInfo(userID: id)))])
        case 5: return Message(target: .groupID("g"), elems: [.groupTips(GroupTipsElem(type: .invite, memberList: [GroupMemberInfo(userID: "a"), GroupMemberInfo(userID: id)]))])
        case 6: return Message(target: .groupID("g"), elems: [.groupTips(GroupTipsElem(type: .memberInfoChange, memberChangeList: [MemberChangeInfo(userID: id, muteTime: 60)]))])
        case 7: return groupInfoChange(.owner, value: id)
        case 8: return Message(sender: "admin", target: .groupID("g"), signal: .recallNotice(RecallNotice(msgID: "m", recalledBy: id)))
        case 9: return Message(sender: "bob", target: .receiver("alice"), signal: .c2cReadReceipt(C2CReadReceipt(userID: id, readTimestampMs: 1)))
        case 10: return Message(target: .groupID("g"), elems: [.groupTips(GroupTipsElem(type: .memberInfoChange, opUserInfo: UserProfile(userID: id)))])
        case 11: return Message(target: .groupID("g"), elems: [.groupTips(GroupTipsElem(
            type: .memberInfoChange, changedUserInfoList: [UserProfile(userID: "a"), UserProfile(userID: id)]))])
        case 12: return Message(target: .groupID("g"), elems: [.groupTips(GroupTipsElem(
            type: .memberInfoChange, changedGroupMemberInfoList: [GroupMemberInfo(userID: id)]))])
        case 13: return Message(target: .groupID("g"), elems: [.groupSystem(GroupSystemElem(type: .grantAdmin, opUserInfo: UserProfile(userID: id)))])
        default: return Message(target: .groupID("g"), elems: [.groupSystem(GroupSystemElem(type: .kickOffFromGroup, opUser: id))])
        }
    }

    /// A group tips message with one group info change of `type` holding `value`, among other
    /// changes that are within their limits.
    mutating func groupInfoChange(_ type: GroupInfoChangeType, value: String) -> Message {
        var changes = [GroupChangeInfo(type: type, value: value)]
        if chance(0.5) { changes.insert(GroupChangeInfo(type: .custom, value: string(utf8Count: int(0...300)), key: "k"), at: int(0...1)) }
        if chance(0.5) { changes.append(GroupChangeInfo(type: .shutUpAll, boolValue: true)) }
        return Message(target: .groupID("g"), elems: [.groupTips(GroupTipsElem(type: .groupInfoChange, groupChangeList: changes))])
    }

    /// A zim-valid chain of `count` elems (shuffled) with `images` image elems and at most one file,
    /// sound, video and custom elem; the rest are texts.
    mutating func zimChain(count: Int, images: Int) -> [Elem] {
        var elems = (0..<min(images, count)).map { _ in Elem.image(ImageElem(format: .png, images: [Image(type: .origin, size: 1)])) }
        let singles: [Elem] = [
            .file(FileElem(fileSize: 1)), .sound(SoundElem(dataSize: 1, duration: 1, format: "mp3")),
            .video(VideoElem(videoSize: 1, videoFormat: "mov")), .custom(CustomElem(data: [1])),
        ]
        for single in singles where elems.count < count && chance(0.5) { elems.append(single) }
        while elems.count < count { elems.append(.text(string(utf8Count: int(0...8)))) }
        elems.shuffle(using: &self)
        return elems
    }

    /// A zim message with `n` copies of `elem` and a few texts.
    mutating func zimChain(repeating elem: Elem, _ n: Int) -> Message {
        // At least one elem: an empty chain is a violation of its own.
        var elems = Array(repeating: elem, count: n) + (0..<int((n == 0 ? 1 : 0)...5)).map { Elem.text("t\($0)") }
        elems.shuffle(using: &self)
        return Message(sender: "alice", target: .receiver("bob"), elems: elems)
    }
}
