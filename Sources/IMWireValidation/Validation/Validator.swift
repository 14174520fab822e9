import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

/// One validation run: walks a message once, depth first in field-number order, and collects every
/// violation of `profile` plus the always-on rules (location ranges, one Image per ImageType).
///
/// Order of the result: within a message, `sender`, the target (`receiver`, `room_id`), `priority`,
/// then the chain (`elems` as a whole, then each elem in order — its chain rules, its fields in
/// field-number order, then the messages of a merger, recursively), then `at_user_list`,
/// `targeted_receivers`, `barrage`, and the signal. A violation about a whole merger (its nesting)
/// comes before the violations inside it.
///
/// The walk does not recurse: the messages and mergers being walked are frames on two explicit
/// stacks, so a message nested as deep as memory allows (built in code: decoded messages are
/// bounded by the decoders' depth limits) is validated in time and stack linear in its size. The
/// frames alternate (a message's merger elem, that merger's messages, …), so the top frame is a
/// message's when there are more message frames than merger frames.
struct Validator {
    /// The profile, borrowed for the run (``violations(of:profile:)``): a copy would retain each of
    /// its strings and sets, and release them after, on every message validated.
    private let profilePointer: UnsafePointer<ValidationProfile>
    private var profile: ValidationProfile { unsafeAddress { profilePointer } }
    private(set) var violations: [Violation] = []
    private var path = FieldPath()

    private init(profile: UnsafePointer<ValidationProfile>) {
        profilePointer = profile
    }

    /// Every violation of `profile` in `message` (``Message/validate(profile:)``).
    static func violations<M: ValidatedMessage>(of message: M, profile: borrowing ValidationProfile) -> [Violation] {
        withUnsafePointer(to: profile) { profile in
            var validator = Validator(profile: profile)
            validator.validate(message)
            return validator.violations
        }
    }

    /// A message being walked: its next elem (position and index), the deepest merger among its
    /// elems so far, and the path mark of the elem whose merger is being walked.
    private struct MessageFrame<M: ValidatedMessage>: ChildWalk {
        let message: M
        /// `message.elems`, read once, and its count (a view's list counts by walking).
        let elems: M.Elems
        let count: Int
        let insideMerger: Bool
        var cursor: M.Elems.Index
        var next = 0
        var layers = 0
        var mark = 0

        init(message: M, elems: M.Elems, insideMerger: Bool) {
            self.message = message
            self.elems = elems
            count = elems.count
            self.insideMerger = insideMerger
            cursor = elems.startIndex
        }

        mutating func advance() {
            next += 1
            cursor = elems.index(after: cursor)
        }
    }

    /// A merger being walked: its next message (position and index), the most layers among its
    /// messages so far, where its nesting violation goes, and the path mark of the message being
    /// walked.
    private struct MergerFrame<M: ValidatedMessage>: ChildWalk {
        let messages: M.Merger.Messages
        let isTopLevel: Bool
        let nestingSlot: Int
        var cursor: M.Merger.Messages.Index
        var next = 0
        var layers = 0
        var mark = 0

        init(messages: M.Merger.Messages, isTopLevel: Bool, nestingSlot: Int) {
            self.messages = messages
            self.isTopLevel = isTopLevel
            self.nestingSlot = nestingSlot
            cursor = messages.startIndex
        }

        mutating func advance() {
            next += 1
            cursor = messages.index(after: cursor)
        }
    }

    /// Continues `frame` after its current child (an elem's merger, a merger's message), which
    /// finished with `layers` merger layers: back to the frame's path, on to its next child.
    private mutating func resume<Frame: ChildWalk>(_ frame: inout Frame, afterChildWith layers: Int) {
        path.pop(to: frame.mark)
        frame.layers = max(frame.layers, layers)
        frame.advance()
    }

    /// Validates `root` as the root of a run: in the order of a depth-first recursive walk (a
    /// message: its own rules, its elems, each merger's messages in turn; then its closing rules).
    mutating func validate<M: ValidatedMessage>(_ root: M) {
        var messageFrames = [beginMessage(root, insideMerger: false)]
        var mergerFrames: [MergerFrame<M>] = []
        // The merger layers of the frame that just finished, for the frame below it.
        var finished: Int? = nil
        while true {
            if messageFrames.count > mergerFrames.count {
                let top = messageFrames.count - 1
                if let layers = finished {
                    resume(&messageFrames[top], afterChildWith: layers)
                    finished = nil
                }
                let index = messageFrames[top].next
                if index < messageFrames[top].count {
                    let mark = path.push("elems", index: index)
                    let insideMerger = messageFrames[top].insideMerger
                    if let merger = validateElem(
                        messageFrames[top].elems[messageFrames[top].cursor], at: index,
                        chainLength: messageFrames[top].count, of: messageFrames[top].message, insideMerger: insideMerger)
                    {
                        messageFrames[top].mark = mark
                        mergerFrames.append(beginMerger(merger, isTopLevel: !insideMerger))
                    } else {
                        path.pop(to: mark)
                        messageFrames[top].advance()
                    }
                } else {
                    let frame = messageFrames.removeLast()
                    endMessage(frame.message, insideMerger: frame.insideMerger)
                    if messageFrames.isEmpty { return }
                    finished = frame.layers
                }
            } else {
                let top = mergerFrames.count - 1
                if let layers = finished {
                    resume(&mergerFrames[top], afterChildWith: layers)
                    finished = nil
                }
                if mergerFrames[top].cursor != mergerFrames[top].messages.endIndex {
                    mergerFrames[top].mark = path.push("messages", index: mergerFrames[top].next)
                    messageFrames.append(beginMessage(mergerFrames[top].messages[mergerFrames[top].cursor], insideMerger: true))
                } else {
                    finished = endMerger(mergerFrames.removeLast())
                }
            }
        }
    }

    // MARK: Messages

    /// The rules of one message (at the current path) that come before its elems; returns its frame.
    private mutating func beginMessage<M: ValidatedMessage>(_ message: M, insideMerger: Bool) -> MessageFrame<M> {
        checkUserID(message.sender, "sender")
        switch message.validatedTarget {
        case .receiver(let receiver)?:
            checkUserID(receiver, "receiver")
            // The sender may be empty while a message is built; when both are set they can be compared.
            if profile.forbidsMessageToSelf, !receiver.isEmpty, receiver == message.sender {
                report(.messageToSelf, "receiver", limit: .text("other_than_sender"), actual: .text(receiver.owned),
                       "a one-to-one message to its own sender; \(profile.name) refuses it (ZIM error 6000001)")
            }
        case .roomID? where profile.forbidsRoomTarget:
            report(.targetNotSupported, "room_id", limit: .text("receiver|group_id"), actual: .text("room_id"),
                   "\(profile.name) has no room target; a live room (Tencent AVChatRoom) is a group: use group_id")
        default:
            break
        }
        if let allowed = profile.allowedPriorities, !allowed.contains(message.priority) {
            let names = allowed.sorted { $0.rawValue < $1.rawValue }.map(Self.name(of:)).joined(separator: "|")
            let actual = Self.name(of: message.priority)
            report(.priorityNotSupported, "priority", limit: .text(names), actual: .text(actual),
                   "priority \(actual) has no \(profile.name) value; allowed: \(names)")
        }

        let elems = message.elems
        let frame = MessageFrame(message: message, elems: elems, insideMerger: insideMerger)
        validateChain(message, elems, count: frame.count, isRoot: !insideMerger)
        return frame
    }

    /// The rules of one message that come after its elems.
    private mutating func endMessage<M: ValidatedMessage>(_ message: M, insideMerger: Bool) {
        validateMentions(message)
        validateBarrage(message)
        validateSignal(message, insideMerger: insideMerger)
    }

    /// Rules about the chain as a whole, reported at `elems`.
    private mutating func validateChain<M: ValidatedMessage>(_ message: M, _ elems: M.Elems, count: Int, isRoot: Bool) {
        if profile.requiresElems && elems.isEmpty && message.validatedSignal == nil {
            report(.elemChainEmpty, "elems", limit: .integer(1), actual: .integer(0),
                   "the message has no elem; \(profile.name) needs at least 1")
        }
        if isRoot, let limit = profile.maxContentBytes {
            checkAtMost(message.contentSize, limit, .contentTooLarge, "elems",
                        subject: "message content (string and bytes fields of every elem, merged messages included) is",
                        unit: "byte")
        }
        checkAtMost(count, profile.maxElems, .tooManyElems, "elems", subject: "the chain has", unit: "elem")

        var custom = 0, image = 0, file = 0, sound = 0, video = 0
        for elem in elems {
            switch elem.kind {
            case .custom?: custom += 1
            case .image?: image += 1
            case .file?: file += 1
            case .sound?: sound += 1
            case .video?: video += 1
            default: break
            }
        }
        // One call each, not a loop over a table: the table would be an array made for every message.
        checkAtMost(custom, profile.maxCustomElems, .tooManyCustomElems, "elems", subject: "the chain has", unit: "custom elem")
        checkAtMost(image, profile.maxImageElems, .tooManyImageElems, "elems", subject: "the chain has", unit: "image elem")
        checkAtMost(file, profile.maxFileElems, .tooManyFileElems, "elems", subject: "the chain has", unit: "file elem")
        checkAtMost(sound, profile.maxSoundElems, .tooManySoundElems, "elems", subject: "the chain has", unit: "sound elem")
        checkAtMost(video, profile.maxVideoElems, .tooManyVideoElems, "elems", subject: "the chain has", unit: "video elem")
    }

    /// `at_user_list` and `targeted_receivers`.
    private mutating func validateMentions<M: ValidatedMessage>(_ message: M) {
        let target = Self.targetName(message.validatedTarget)
        let needsGroup = profile.mentionsRequireGroup && target != "group_id"

        let atUsers = message.atUserList
        let targeted = message.targetedReceivers
        if !atUsers.isEmpty {
            if needsGroup {
                report(.atUsersRequireGroup, "at_user_list", limit: .text("group_id"), actual: .text(target),
                       "an @ list needs a group message; the target is \(target)")
            }
            checkAtMost(atUsers.count, profile.maxAtUsers, .tooManyAtUsers, "at_user_list",
                        subject: "the @ list (@all included) has", unit: "entry")
            if profile.forbidsAtUsersWithTargetedReceivers && !targeted.isEmpty {
                report(.atUsersWithTargetedReceivers, "at_user_list", limit: .integer(0),
                       actual: .integer(UInt64(atUsers.count)),
                       "a targeted group message (\(counted(targeted.count, "targeted receiver"))) cannot carry an @ list"
                           + " (\(counted(atUsers.count, "entry")))")
            }
            if profile.atUsersRequireText, message.elems.first?.kind != .text {
                let actual = Self.kindName(of: message.elems.first)
                report(.atUsersRequireText, "at_user_list", limit: .text("text"), actual: .text(actual),
                       "only text @ messages are supported; the first elem is \(actual)")
            }
            // @all, in either spelling, names no user.
            for (index, id) in atUsers.enumerated() where !Self.isAtAll(id) {
                checkUserID(id, "at_user_list", index: index)
            }
        }

        if !targeted.isEmpty {
            if needsGroup {
                report(.targetedReceiversRequireGroup, "targeted_receivers", limit: .text("group_id"),
                       actual: .text(target), "targeted receivers need a group message; the target is \(target)")
            }
            checkAtMost(targeted.count, profile.maxTargetedReceivers, .tooManyTargetedReceivers,
                        "targeted_receivers", subject: "the targeted receiver list has", unit: "entry")
            for (index, id) in targeted.enumerated() { checkUserID(id, "targeted_receivers", index: index) }
        }
    }

    /// A barrage (``Message/barrage``): one text elem, to a room.
    private mutating func validateBarrage<M: ValidatedMessage>(_ message: M) {
        guard message.barrage, profile.barrageRequiresRoomText else { return }
        if case .roomID? = message.validatedTarget {} else {
            let target = Self.targetName(message.validatedTarget)
            report(.barrageRequiresRoom, "barrage", limit: .text("room_id"), actual: .text(target),
                   "a barrage is an in-room message; the target is \(target)")
        }
        let kinds = message.elems.map { Self.kindName(of: $0) }
        if kinds != ["text"] {
            let actual = kinds.isEmpty ? "none" : kinds.joined(separator: "|")
            report(.barrageRequiresText, "barrage", limit: .text("text"), actual: .text(actual),
                   "a barrage is one text elem; the chain is \(actual)")
        }
    }

    /// A recall notice or read receipt: alone, naming its message, to the right kind of target.
    private mutating func validateSignal<M: ValidatedMessage>(_ message: M, insideMerger: Bool) {
        guard let signal = message.validatedSignal else { return }
        let member: StaticString, neededTarget: String?
        let msgIDText: M.Text?
        switch signal {
        case .recallNotice(let notice, _):
            (member, msgIDText, neededTarget) = ("recall_notice", notice, nil)
        case .groupReadReceipt(let receipt):
            (member, msgIDText, neededTarget) = ("group_read_receipt", receipt, "group_id")
        case .c2cReadReceipt:
            (member, msgIDText, neededTarget) = ("c2c_read_receipt", nil, "receiver")
        }
        let field = member.description
        if insideMerger && profile.forbidsSignalsInMerger {
            report(.signalNotAllowedInMerger, field, limit: .text("elems"), actual: .text(field),
                   "messages inside a merger are sent messages; a \(field) is a signal about other messages")
        }
        if profile.signalsStandAlone && !message.elems.isEmpty {
            let count = message.elems.count
            report(.signalNotStandalone, field, limit: .integer(0), actual: .integer(UInt64(count)),
                   "a message carrying a \(field) has no elems; it has \(count)")
        }
        if profile.receiptsRequireMatchingTarget, let neededTarget {
            let target = Self.targetName(message.validatedTarget)
            if target != neededTarget {
                report(.signalTargetMismatch, field, limit: .text(neededTarget), actual: .text(target),
                       "a \(field) goes to a \(neededTarget) conversation; the target is \(target)")
            }
        }
        let mark = path.push(member)
        defer { path.pop(to: mark) }
        if profile.signalsRequireMsgID, let msgIDText, msgIDText.isEmpty {
            report(.signalMsgIDMissing, "msg_id", limit: .integer(1), actual: .integer(0),
                   "a \(field) names the message it is about; msg_id is empty")
        }
        switch signal {
        case .recallNotice(_, let recalledBy): checkUserID(recalledBy, "recalled_by")
        case .c2cReadReceipt(let userID): checkUserID(userID, "user_id")
        case .groupReadReceipt: break
        }
    }

    // MARK: Elems

    /// Validates the elem at the current path (`…elems[index]`), one of `chainLength` elems of
    /// `message`. A merger elem is returned, with its kind pushed on the path
    /// (`…elems[index].merger`), for the caller to walk.
    private mutating func validateElem<M: ValidatedMessage>(
        _ elem: M.ElemType, at index: Int, chainLength: Int, of message: M, insideMerger: Bool
    ) -> M.Merger? {
        let kind = elem.kind
        var kindName: String { kind?.rawValue ?? "" }  // for reports only

        // One chain rule per elem: a standalone kind in a longer chain is that, not also "not appendable".
        if let kind, profile._standaloneElemKinds.contains(kind), chainLength > 1 {
            report(.elemNotStandalone, kindName, limit: .integer(1), actual: .integer(UInt64(chainLength)),
                   "\(Self.phrase(for: elem)) must be the only elem of its message; the chain has \(chainLength)")
        } else if index > 0, let allowed = profile._appendableElemKinds, !(kind.map(allowed.contains) ?? false) {
            let actual = Self.kindName(of: elem)
            report(.elemNotAppendable, kindName, limit: .text(Self.names(of: allowed.kinds)), actual: .text(actual),
                   "elems after the first may only be \(Self.names(of: allowed.kinds)); elem \(index) is \(actual)")
        }
        if let supported = profile._supportedElemKinds, !(kind.map(supported.contains) ?? false) {
            let supported = supported.kinds
            let actual = Self.kindName(of: elem)
            report(.elemKindNotSupported, kindName, limit: .text(Self.names(of: supported)), actual: .text(actual),
                   "\(profile.name) has no message type for \(Self.phrase(for: elem)); it has \(supported.isEmpty ? "none" : Self.names(of: supported))")
        }
        if insideMerger, let kind, profile._elemKindsNotAllowedInMerger.contains(kind) {
            let allowed = Set(ElemKind.allCases).subtracting(profile.elemKindsNotAllowedInMerger)
            report(.elemNotAllowedInMerger, kindName, limit: .text(Self.names(of: allowed)), actual: .text(kindName),
                   "messages inside a merger may not contain \(Self.phrase(for: elem))")
        }

        guard let content = elem.validatedContent else { return nil }
        if case .merger(let merger) = content {
            _ = path.push(elem.kind!)
            return merger
        }
        let mark = path.push(elem.kind!)
        defer { path.pop(to: mark) }
        switch content {
        case .text(let text):
            let bytes = text.utf8Count
            if message.barrage {
                checkAtMost(bytes, profile.maxBarrageBytes, .barrageTooLarge, "text",
                            subject: "the text of a barrage is", unit: "byte")
            } else {
                checkAtMost(bytes, profile.maxTextBytes, .textTooLarge, "text", subject: "the text is", unit: "byte")
            }
        case .custom(let data):
            checkAtMost(data.count, profile.maxCustomDataBytes, .customDataTooLarge, "data",
                        subject: "custom data is", unit: "byte")
            if profile.requiresTUIKitCustomData,
               let problem = TUIKitCustomPayload.problem(inCustomData: data as? [UInt8] ?? Array(data)) {
                report(.customDataNotTUIKit, "data", limit: .text("businessID"), actual: .text(problem.code),
                       "TUIKit custom data is a JSON object with a non-empty string businessID; \(problem.reason)")
            }
        case .image(let format, let images):
            validateImage(format: format, images: images)
        case .sound(let dataSize, let duration, let format):
            checkAtMost(dataSize, profile.maxSoundBytes, .soundTooLarge, "data_size",
                        subject: "the sound is", unit: "byte")
            checkAtMost(duration, profile.maxSoundSeconds, .soundTooLong, "duration",
                        subject: "the sound lasts", unit: "second")
            checkFormat(format, profile.allowedSoundFormats, .soundFormatNotAllowed, "format", subject: "sound")
        case .video(let videoSize, let videoFormat):
            checkAtMost(videoSize, profile.maxVideoBytes, .videoTooLarge, "video_size",
                        subject: "the video is", unit: "byte")
            checkFormat(videoFormat, profile.allowedVideoFormats, .videoFormatNotAllowed, "video_format",
                        subject: "video")
        case .file(let fileSize):
            checkAtMost(fileSize, profile.maxFileBytes, .fileTooLarge, "file_size",
                        subject: "the file is", unit: "byte")
        case .location(let longitude, let latitude):
            checkRange(longitude, bound: 180, .longitudeOutOfRange, "longitude")
            checkRange(latitude, bound: 90, .latitudeOutOfRange, "latitude")
        case .face:
            break
        case .groupTips(let tips):
            validateGroupTips(tips)
        case .merger:
            break  // returned above
        case .groupSystem(let opUser, let opMemberUserID, let platform, let opUserInfoUserID):
            checkUserID(opUser, "op_user")
            if let opMemberUserID { checkUserID(opMemberUserID, "op_member", leaf: "user_id") }
            checkPlatform(platform)
            if let opUserInfoUserID { checkUserID(opUserInfoUserID, "op_user_info", leaf: "user_id") }
        }
        return nil
    }

    private mutating func validateImage<Images: Collection>(format: ImageFormat, images: Images)
    where Images.Element: ValidatedImageInfo {
        if let allowed = profile.allowedImageFormats, !allowed.contains(format) {
            let names = allowed.sorted { $0.rawValue < $1.rawValue }.map(Self.name(of:)).joined(separator: "|")
            let actual = Self.name(of: format)
            report(.imageFormatNotAllowed, "format", limit: .text(names), actual: .text(actual),
                   "image format \(actual) is not one of \(names)")
        }
        // Whether a type repeats, by a mask of the types seen (0 to 63): the counts behind a
        // duplicate's report are made only when one is there, not for every image elem.
        var seenTypes: UInt64 = 0
        let repeats = images.contains { info in
            guard (0..<64).contains(info.type.rawValue) else { return true }  // counted below
            let bit: UInt64 = 1 << UInt64(info.type.rawValue)
            defer { seenTypes |= bit }
            return seenTypes & bit != 0
        }
        var counts: [ImageType: Int] = [:]
        if repeats {
            for info in images { counts[info.type, default: 0] += 1 }
        }
        var seen: Set<ImageType> = []
        for (index, info) in images.enumerated() {
            checkAtMost(info.size, profile.maxImageBytes, .imageTooLarge, "images", index: index, leaf: "size",
                        subject: "image \(index) is", unit: "byte")
            // Reported once per type: the second Image of a type is the first duplicate.
            if repeats, !seen.insert(info.type).inserted, let count = counts.removeValue(forKey: info.type) {
                violations.append(Violation(
                    code: .duplicateImageType, path: path.rendered("images", index: index) + ".type",
                    limit: .integer(1), actual: .integer(UInt64(count)),
                    reason: "an image elem may hold one Image per type; type \(info.type) appears \(counted(count, "time"))"))
            }
        }
    }

    private mutating func validateGroupTips<Tips: ValidatedGroupTips>(_ tips: Tips) {
        if let member = tips.opMember { checkUserID(member.userID, "op_member", leaf: "user_id") }
        for (index, member) in tips.memberList.enumerated() {
            checkUserID(member.userID, "member_list", index: index, leaf: "user_id")
        }
        for (index, change) in tips.groupChangeList.enumerated() {
            let limit: Int?, code: Violation.Code, subject: String
            switch change.type {
            case .name:
                (limit, code, subject) = (profile.maxGroupNameBytes, .groupNameTooLong, "the group name is")
            case .introduction:
                (limit, code, subject) = (profile.maxGroupIntroductionBytes, .groupIntroductionTooLong,
                                          "the group introduction is")
            case .notification:
                (limit, code, subject) = (profile.maxGroupNotificationBytes, .groupNotificationTooLong,
                                          "the group notification is")
            case .faceURL:
                (limit, code, subject) = (profile.maxGroupFaceURLBytes, .groupFaceURLTooLong, "the group face URL is")
            case .owner:
                (limit, code, subject) = (profile.maxUserIDBytes, .userIDTooLong, "the new owner's user ID is")
            default:
                continue
            }
            checkAtMost(change.value.utf8Count, limit, code, "group_change_list", index: index, leaf: "value",
                        subject: subject, unit: "byte")
        }
        for (index, change) in tips.memberChangeList.enumerated() {
            checkUserID(change.userID, "member_change_list", index: index, leaf: "user_id")
        }
        checkAtMost(tips.groupName.utf8Count, profile.maxGroupNameBytes, .groupNameTooLong, "group_name",
                    subject: "the group name is", unit: "byte")
        checkPlatform(tips.platform)
        if let userInfo = tips.opUserInfo { checkUserID(userInfo.userID, "op_user_info", leaf: "user_id") }
        for (index, changed) in tips.changedUserInfoList.enumerated() {
            checkUserID(changed.userID, "changed_user_info_list", index: index, leaf: "user_id")
        }
        for (index, changed) in tips.changedGroupMemberInfoList.enumerated() {
            checkUserID(changed.userID, "changed_group_member_info_list", index: index, leaf: "user_id")
        }
    }

    /// The rules of a merger elem at the current path (`…elems[i].merger`) that come before its
    /// messages; returns its frame.
    private mutating func beginMerger<M: ValidatedMessage>(_ merger: M.Merger, isTopLevel: Bool) -> MergerFrame<M> {
        // The nesting violation belongs before everything inside the merger, but its depth is
        // known only after its messages are walked (``endMerger(_:)``).
        let nestingSlot = violations.count

        checkAtMost(merger.abstractList.count, profile.maxMergerAbstracts, .tooManyMergerAbstracts, "abstract_list",
                    subject: "the abstract list has", unit: "abstract")
        if let limit = profile.maxMergerAbstractLength {
            for (index, abstract) in merger.abstractList.enumerated() {
                checkAtMost(abstract.utf16Count, limit, .mergerAbstractTooLong, "abstract_list", index: index,
                            subject: "abstract \(index) is", unit: "UTF-16 code unit")
            }
        }
        checkAtMost(merger.messages.count, profile.maxMergerMessages, .tooManyMergerMessages, "messages",
                    subject: "the merger has", unit: "message")
        // A merger sent by download key carries its count in msg_num: the same limit applies.
        if !merger.jsonMsgKey.isEmpty {
            checkAtMost(merger.msgNum, profile.maxMergerMessages, .tooManyMergerMessages, "msg_num",
                        subject: "the merger's download key stands for", unit: "message")
            if profile.forbidsMergerKeyWithMessages, !merger.messages.isEmpty {
                let count = merger.messages.count
                report(.mergerKeyWithMessages, "messages", limit: .integer(0), actual: .integer(UInt64(count)),
                       "a merger sent by download key (json_msg_key) carries no inline messages, as Tencent REST's"
                           + " TIMRelayElem has MsgList or JsonMsgKey; this one has \(counted(count, "message"))")
            }
        }

        return MergerFrame(messages: merger.messages, isTopLevel: isTopLevel, nestingSlot: nestingSlot)
    }

    /// Closes a merger whose messages have been walked (the path is back at `…elems[i].merger`):
    /// its nesting violation, if it is the top-level one; returns its layers.
    private mutating func endMerger<M: ValidatedMessage>(_ frame: MergerFrame<M>) -> Int {
        let layers = frame.layers + 1
        if frame.isTopLevel, let limit = profile.maxMergerLayers, layers > limit {
            let violation = Violation(
                code: .mergerNestingTooDeep, path: path.rendered(), limit: .integer(UInt64(max(0, limit))),
                actual: .integer(UInt64(layers)),
                reason: "merger elems are nested \(counted(layers, "layer")) deep; \(profile.name) allows at most \(limit)")
            violations.insert(violation, at: frame.nestingSlot)
        }
        return layers
    }

    // MARK: Checks

    /// A legacy TIM operator platform: empty, or one of ``ValidationProfile/allowedPlatforms``.
    private mutating func checkPlatform<Text: ValidatedString>(_ platformText: Text) {
        guard let allowed = profile.allowedPlatforms, !platformText.isEmpty else { return }
        let platform = platformText.owned
        guard !allowed.contains(platform) else { return }
        let names = TIMPlatform.allCases.map(\.rawValue).filter(allowed.contains)
            + allowed.subtracting(TIMPlatform.allCases.map(\.rawValue)).sorted()
        report(.platformNotRecognized, "platform", limit: .text(names.joined(separator: "|")), actual: .text(platform),
               "platform \"\(platform)\" is not one of \(names.joined(separator: ", "))")
    }

    private mutating func checkUserID<Text: ValidatedString>(_ id: Text, _ field: String, index: Int? = nil, leaf: String? = nil) {
        checkAtMost(id.utf8Count, profile.maxUserIDBytes, .userIDTooLong, field, index: index, leaf: leaf,
                    subject: "the user ID is", unit: "byte")
    }

    /// Reports `code` at `field[index].leaf` when `actual` is above `limit` (nothing when `limit`
    /// is `nil`; a negative limit allows nothing above 0). `subject` ends with its verb: "the text
    /// is", "the chain has"; `unit` is the noun of one (`byte`), made plural as the count needs.
    private mutating func checkAtMost(
        _ actual: some BinaryInteger, _ limit: Int?, _ code: Violation.Code, _ field: String, index: Int? = nil,
        leaf: String? = nil, subject: String, unit: String
    ) {
        guard let limit else { return }
        let bound = UInt64(max(0, limit))
        let value = UInt64(clamping: actual)
        guard value > bound else { return }
        var location = path.rendered(field, index: index)
        if let leaf { location += "." + leaf }
        violations.append(Violation(
            code: code, path: location, limit: .integer(bound), actual: .integer(value),
            reason: "\(subject) \(counted(value, unit)); \(profile.name) allows at most \(bound)"))
    }

    /// Reports `code` when `format`, ASCII-lowercased, is not in `allowed` (an empty format never is).
    private mutating func checkFormat<Text: ValidatedString>(
        _ formatText: Text, _ allowed: Set<String>?, _ code: Violation.Code, _ field: String, subject: String
    ) {
        guard let allowed else { return }
        let format = formatText.owned
        let lowered = String(decoding: format.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        guard !allowed.contains(lowered) else { return }
        let names = allowed.sorted().joined(separator: "|")
        let found = format.isEmpty ? "is empty" : "\"\(format)\" is not allowed"
        report(code, field, limit: .text(names), actual: .text(format), "\(subject) format \(found); allowed: \(names)")
    }

    /// Always on: a finite value in [-bound, bound] degrees.
    private mutating func checkRange(_ value: Double, bound: Int, _ code: Violation.Code, _ field: String) {
        guard !(value.isFinite && abs(value) <= Double(bound)) else { return }
        report(code, field, limit: .text("[-\(bound),\(bound)]"), actual: .real(value),
               "\(field) \(value) is not a finite number of degrees in [-\(bound), \(bound)]")
    }

    private mutating func report(
        _ code: Violation.Code, _ leaf: String, limit: Violation.Value, actual: Violation.Value, _ reason: String
    ) {
        violations.append(Violation(code: code, path: path.rendered(leaf), limit: limit, actual: actual, reason: reason))
    }

    // MARK: Names

    /// Whether `id` is the @all ID, in either spelling (``Message/isAtAllUserID(_:)``).
    private static func isAtAll<Text: ValidatedString>(_ id: Text) -> Bool {
        let count = id.utf8Count
        guard count == Message.atAllUserID.utf8.count || count == Message.atAllUserIDAlternateSpelling.utf8.count else {
            return false
        }
        return Message.isAtAllUserID(id.owned)
    }

    /// `text|custom|…` in ``ElemKind`` declaration order.
    private static func names(of kinds: Set<ElemKind>) -> String {
        ElemKind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: "|")
    }

    /// `JPG`, `OTHER`, `UNSPECIFIED`, or the number of an unrecognized format.
    private static func name(of format: ImageFormat) -> String {
        let name = format.description
        let prefix = "IMAGE_FORMAT_"
        return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
    }

    /// `HIGH`, `DEFAULT`, or the number of an unrecognized priority.
    private static func name(of priority: Priority) -> String {
        let name = priority.description
        let prefix = "PRIORITY_"
        return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
    }

    /// `an image elem`, `a group_tips elem`, or `an elem without content` (a kind this schema does not know).
    private static func phrase<E: ValidatedElem>(for elem: E) -> String {
        elem.kind.map { withArticle($0.rawValue) + " elem" } ?? "an elem without content"
    }

    /// The proto name of the elem's content member, or `none` (no elem, or no content this schema knows).
    private static func kindName<E: ValidatedElem>(of elem: E?) -> String {
        elem?.kind?.rawValue ?? "none"
    }

    /// The proto name of the target's field, or `none`.
    private static func targetName<Text>(_ target: ValidatedTarget<Text>?) -> String {
        switch target {
        case .receiver?: "receiver"
        case .groupID?: "group_id"
        case .roomID?: "room_id"
        case nil: "none"
        }
    }
}

/// Where the validator's walk is among a frame's children: the index of the next one, the most
/// merger layers among those walked, and the path mark of the one being walked.
private protocol ChildWalk {
    var next: Int { get set }
    /// On to the next child.
    mutating func advance()
    var layers: Int { get set }
    var mark: Int { get set }
}
