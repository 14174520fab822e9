// Random IMWire model values and wire-format snippets for property tests (swift-property-based).
//
// Every generator here is a `Generator` built on `ModelGenerator`, a plain struct that draws from its
// own SplitMix64 stream seeded by the property library's random number generator. So a failing case
// is reproduced by the seed that `propertyCheck` prints (`.fixedSeed(...)`), and generation stays fast
// in debug builds (no existential RNG calls per value).
//
// The values exercise every field of the schema: multi-byte UTF-8 (CJK, emoji and ZWJ sequences,
// combining marks, U+0000 unless excluded), empty and non-empty strings and bytes, full-range and
// extreme integers (negative int32, UInt64.max), special doubles (NaN with payloads, ±inf, -0.0,
// subnormals), every enum value plus unrecognized numbers, optional sub-messages present and absent,
// every oneof member (or none), maps, merger nesting, and unknown fields at every message level.
// Unknown fields cannot be set through the public API, so they are attached by decoding: a value is
// placed in a carrier message, the carrier is encoded, the unknown bytes are spliced into the value's
// body (re-framing every enclosing length), and the value is read back out of the decoded carrier.

import Foundation
import IMWire
import PropertyBased

// MARK: - Iteration counts

/// Iteration counts for property tests. `IMWIRE_PROPERTY_ITERATIONS=N` in the environment runs every
/// property test N times (for a soak run, or a quick smoke run); otherwise each test uses its own
/// default, chosen so the whole suite stays fast in a debug build.
package enum PropertyIterations {
    package static let environmentVariable = "IMWIRE_PROPERTY_ITERATIONS"

    /// The count from the environment, or `defaultCount` — a quarter of it under a sanitizer
    /// (`IMWIRE_SANITIZER`), whose instrumented debug build runs each case about ten times slower:
    /// there the tests look for memory errors on the paths a case takes, which fewer cases of the
    /// same generators still reach; the optimised run keeps the full counts.
    package static func count(default defaultCount: Int) -> Int {
        if let text = ProcessInfo.processInfo.environment[environmentVariable],
            let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0
        {
            return value
        }
        return runsUnderASanitizer ? max(1, defaultCount / 4) : defaultCount
    }
}

// MARK: - Options

/// What a generated message may contain.
package struct MessageGenerationOptions: Sendable {
    /// Strings may contain U+0000. protobuf-c stores strings as `char *` and cuts them there
    /// (KNOWN_DIFFERENCES.md row h).
    package var allowsNULInStrings = true
    /// Doubles may be -0.0. IMWire writes it (its bit pattern is not the default); protobuf-c compares
    /// it as a double, takes it for the default and omits it (row e).
    package var allowsNegativeZero = true
    /// NaNs may carry payloads (and a sign). Binary keeps them; JSON has one "NaN", which decodes to
    /// `Double.nan`.
    package var allowsNaNPayloads = true
    /// `GroupMemberInfo.customInfo` may have an empty key or an empty value. Swift always writes both
    /// halves of a map entry; protobuf-c treats the entry as a proto3 message and omits an empty key or
    /// value inside it (`4a 05 0a 00 12 01 01` comes back as `4a 03 12 01 01`).
    package var allowsEmptyMapKeysAndValues = true
    /// Unknown fields may include well-formed groups (wire types 3/4). protobuf-c rejects groups (row c).
    package var allowsUnknownGroups = true
    /// Unknown varints may be over-long (non-minimal). Both codecs keep unknown values raw, so they
    /// survive re-encoding (protobuf-c re-encodes only the tag, row m; the generated tags are minimal).
    package var allowsOverlongUnknownVarints = true
    /// Chance that a string or bytes value is long (128 B to 20 KB: two- and three-byte length
    /// prefixes on it and on every enclosing message). Outside the byte budget.
    package var longValueRate = 0.002
    /// Chance that each (sub-)message gets unknown fields attached; 0 for none.
    package var unknownFieldRate = 0.08
    /// Deepest merger nesting: a merger elem inside a merger message inside ... (`maxMergerDepth` layers).
    package var maxMergerDepth = 4
    /// Rough upper bound on the UTF-8 bytes of strings and bytes in one generated value. Once it is
    /// spent, strings come out empty and repeated fields short, which keeps messages within a few KB.
    package var byteBudget = 1500

    /// Everything the Swift codec must round-trip.
    package static let full = MessageGenerationOptions()

    /// Values protobuf-c round-trips byte for byte (see Sources/IMWireProtobufC/KNOWN_DIFFERENCES.md).
    package static let protobufCSafe = MessageGenerationOptions(
        allowsNULInStrings: false,
        allowsNegativeZero: false,
        allowsEmptyMapKeysAndValues: false,
        allowsUnknownGroups: false)

    /// Small messages (a few hundred bytes) for properties that decode every prefix of an encoding.
    package static let small = MessageGenerationOptions(longValueRate: 0, unknownFieldRate: 0.1, maxMergerDepth: 2, byteBudget: 300)

    /// No unknown fields anywhere (for building expectations that set fields by hand).
    package func withoutUnknownFields() -> MessageGenerationOptions {
        var copy = self
        copy.unknownFieldRate = 0
        return copy
    }

    /// What JSON carries exactly: no unknown fields, and only the one NaN JSON has.
    package func jsonExact() -> MessageGenerationOptions {
        var copy = withoutUnknownFields()
        copy.allowsNaNPayloads = false
        return copy
    }
}

// MARK: - Random source

/// SplitMix64: a small, fast, deterministic generator.
package struct TestRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    package mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    package mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) * 0x1p-53 < probability
    }

    package mutating func pick<T>(_ values: [T]) -> T { values[int(0...values.count - 1)] }

    package mutating func bytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}

// MARK: - Model values

/// Builds random model values. One instance per generated value; `budget` bounds its size.
package struct ModelGenerator {
    package var rng: TestRandom
    package let options: MessageGenerationOptions
    private(set) var budget: Int

    package init(seed: UInt64, options: MessageGenerationOptions) {
        rng = TestRandom(seed: seed)
        self.options = options
        budget = options.byteBudget
    }

    private var exhausted: Bool { budget <= 0 }

    /// A count in `range`, kept at the low end once the budget is spent.
    private mutating func count(_ range: ClosedRange<Int>) -> Int {
        exhausted ? range.lowerBound : rng.int(range)
    }

    /// `count(range)` values made by `make`.
    private mutating func repeated<T>(_ range: ClosedRange<Int>, _ make: (inout ModelGenerator) -> T) -> [T] {
        var values: [T] = []
        for _ in 0..<count(range) { values.append(make(&self)) }
        return values
    }

    // MARK: Scalars

    /// A string with a mix of ASCII, CJK, emoji (with ZWJ sequences and skin tones), combining
    /// marks, other multi-byte scalars and, if allowed, U+0000. Empty about one time in six.
    package mutating func string(maxScalars: Int = 12) -> String {
        if rng.chance(options.longValueRate) {
            let piece = rng.pick(["a", "中", "😀", "e\u{301}", "Ω"])
            return String(repeating: piece, count: rng.int(128...20_000) / piece.utf8.count)
        }
        if exhausted || rng.int(0...5) == 0 { return "" }
        var scalars = String.UnicodeScalarView()
        if rng.int(0...7) == 0 {
            // Whole pieces that stress byte lengths and canonical equivalence.
            let pieces = [
                "中文", "漢字かなカナ", "한국어", "👨‍👩‍👧‍👦", "👍🏽", "🇨🇳", "e\u{301}", "é", "\u{FEFF}", "\u{10FFFF}",
                "\u{FFFF}", "__kImSDK_MesssageAtALL__", "Ω≈ç√", "\u{200D}", "a\u{0300}\u{0301}\u{0302}",
            ]
            scalars.append(contentsOf: rng.pick(pieces).unicodeScalars)
        }
        let count = rng.int(1...maxScalars)
        for _ in 0..<count { scalars.append(scalar()) }
        let string = String(scalars)
        budget -= string.utf8.count
        return string
    }

    /// A user ID: usually a short ASCII ID, sometimes an arbitrary string.
    package mutating func userID() -> String {
        switch rng.int(0...5) {
        case 0: return string(maxScalars: 8)
        case 1: return ""
        default:
            let id = "user_" + String(rng.next() % 1_000_000)
            budget -= id.utf8.count
            return id
        }
    }

    private mutating func scalar() -> Unicode.Scalar {
        let value: UInt32
        switch rng.int(0...19) {
        case 0...7: value = UInt32(rng.int(0x20...0x7E))
        case 8, 9: value = UInt32(rng.int(0x4E00...0x9FFF))  // CJK
        case 10, 11: value = UInt32(rng.int(0x1F300...0x1FAFF))  // emoji
        case 12: value = UInt32(rng.int(0x0300...0x036F))  // combining marks
        case 13: value = UInt32(rng.int(0x80...0x7FF))  // two-byte UTF-8
        case 14: value = UInt32(rng.int(0xE000...0xFFFF))  // BMP above the surrogates
        case 15: value = UInt32(rng.int(0x800...0xD7FF))  // three-byte UTF-8
        case 16: value = UInt32(rng.int(0x10000...0x10FFFF))  // four-byte UTF-8
        case 17: value = rng.pick([0x200D, 0xFE0F, 0x1F3FD, 0x09, 0x0A, 0x7F])  // ZWJ, VS16, skin tone, controls
        case 18: value = options.allowsNULInStrings ? 0 : 0x1F600
        default: value = UInt32(rng.int(0x01...0x1F))  // C0 controls
        }
        return Unicode.Scalar(value)!
    }

    /// Bytes of any value, empty about one time in five.
    package mutating func bytes(maxCount: Int = 24) -> [UInt8] {
        if rng.chance(options.longValueRate) { return rng.bytes(count: rng.int(128...20_000)) }
        if exhausted || rng.int(0...4) == 0 { return [] }
        let count = rng.int(1...maxCount)
        budget -= count
        return rng.bytes(count: count)
    }

    /// A UInt64 of every varint length: 0, small, extremes, random widths.
    package mutating func uint64() -> UInt64 {
        switch rng.int(0...9) {
        case 0: return 0
        case 1:
            return rng.pick([
                1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), UInt64(UInt32.max) + 1, 1 << 63, UInt64.max - 1,
                UInt64.max,
            ])
        default: return rng.next() >> UInt64(rng.int(0...63))
        }
    }

    package mutating func uint32() -> UInt32 {
        switch rng.int(0...9) {
        case 0: return 0
        case 1: return rng.pick([1, 127, 128, 16_384, UInt32(Int32.max), UInt32.max - 1, UInt32.max])
        default: return UInt32(truncatingIfNeeded: rng.next() >> UInt64(rng.int(32...63)))
        }
    }

    /// An Int32 including negatives (ten bytes on the wire) and both extremes.
    package mutating func int32() -> Int32 {
        switch rng.int(0...9) {
        case 0: return 0
        case 1: return rng.pick([1, -1, 127, 128, -128, Int32.max, Int32.min, Int32.min + 1])
        case 2...4: return -Int32(truncatingIfNeeded: rng.next() >> UInt64(rng.int(33...63)))
        default: return Int32(truncatingIfNeeded: rng.next() >> UInt64(rng.int(33...63)))
        }
    }

    /// A double: 0, -0.0 (if allowed), NaNs with payloads, infinities, subnormals, extremes, ordinary
    /// coordinates and arbitrary bit patterns.
    package mutating func double() -> Double {
        switch rng.int(0...11) {
        case 0: return 0
        case 1: return options.allowsNegativeZero ? -0.0 : 0
        case 2:
            guard options.allowsNaNPayloads else { return .nan }
            return rng.pick([
                Double.nan, -Double.nan, Double.signalingNaN, Double(bitPattern: 0x7FF8_0000_DEAD_BEEF),
                Double(bitPattern: 0xFFF0_0000_0000_0001),
            ])
        case 3: return rng.pick([Double.infinity, -Double.infinity])
        case 4:
            return rng.pick([
                Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, Double.leastNormalMagnitude,
                Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.ulpOfOne, 180, -180, 90, -90,
            ])
        case 5...8: return Double.random(in: -180...180, using: &rng)
        default:
            let value = Double(bitPattern: rng.next())
            if value.isNaN && !options.allowsNaNPayloads { return .nan }
            return !options.allowsNegativeZero && value.bitPattern == (-0.0 as Double).bitPattern ? 0 : value
        }
    }

    /// An enum number: usually a named one, sometimes one the schema does not name.
    package mutating func enumNumber(named: [Int32], unnamed extra: [Int32] = []) -> Int32 {
        if rng.int(0...3) != 0 { return rng.pick(named) }
        switch rng.int(0...3) {
        case 0: return rng.pick(extra + [1000, 13, -1])
        case 1: return rng.pick([Int32.max, Int32.min, 0x7F, 0x80])
        default: return Int32(truncatingIfNeeded: rng.next() >> UInt64(rng.int(33...63))) * (rng.chance(0.3) ? -1 : 1)
        }
    }

    package mutating func bool() -> Bool { rng.chance(0.5) }

    // MARK: Enums

    package mutating func priority() -> Priority {
        Priority(rawValue: enumNumber(named: Priority.allKnownCases.map(\.rawValue), unnamed: [5]))
    }
    package mutating func iosPushType() -> IOSPushType {
        IOSPushType(rawValue: enumNumber(named: IOSPushType.allKnownCases.map(\.rawValue), unnamed: [2]))
    }
    package mutating func imageType() -> ImageType {
        ImageType(rawValue: enumNumber(named: ImageType.allKnownCases.map(\.rawValue), unnamed: [4]))
    }
    package mutating func imageFormat() -> ImageFormat {
        ImageFormat(rawValue: enumNumber(named: ImageFormat.allKnownCases.map(\.rawValue), unnamed: [7, 254, 256]))
    }
    package mutating func groupTipsType() -> GroupTipsType {
        GroupTipsType(rawValue: enumNumber(named: GroupTipsType.allKnownCases.map(\.rawValue), unnamed: [12]))
    }
    package mutating func groupMemberRole() -> GroupMemberRole {
        GroupMemberRole(rawValue: enumNumber(named: GroupMemberRole.allKnownCases.map(\.rawValue), unnamed: [1, 100, 500]))
    }
    package mutating func groupInfoChangeType() -> GroupInfoChangeType {
        GroupInfoChangeType(rawValue: enumNumber(named: GroupInfoChangeType.allKnownCases.map(\.rawValue), unnamed: [7, 13]))
    }
    package mutating func groupSystemType() -> GroupSystemType {
        GroupSystemType(rawValue: enumNumber(named: GroupSystemType.allKnownCases.map(\.rawValue), unnamed: [15, 254, 256]))
    }

    // MARK: Messages

    /// A message. `mergerDepth` is the number of merger layers above it.
    package mutating func message(mergerDepth: Int = 0) -> Message {
        var message = Message()
        message.msgID = rng.chance(0.7) ? string(maxScalars: 6) : ""
        message.sender = userID()
        switch rng.int(0...3) {
        case 0: message.target = nil
        case 1: message.target = .receiver(userID())
        case 2: message.target = .groupID(string(maxScalars: 8))
        default: message.target = .roomID(string(maxScalars: 8))
        }
        message.timestampMs = uint64()
        message.seq = uint64()
        message.random = uint64()
        message.priority = priority()
        // Now and then a chain of mergers as deep as allowed, so deep nesting is exercised often.
        let forceDeepMerger = mergerDepth < options.maxMergerDepth && rng.chance(mergerDepth == 0 ? 0.15 : 0.6)
        let elemCount = count(forceDeepMerger ? 1...2 : 0...4)
        for index in 0..<elemCount {
            if forceDeepMerger && index == 0 {
                let deep = merger(mergerDepth: mergerDepth)
                message.elems.append(withUnknownFields(Elem(content: .merger(deep))))
            } else {
                message.elems.append(elem(mergerDepth: mergerDepth))
            }
        }
        message.atUserList = repeated(0...3) { $0.rng.chance(0.2) ? "__kImSDK_MesssageAtALL__" : $0.userID() }
        message.targetedReceivers = repeated(0...2) { $0.userID() }
        message.cloudCustomData = bytes()
        message.offlinePushInfo = rng.chance(0.4) ? offlinePushInfo() : nil
        message.needReadReceipt = bool()
        message.excludedFromUnreadCount = bool()
        message.excludedFromLastMessage = bool()
        message.onlineUserOnly = bool()
        message.supportMessageExtension = bool()
        message.topicID = rng.chance(0.2) ? string(maxScalars: 6) : ""
        message.barrage = rng.chance(0.2)
        if rng.chance(0.15) { message.signal = signal() }
        return withUnknownFields(message)
    }

    /// A recall notice or a read receipt, each about equally often.
    package mutating func signal() -> Message.Signal {
        switch rng.int(0...2) {
        case 0: .recallNotice(RecallNotice(msgID: string(maxScalars: 8), recalledBy: userID(), reason: string()))
        case 1: .groupReadReceipt(GroupReadReceipt(msgID: string(maxScalars: 8), readCount: uint64(), unreadCount: uint64()))
        default: .c2cReadReceipt(C2CReadReceipt(userID: userID(), readTimestampMs: uint64()))
        }
    }

    /// A legacy TIM user profile.
    package mutating func userProfile() -> UserProfile {
        var profile = UserProfile(userID: userID(), nickName: string(), faceURL: string(), selfSignature: string())
        for _ in 0..<count(0...2) {
            var key = "Tag_Profile_Custom_" + string(maxScalars: 3)
            var value = bytes(maxCount: 8)
            if !options.allowsEmptyMapKeysAndValues {
                if key.isEmpty { key = "k" }
                if value.isEmpty { value = [1] }
            }
            profile.customInfo[key] = value
        }
        return profile
    }

    package mutating func offlinePushInfo() -> OfflinePushInfo {
        var info = OfflinePushInfo()
        info.title = string()
        info.desc = string()
        info.ext = string()
        info.disablePush = bool()
        info.iosSound = string(maxScalars: 6)
        info.androidSound = string(maxScalars: 6)
        info.ignoreIOSBadge = bool()
        info.iosPushType = iosPushType()
        info.iosTitle = string()
        info.iosSubtitle = string()
        info.iosImage = string()
        info.iosMutableContent = bool()
        return withUnknownFields(info)
    }

    /// An elem with each of the 11 kinds of content, or none, about equally often (mergers only while
    /// the depth allows).
    package mutating func elem(mergerDepth: Int = 0) -> Elem {
        let content: Elem.Content?
        let kinds = mergerDepth < options.maxMergerDepth && !exhausted ? 11 : 10
        switch rng.int(0...kinds) {
        case 0: content = nil
        case 1: content = .text(text())
        case 2: content = .custom(custom())
        case 3: content = .image(image())
        case 4: content = .sound(sound())
        case 5: content = .video(video())
        case 6: content = .file(file())
        case 7: content = .location(location())
        case 8: content = .face(face())
        case 9: content = .groupTips(groupTips())
        case 10: content = .groupSystem(groupSystem())
        default: content = .merger(merger(mergerDepth: mergerDepth))
        }
        return withUnknownFields(Elem(content: content))
    }

    package mutating func text() -> TextElem { withUnknownFields(TextElem(text: string(maxScalars: 40))) }

    package mutating func custom() -> CustomElem {
        withUnknownFields(CustomElem(data: bytes(maxCount: 48), desc: string(), ext: string(), sound: string(maxScalars: 6)))
    }

    package mutating func image() -> ImageElem {
        withUnknownFields(ImageElem(format: imageFormat(), images: repeated(0...3) { $0.imageInfo() }))
    }

    package mutating func imageInfo() -> Image {
        withUnknownFields(
            Image(type: imageType(), uuid: string(maxScalars: 8), size: uint64(), width: uint32(), height: uint32(), url: string()))
    }

    package mutating func sound() -> SoundElem {
        withUnknownFields(
            SoundElem(uuid: string(maxScalars: 8), url: string(), dataSize: uint64(), duration: uint32(), format: string(maxScalars: 4)))
    }

    package mutating func video() -> VideoElem {
        withUnknownFields(
            VideoElem(
                videoUUID: string(maxScalars: 8), videoURL: string(), videoSize: uint64(), videoFormat: string(maxScalars: 4),
                duration: uint32(), snapshotUUID: string(maxScalars: 8), snapshotURL: string(), snapshotSize: uint64(),
                snapshotWidth: uint32(), snapshotHeight: uint32(), snapshotFormat: string(maxScalars: 4)))
    }

    package mutating func file() -> FileElem {
        withUnknownFields(FileElem(uuid: string(maxScalars: 8), url: string(), fileName: string(), fileSize: uint64()))
    }

    package mutating func location() -> LocationElem {
        withUnknownFields(LocationElem(desc: string(), longitude: double(), latitude: double()))
    }

    package mutating func face() -> FaceElem { withUnknownFields(FaceElem(index: int32(), data: bytes())) }

    package mutating func groupTips() -> GroupTipsElem {
        var tips = GroupTipsElem()
        tips.groupID = string(maxScalars: 8)
        tips.type = groupTipsType()
        tips.opMember = rng.chance(0.5) ? groupMemberInfo() : nil
        tips.memberList = repeated(0...2) { $0.groupMemberInfo() }
        tips.groupChangeList = repeated(0...2) { $0.groupChangeInfo() }
        tips.memberChangeList = repeated(0...2) { $0.memberChangeInfo() }
        tips.memberCount = uint32()
        tips.groupName = string()
        tips.platform = rng.chance(0.7)
            ? rng.pick(["iOS", "Android", "Windows", "Mac", "Web", "RESTful API", "Unknown"]) : string(maxScalars: 4)
        tips.opUserInfo = rng.chance(0.3) ? userProfile() : nil
        tips.changedUserInfoList = repeated(0...2) { $0.userProfile() }
        tips.changedGroupMemberInfoList = repeated(0...1) { $0.groupMemberInfo() }
        return withUnknownFields(tips)
    }

    package mutating func groupMemberInfo() -> GroupMemberInfo {
        var info = GroupMemberInfo()
        info.userID = userID()
        info.nickName = string()
        info.friendRemark = string()
        info.nameCard = string()
        info.faceURL = string()
        info.role = groupMemberRole()
        info.joinTime = uint64()
        info.muteUntil = uint64()
        if rng.chance(0.05) {
            // Canonically equivalent keys that differ in bytes are distinct map keys.
            info.customInfo["e\u{301}"] = bytes(maxCount: 4)
            info.customInfo["\u{E9}"] = bytes(maxCount: 4)
            if !options.allowsEmptyMapKeysAndValues {
                info.customInfo["e\u{301}"] = [1]
                info.customInfo["\u{E9}"] = [2]
            }
        }
        for _ in 0..<count(0...3) {
            var key = string(maxScalars: 6)
            var value = bytes(maxCount: 12)
            if !options.allowsEmptyMapKeysAndValues {
                if key.isEmpty { key = "k" + String(rng.int(0...99)) }
                if value.isEmpty { value = [UInt8(truncatingIfNeeded: rng.next())] }
            }
            info.customInfo[key] = value
        }
        return withUnknownFields(info)
    }

    package mutating func groupChangeInfo() -> GroupChangeInfo {
        withUnknownFields(
            GroupChangeInfo(
                type: groupInfoChangeType(), value: string(), key: string(maxScalars: 6), boolValue: bool(), intValue: uint32(),
                uint64Value: uint64()))
    }

    package mutating func memberChangeInfo() -> MemberChangeInfo {
        withUnknownFields(MemberChangeInfo(userID: userID(), muteTime: uint32()))
    }

    package mutating func groupSystem() -> GroupSystemElem {
        var elem = GroupSystemElem()
        elem.type = groupSystemType()
        elem.groupID = string(maxScalars: 8)
        elem.opUser = userID()
        elem.reason = string()
        elem.msgKey = uint64()
        elem.authKey = bytes()
        elem.userData = bytes()
        elem.opMember = rng.chance(0.5) ? groupMemberInfo() : nil
        elem.platform = string(maxScalars: 6)
        elem.opUserInfo = rng.chance(0.3) ? userProfile() : nil
        return withUnknownFields(elem)
    }

    package mutating func merger(mergerDepth: Int) -> MergerElem {
        var merger = MergerElem()
        merger.title = string()
        merger.abstractList = repeated(0...3) { $0.string() }
        merger.compatibleText = string()
        merger.layersOverLimit = bool()
        if rng.chance(0.25) {
            // Sent by download key: the key and the count of the messages behind it, none inline
            // (Tencent's TIMRelayElem has MsgList or JsonMsgKey).
            merger.jsonMsgKey = "key-" + string()  // never empty: an empty key is no key
            merger.msgNum = uint32()
        } else {
            merger.messages = repeated(0...3) { $0.message(mergerDepth: mergerDepth + 1) }
        }
        return withUnknownFields(merger)
    }

    // MARK: Unknown fields

    /// One or more unknown fields (field numbers 100...2000 or 2^29-1, none of them in the schema) as
    /// wire bytes: varints (over-long ones if allowed), fixed64, length-delimited and fixed32 values,
    /// and well-formed groups if allowed.
    package mutating func unknownFields(count range: ClosedRange<Int> = 1...3) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<rng.int(range) { bytes += unknownField(groupDepth: 0) }
        return bytes
    }

    private mutating func unknownField(groupDepth: Int) -> [UInt8] {
        let number = rng.chance(0.05) ? TestWire.maxFieldNumber : rng.int(100...2000)
        let wireTypes = options.allowsUnknownGroups && groupDepth < 2 ? 4 : 3
        var bytes: [UInt8] = []
        switch rng.int(0...wireTypes) {
        case 0:
            bytes += TestWire.tag(number, TestWire.varint)
            let value = uint64()
            if options.allowsOverlongUnknownVarints && rng.chance(0.2) {
                bytes += TestWire.overlongVarint(value, extraBytes: rng.int(1...9))
            } else {
                bytes += TestWire.varint(value)
            }
        case 1:
            bytes += TestWire.tag(number, TestWire.fixed64)
            bytes += rng.bytes(count: 8)
        case 2:
            bytes += TestWire.tag(number, TestWire.lengthDelimited)
            let payload = rng.bytes(count: rng.chance(options.longValueRate * 10) ? rng.int(128...400) : rng.int(0...12))
            bytes += TestWire.varint(UInt64(payload.count)) + payload
        case 3:
            bytes += TestWire.tag(number, TestWire.fixed32)
            bytes += rng.bytes(count: 4)
        default:
            bytes += TestWire.tag(number, TestWire.startGroup)
            for _ in 0..<rng.int(0...2) { bytes += unknownField(groupDepth: groupDepth + 1) }
            bytes += TestWire.tag(number, TestWire.endGroup)
        }
        budget -= bytes.count
        return bytes
    }

    /// `value`, now and then with unknown fields (`options.unknownFieldRate`).
    private mutating func withUnknownFields<T: UnknownFieldCarrier>(_ value: T) -> T {
        guard options.unknownFieldRate > 0, !exhausted, rng.chance(options.unknownFieldRate) else { return value }
        return value.appendingUnknownFields(unknownFields(count: 1...2)) ?? value
    }
}

// MARK: - Generators

/// `Generator`s of model values and wire snippets for `propertyCheck`.
package enum IMWireGen {
    /// Any model value built by `body` from a fresh ``ModelGenerator``.
    package static func model<T>(
        _ options: MessageGenerationOptions = .full, _ body: @escaping @Sendable (inout ModelGenerator) -> T
    ) -> Generator<T, Shrink.None<T>> {
        Generator { rng in
            var generator = ModelGenerator(seed: rng.next(), options: options)
            return body(&generator)
        }
    }

    /// Messages; shrinkable (under `.shrinking`) by dropping elems and resetting fields.
    package static func message(_ options: MessageGenerationOptions = .full) -> Generator<Message, [Message]> {
        Generator(
            run: { rng in
                var generator = ModelGenerator(seed: rng.next(), options: options)
                return generator.message()
            },
            shrink: { MessageShrinker.candidates($0) })
    }

    /// A message's encoding, with unknown fields after it half the time, corrupted (``Corruption``):
    /// hostile input that is still mostly protobuf.
    package static func corruptedEncoding(_ options: MessageGenerationOptions = .small) -> Generator<[UInt8], Shrink.None<[UInt8]>> {
        model(options) { generator in
            let message = generator.message()
            let unknown = generator.rng.chance(0.5) ? generator.unknownFields(count: 1...2) : []
            let encoded = ((try? message.serializedBytes()) ?? []) + unknown
            return Corruption.apply(to: encoded, using: &generator.rng)
        }
    }

    /// A message and unknown-field bytes to splice into its encoding.
    package static func messageAndUnknownFields(_ options: MessageGenerationOptions = .full) -> Generator<
        (Message, [UInt8]), Shrink.None<(Message, [UInt8])>
    > {
        model(options) { generator in
            let message = generator.message()
            return (message, generator.unknownFields(count: 1...4))
        }
    }

    /// Unknown-field bytes alone.
    package static func unknownFields(_ options: MessageGenerationOptions = .full) -> Generator<[UInt8], Shrink.None<[UInt8]>> {
        model(options) { $0.unknownFields(count: 1...4) }
    }

    package static func elem(_ options: MessageGenerationOptions = .full) -> Generator<Elem, Shrink.None<Elem>> {
        model(options) { $0.elem() }
    }
    package static func offlinePushInfo(_ options: MessageGenerationOptions = .full) -> Generator<OfflinePushInfo, Shrink.None<OfflinePushInfo>> {
        model(options) { $0.offlinePushInfo() }
    }
    package static func textElem(_ options: MessageGenerationOptions = .full) -> Generator<TextElem, Shrink.None<TextElem>> {
        model(options) { $0.text() }
    }
    package static func customElem(_ options: MessageGenerationOptions = .full) -> Generator<CustomElem, Shrink.None<CustomElem>> {
        model(options) { $0.custom() }
    }
    package static func imageElem(_ options: MessageGenerationOptions = .full) -> Generator<ImageElem, Shrink.None<ImageElem>> {
        model(options) { $0.image() }
    }
    package static func image(_ options: MessageGenerationOptions = .full) -> Generator<Image, Shrink.None<Image>> {
        model(options) { $0.imageInfo() }
    }
    package static func soundElem(_ options: MessageGenerationOptions = .full) -> Generator<SoundElem, Shrink.None<SoundElem>> {
        model(options) { $0.sound() }
    }
    package static func videoElem(_ options: MessageGenerationOptions = .full) -> Generator<VideoElem, Shrink.None<VideoElem>> {
        model(options) { $0.video() }
    }
    package static func fileElem(_ options: MessageGenerationOptions = .full) -> Generator<FileElem, Shrink.None<FileElem>> {
        model(options) { $0.file() }
    }
    package static func locationElem(_ options: MessageGenerationOptions = .full) -> Generator<LocationElem, Shrink.None<LocationElem>> {
        model(options) { $0.location() }
    }
    package static func faceElem(_ options: MessageGenerationOptions = .full) -> Generator<FaceElem, Shrink.None<FaceElem>> {
        model(options) { $0.face() }
    }
    package static func groupTipsElem(_ options: MessageGenerationOptions = .full) -> Generator<GroupTipsElem, Shrink.None<GroupTipsElem>> {
        model(options) { $0.groupTips() }
    }
    package static func groupMemberInfo(_ options: MessageGenerationOptions = .full) -> Generator<GroupMemberInfo, Shrink.None<GroupMemberInfo>> {
        model(options) { $0.groupMemberInfo() }
    }
    package static func groupChangeInfo(_ options: MessageGenerationOptions = .full) -> Generator<GroupChangeInfo, Shrink.None<GroupChangeInfo>> {
        model(options) { $0.groupChangeInfo() }
    }
    package static func memberChangeInfo(_ options: MessageGenerationOptions = .full) -> Generator<MemberChangeInfo, Shrink.None<MemberChangeInfo>> {
        model(options) { $0.memberChangeInfo() }
    }
    package static func groupSystemElem(_ options: MessageGenerationOptions = .full) -> Generator<GroupSystemElem, Shrink.None<GroupSystemElem>> {
        model(options) { $0.groupSystem() }
    }
    package static func mergerElem(_ options: MessageGenerationOptions = .full) -> Generator<MergerElem, Shrink.None<MergerElem>> {
        model(options) { $0.merger(mergerDepth: 0) }
    }
}

// MARK: - Shrinking

/// Smaller variants of a message, for `.shrinking`: every candidate drops or resets something.
package enum MessageShrinker {
    package static func candidates(_ message: Message) -> [Message] {
        var result: [Message] = []
        func add(_ change: (inout Message) -> Void) {
            var copy = message
            change(&copy)
            if copy != message { result.append(copy) }
        }
        add { $0 = Message() }
        for index in message.elems.indices {
            add { $0.elems.remove(at: index) }
        }
        for index in message.elems.indices {
            add { $0.elems[index] = Elem() }
            if case .merger(let merger)? = message.elems[index].content {
                for (inner, innerMessage) in merger.messages.enumerated() {
                    // Replace the whole merger elem by one of its inner messages' first elem, or shrink inside.
                    if let first = innerMessage.elems.first { add { $0.elems[index] = first } }
                    for smaller in candidates(innerMessage).prefix(8) {
                        var shrunk = merger
                        shrunk.messages[inner] = smaller
                        add { $0.elems[index] = Elem(content: .merger(shrunk)) }
                    }
                }
            }
        }
        add { $0.unknownFields = UnknownFields() }
        add { $0.offlinePushInfo = nil }
        add { $0.atUserList = [] }
        add { $0.targetedReceivers = [] }
        add { $0.cloudCustomData = [] }
        add { $0.target = nil }
        add { $0.signal = nil }
        add {
            $0.barrage = false
            $0.topicID = ""
        }
        add { $0.msgID = "" }
        add { $0.sender = "" }
        add {
            $0.timestampMs = 0
            $0.seq = 0
            $0.random = 0
            $0.priority = .default
        }
        add {
            $0.needReadReceipt = false
            $0.excludedFromUnreadCount = false
            $0.excludedFromLastMessage = false
            $0.onlineUserOnly = false
            $0.supportMessageExtension = false
        }
        return result
    }
}

// MARK: - Attaching unknown fields

/// A model type that can be given unknown fields by decoding: it is placed in a carrier message at
/// `carrierPath` (the field numbers leading to its body, first occurrence at each level), the unknown
/// bytes are spliced in at the end of its body, and it is read back from the decoded carrier.
package protocol UnknownFieldCarrier {
    static var carrierPath: [Int] { get }
    func carrier() -> Message
    static func extract(from carrier: Message) -> Self?
}

extension UnknownFieldCarrier {
    /// This value with `unknown` appended to its unknown fields, or `nil` if the codec refuses.
    package func appendingUnknownFields(_ unknown: [UInt8]) -> Self? {
        guard let encoded = try? carrier().serializedBytes(),
            let spliced = TestWire.appendingToEmbeddedMessage(encoded, path: Self.carrierPath[...], extra: unknown),
            let decoded = try? Message(serializedBytes: spliced)
        else { return nil }
        return Self.extract(from: decoded)
    }
}

extension Message: UnknownFieldCarrier {
    package static var carrierPath: [Int] { [] }
    package func carrier() -> Message { self }
    package static func extract(from carrier: Message) -> Message? { carrier }
}

extension OfflinePushInfo: UnknownFieldCarrier {
    package static var carrierPath: [Int] { [14] }
    package func carrier() -> Message { Message(offlinePushInfo: self) }
    package static func extract(from carrier: Message) -> OfflinePushInfo? { carrier.offlinePushInfo }
}

extension Elem: UnknownFieldCarrier {
    package static var carrierPath: [Int] { [10] }
    package func carrier() -> Message { Message(elems: [self]) }
    package static func extract(from carrier: Message) -> Elem? { carrier.elems.first }
}

/// Elem contents: carried as the only elem of a message, at `[10, oneof field number]`.
package protocol ElemContentCarrier: UnknownFieldCarrier {
    static var elemField: Int { get }
    var asContent: Elem.Content { get }
    static func from(_ content: Elem.Content) -> Self?
}

extension ElemContentCarrier {
    package static var carrierPath: [Int] { [10, elemField] }
    package func carrier() -> Message { Message(elems: [Elem(content: asContent)]) }
    package static func extract(from carrier: Message) -> Self? { carrier.elems.first?.content.flatMap(from) }
}

extension TextElem: ElemContentCarrier {
    package static var elemField: Int { 1 }
    package var asContent: Elem.Content { .text(self) }
    package static func from(_ content: Elem.Content) -> TextElem? { if case .text(let v) = content { v } else { nil } }
}
extension CustomElem: ElemContentCarrier {
    package static var elemField: Int { 2 }
    package var asContent: Elem.Content { .custom(self) }
    package static func from(_ content: Elem.Content) -> CustomElem? { if case .custom(let v) = content { v } else { nil } }
}
extension ImageElem: ElemContentCarrier {
    package static var elemField: Int { 3 }
    package var asContent: Elem.Content { .image(self) }
    package static func from(_ content: Elem.Content) -> ImageElem? { if case .image(let v) = content { v } else { nil } }
}
extension SoundElem: ElemContentCarrier {
    package static var elemField: Int { 4 }
    package var asContent: Elem.Content { .sound(self) }
    package static func from(_ content: Elem.Content) -> SoundElem? { if case .sound(let v) = content { v } else { nil } }
}
extension VideoElem: ElemContentCarrier {
    package static var elemField: Int { 5 }
    package var asContent: Elem.Content { .video(self) }
    package static func from(_ content: Elem.Content) -> VideoElem? { if case .video(let v) = content { v } else { nil } }
}
extension FileElem: ElemContentCarrier {
    package static var elemField: Int { 6 }
    package var asContent: Elem.Content { .file(self) }
    package static func from(_ content: Elem.Content) -> FileElem? { if case .file(let v) = content { v } else { nil } }
}
extension LocationElem: ElemContentCarrier {
    package static var elemField: Int { 7 }
    package var asContent: Elem.Content { .location(self) }
    package static func from(_ content: Elem.Content) -> LocationElem? { if case .location(let v) = content { v } else { nil } }
}
extension FaceElem: ElemContentCarrier {
    package static var elemField: Int { 8 }
    package var asContent: Elem.Content { .face(self) }
    package static func from(_ content: Elem.Content) -> FaceElem? { if case .face(let v) = content { v } else { nil } }
}
extension GroupTipsElem: ElemContentCarrier {
    package static var elemField: Int { 9 }
    package var asContent: Elem.Content { .groupTips(self) }
    package static func from(_ content: Elem.Content) -> GroupTipsElem? { if case .groupTips(let v) = content { v } else { nil } }
}
extension MergerElem: ElemContentCarrier {
    package static var elemField: Int { 10 }
    package var asContent: Elem.Content { .merger(self) }
    package static func from(_ content: Elem.Content) -> MergerElem? { if case .merger(let v) = content { v } else { nil } }
}
extension GroupSystemElem: ElemContentCarrier {
    package static var elemField: Int { 12 }
    package var asContent: Elem.Content { .groupSystem(self) }
    package static func from(_ content: Elem.Content) -> GroupSystemElem? { if case .groupSystem(let v) = content { v } else { nil } }
}

extension Image: UnknownFieldCarrier {
    package static var carrierPath: [Int] { [10, 3, 2] }
    package func carrier() -> Message { Message(elems: [Elem(content: .image(ImageElem(images: [self])))]) }
    package static func extract(from carrier: Message) -> Image? { ImageElem.extract(from: carrier)?.images.first }
}

extension GroupMemberInfo: UnknownFieldCarrier {
    package static var carrierPath: [Int] { [10, 9, 3] }
    package func carrier() -> Message { Message(elems: [Elem(content: .groupTips(GroupTipsElem(opMember: self)))]) }
    package static func extract(from carrier: Message) -> GroupMemberInfo? { GroupTipsElem.extract(from: carrier)?.opMember }
}

extension GroupChangeInfo: UnknownFieldCarrier {
    package static var carrierPath: [Int] { [10, 9, 5] }
    package func carrier() -> Message { Message(elems: [Elem(content: .groupTips(GroupTipsElem(groupChangeList: [self])))]) }
    package static func extract(from carrier: Message) -> GroupChangeInfo? { GroupTipsElem.extract(from: carrier)?.groupChangeList.first }
}

extension MemberChangeInfo: UnknownFieldCarrier {
    package static var carrierPath: [Int] { [10, 9, 6] }
    package func carrier() -> Message { Message(elems: [Elem(content: .groupTips(GroupTipsElem(memberChangeList: [self])))]) }
    package static func extract(from carrier: Message) -> MemberChangeInfo? { GroupTipsElem.extract(from: carrier)?.memberChangeList.first }
}

// MARK: - Wire helpers

/// A minimal protobuf wire reader/writer for building and inspecting test inputs, independent of the
/// codec under test.
package enum TestWire {
    package static let varint = 0
    package static let fixed64 = 1
    package static let lengthDelimited = 2
    package static let startGroup = 3
    package static let endGroup = 4
    package static let fixed32 = 5
    package static let maxFieldNumber = (1 << 29) - 1

    package static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
        return bytes
    }

    /// `value` as a varint padded with `extraBytes` redundant continuation bytes (at most 10 in all).
    package static func overlongVarint(_ value: UInt64, extraBytes: Int) -> [UInt8] {
        var bytes = varint(value)
        let extra = min(extraBytes, 10 - bytes.count)
        guard extra > 0 else { return bytes }
        bytes[bytes.count - 1] |= 0x80
        bytes += [UInt8](repeating: 0x80, count: extra - 1) + [0x00]
        return bytes
    }

    package static func tag(_ number: Int, _ wireType: Int) -> [UInt8] {
        varint(UInt64(number) << 3 | UInt64(wireType))
    }

    package static func lengthDelimited(_ number: Int, _ payload: [UInt8]) -> [UInt8] {
        tag(number, lengthDelimited) + varint(UInt64(payload.count)) + payload
    }

    /// Reads a varint at `position`; `nil` if it is truncated or longer than 10 bytes.
    package static func readVarint(_ bytes: ArraySlice<UInt8>, _ position: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.endIndex, shift < 70 {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    /// One field of a message: where its tag starts, where its value (after a length prefix, for
    /// length-delimited fields) starts, and where it ends.
    package struct Field: Equatable {
        package var number: Int
        package var wireType: Int
        package var start: Int
        package var valueStart: Int
        package var end: Int
    }

    /// The top-level fields of `bytes`, or `nil` if they are not well-formed (groups must be closed).
    package static func fields(_ bytes: ArraySlice<UInt8>) -> [Field]? {
        var fields: [Field] = []
        var position = bytes.startIndex
        while position < bytes.endIndex {
            let start = position
            guard let key = readVarint(bytes, &position), key >> 3 >= 1, key >> 3 <= UInt64(maxFieldNumber) else { return nil }
            let number = Int(key >> 3)
            let wireType = Int(key & 7)
            var valueStart = position
            guard skipValue(bytes, wireType: wireType, number: number, &position, &valueStart) else { return nil }
            fields.append(Field(number: number, wireType: wireType, start: start, valueStart: valueStart, end: position))
        }
        return fields
    }

    private static func skipValue(
        _ bytes: ArraySlice<UInt8>, wireType: Int, number: Int, _ position: inout Int, _ valueStart: inout Int
    ) -> Bool {
        switch wireType {
        case varint: return readVarint(bytes, &position) != nil
        case fixed64, fixed32:
            let size = wireType == fixed64 ? 8 : 4
            guard bytes.endIndex - position >= size else { return false }
            position += size
            return true
        case lengthDelimited:
            guard let length = readVarint(bytes, &position), length <= UInt64(bytes.endIndex - position) else { return false }
            valueStart = position
            position += Int(length)
            return true
        case startGroup:
            while position < bytes.endIndex {
                guard let key = readVarint(bytes, &position) else { return false }
                let innerNumber = Int(key >> 3)
                let innerType = Int(key & 7)
                if innerType == endGroup { return innerNumber == number }
                var ignored = position
                guard innerNumber >= 1, skipValue(bytes, wireType: innerType, number: innerNumber, &position, &ignored) else {
                    return false
                }
            }
            return false
        default: return false
        }
    }

    /// `bytes` with `extra` appended to the body of the embedded message at `path` (for each field
    /// number, its first length-delimited occurrence), every enclosing length prefix rewritten.
    /// An empty path appends to the top level. `nil` if the path is not there.
    package static func appendingToEmbeddedMessage(_ bytes: [UInt8], path: ArraySlice<Int>, extra: [UInt8]) -> [UInt8]? {
        guard let number = path.first else { return bytes + extra }
        guard let fields = fields(bytes[...]),
            let field = fields.first(where: { $0.number == number && $0.wireType == lengthDelimited }),
            let body = appendingToEmbeddedMessage(Array(bytes[field.valueStart..<field.end]), path: path.dropFirst(), extra: extra)
        else { return nil }
        return Array(bytes[..<field.start]) + lengthDelimited(number, body) + Array(bytes[field.end...])
    }

    /// Lowercase hex, for failure messages.
    package static func hex<C: Collection<UInt8>>(_ bytes: C) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
