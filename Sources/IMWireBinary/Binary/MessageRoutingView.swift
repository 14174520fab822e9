import IMWireCore

/// A read-only view of a binary ``Message``'s envelope over borrowed bytes, for a relay that routes
/// messages and forwards their bytes unchanged.
///
/// Opening the view walks the message once and allocates nothing:
/// - **Checked like a full decode**: the framing of every top-level field (tags, varints, lengths,
///   groups, the depth limit), the framing of every elem's own fields, and the UTF-8 of the
///   envelope strings (`msg_id`, `sender`, the target, `topic_id`). An error here is the error a
///   full decode reports, at the same byte offset.
/// - **Not checked**: what lies inside an elem's content (a text elem's UTF-8, an image's fields, a
///   merged message), `offline_push_info`, the @ lists and `cloud_custom_data`. A message the view
///   accepts can still fail ``Message/init(serializedBytes:options:)-(Bytes,_)``: decode it in full
///   before trusting those parts; forwarding the bytes is the caller's choice.
///
/// Field semantics are the decoder's: the last occurrence of a scalar wins, the last member of a
/// oneof wins, a field with an unexpected wire type is an unknown field. Strings are made only
/// when their property is read; the `…UTF8` properties give the same bytes in place, without
/// making a `String` (a msg ID longer than 15 bytes would need a heap allocation).
///
/// ```swift
/// let (target, kind) = try Message.withRoutingView(serializedBytes: body) { view in
///     (view.target, view.primaryElemKind)
/// }
/// ```
public struct MessageRoutingView {
    private let base: UnsafePointer<UInt8>
    private let count: Int

    // Where the last occurrence of each envelope string is (empty when absent).
    private var msgIDRange = 0..<0
    private var senderRange = 0..<0
    private var topicIDRange = 0..<0
    private var targetRange = 0..<0
    /// The field number of the target oneof's last member (3 receiver, 4 group, 5 room), or 0.
    private var targetField = 0

    /// Unix time in milliseconds.
    public private(set) var timestampMs: UInt64 = 0
    public private(set) var seq: UInt64 = 0
    public private(set) var random: UInt64 = 0
    public private(set) var priority: Priority = .default
    public private(set) var needReadReceipt = false
    public private(set) var excludedFromUnreadCount = false
    public private(set) var excludedFromLastMessage = false
    public private(set) var onlineUserOnly = false
    public private(set) var supportMessageExtension = false
    /// How many elems the message has.
    public private(set) var elemCount = 0
    /// Whether offline push info is present (its fields are not read).
    public private(set) var hasOfflinePushInfo = false

    private let maxDepth: Int
    /// The content field number of the first ``packedKindCapacity`` elems, a byte each (0: no
    /// content this schema knows), so that ``elemKinds`` need not walk the bytes again.
    private var packedKinds: UInt64 = 0
    private static let packedKindCapacity = 8

    /// The envelope's field numbers (generated from the schema).
    fileprivate typealias Field = Message.FieldNumber

    @usableFromInline
    init(_ bytes: UnsafeBufferPointer<UInt8>, options: BinaryDecodingOptions) throws(IMWireError) {
        try BinaryDecoder.checkLimits(inputCount: bytes.count, options: options)
        base = bytes.readableBase
        count = bytes.count
        maxDepth = options.maxDepth
        var reader = BinaryDecoder(bytes, maxDepth: maxDepth)
        while let (number, wireType) = try reader.nextField() {
            if try !read(number, wireType, from: &reader) { try reader.skipCurrentField() }
        }
    }

    /// Walks the elem whose length prefix `reader` is at and returns the field number of its content:
    /// the last content member, as a decode's oneof keeps (0 when it has none this schema knows,
    /// which ``ElemKind/init(v2timElemType:)`` maps to `nil`).
    fileprivate static func contentField(ofElemAt reader: inout BinaryDecoder) throws(IMWireError) -> Int {
        let outer = try reader.enterMessage()
        var field = 0
        while let (member, memberType) = try reader.nextField() {
            if memberType == WireType.lengthDelimited, ElemKind(v2timElemType: member) != nil { field = member }
            try reader.skipCurrentField()
        }
        reader.leaveMessage(restoring: outer)
        return field
    }

    /// Reads envelope field `number`; `false` leaves it to be skipped (unknown, or a wire type that
    /// does not fit, as the decoder keeps it).
    private mutating func read(_ number: Int, _ wireType: UInt8, from reader: inout BinaryDecoder) throws(IMWireError) -> Bool {
        switch (number, wireType) {
        case (Field.msgID, WireType.lengthDelimited): msgIDRange = try reader.readStringRange()
        case (Field.sender, WireType.lengthDelimited): senderRange = try reader.readStringRange()
        case (Field.receiver...Field.roomID, WireType.lengthDelimited):
            targetRange = try reader.readStringRange()
            targetField = number
        case (Field.timestampMs, WireType.varint): timestampMs = try reader.readVarintValue()
        case (Field.seq, WireType.varint): seq = try reader.readVarintValue()
        case (Field.random, WireType.varint): random = try reader.readVarintValue()
        case (Field.priority, WireType.varint): priority = Priority(rawValue: Int32(truncatingIfNeeded: try reader.readVarintValue()))
        case (Field.elems, WireType.lengthDelimited):
            // The elem's own fields are walked (framing checked); its content is not decoded, but
            // its kind is noted.
            let kind = try Self.contentField(ofElemAt: &reader)
            if elemCount < Self.packedKindCapacity { packedKinds |= UInt64(kind) << (8 * elemCount) }
            elemCount += 1
        case (Field.offlinePushInfo, WireType.lengthDelimited):
            try reader.skipCurrentField()
            hasOfflinePushInfo = true
        case (Field.needReadReceipt, WireType.varint): needReadReceipt = try reader.readVarintValue() != 0
        case (Field.excludedFromUnreadCount, WireType.varint): excludedFromUnreadCount = try reader.readVarintValue() != 0
        case (Field.excludedFromLastMessage, WireType.varint): excludedFromLastMessage = try reader.readVarintValue() != 0
        case (Field.onlineUserOnly, WireType.varint): onlineUserOnly = try reader.readVarintValue() != 0
        case (Field.supportMessageExtension, WireType.varint): supportMessageExtension = try reader.readVarintValue() != 0
        case (Field.topicID, WireType.lengthDelimited): topicIDRange = try reader.readStringRange()
        default: return false
        }
        return true
    }

    private func string(_ range: Range<Int>) -> String {
        // [unsafe: wire-cursor] every range was returned by ``BinaryDecoder/readStringRange()`` (inside the
        // input) or is `0..<0`.
        String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    private func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        // [unsafe: wire-cursor] every range was returned by ``BinaryDecoder/readStringRange()`` (inside the
        // input) or is `0..<0`.
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    public var msgID: String { string(msgIDRange) }
    /// Sender user ID.
    public var sender: String { string(senderRange) }
    public var topicID: String { string(topicIDRange) }

    // The same strings as their UTF-8 bytes (validated), in place in the input: no `String` is
    // made, so nothing is allocated however long they are. Valid only inside the closure that
    // received the view, like the view itself.

    /// ``msgID`` as UTF-8, in place.
    public var msgIDUTF8: UnsafeBufferPointer<UInt8> { bytes(msgIDRange) }
    /// ``sender`` as UTF-8, in place.
    public var senderUTF8: UnsafeBufferPointer<UInt8> { bytes(senderRange) }
    /// ``topicID`` as UTF-8, in place.
    public var topicIDUTF8: UnsafeBufferPointer<UInt8> { bytes(topicIDRange) }
    /// The ID in ``target`` (receiver, group or room) as UTF-8, in place; empty when there is none.
    public var targetIDUTF8: UnsafeBufferPointer<UInt8> { bytes(targetField == 0 ? 0..<0 : targetRange) }

    /// The receiver, group or room, as a full decode gives it.
    public var target: Message.Target? {
        switch targetField {
        case Field.receiver: .receiver(string(targetRange))
        case Field.groupID: .groupID(string(targetRange))
        case Field.roomID: .roomID(string(targetRange))
        default: nil
        }
    }

    /// The kind of each elem in order (`nil` for an elem with no content this schema knows), read
    /// from the bytes as the sequence is iterated.
    public var elemKinds: ElemKinds {
        ElemKinds(base: base, count: count, maxDepth: maxDepth, packed: packedKinds, elemCount: elemCount)
    }

    /// The first elem's kind (the primary one), `nil` when there is no elem or it has no content.
    public var primaryElemKind: ElemKind? {
        var kinds = elemKinds.makeIterator()
        return kinds.next() ?? nil
    }

    /// The kinds of a message's elems: noted when the view was opened for the first few, walked
    /// lazily over the view's bytes for messages with more.
    public struct ElemKinds: Sequence {
        /// One elem's kind: `nil` for an elem with no content this schema knows, as ``Elem/kind``.
        public typealias Element = ElemKind?

        fileprivate let base: UnsafePointer<UInt8>
        fileprivate let count: Int
        fileprivate let maxDepth: Int
        fileprivate let packed: UInt64
        fileprivate let elemCount: Int

        public func makeIterator() -> Iterator {
            // [unsafe: wire-cursor] `base` and `count` are the view's input, which it walked and checked when
            // it was made.
            elemCount <= MessageRoutingView.packedKindCapacity
                ? Iterator(packed: packed, remaining: elemCount, reader: nil)
                : Iterator(packed: 0, remaining: 0, reader: BinaryDecoder(UnsafeBufferPointer(start: base, count: count), maxDepth: maxDepth))
        }

        public struct Iterator: IteratorProtocol {
            public typealias Element = ElemKind?

            fileprivate var packed: UInt64
            fileprivate var remaining: Int
            /// For messages with more elems than are noted: the bytes, walked again.
            fileprivate var reader: BinaryDecoder?

            /// The next elem's kind: the last content member in it, as a decode's oneof keeps.
            /// (The bytes were checked when the view was opened, so reading them again cannot fail.)
            public mutating func next() -> Element? {
                guard reader != nil else {
                    guard remaining > 0 else { return nil }
                    let number = Int(packed & 0xFF)
                    packed >>= 8
                    remaining -= 1
                    return .some(ElemKind(v2timElemType: number))
                }
                while let (number, wireType) = try? reader!.nextField() {
                    guard number == Field.elems, wireType == WireType.lengthDelimited,
                          let field = try? MessageRoutingView.contentField(ofElemAt: &reader!)
                    else {
                        try? reader!.skipCurrentField()
                        continue
                    }
                    return .some(ElemKind(v2timElemType: field))
                }
                return nil
            }
        }
    }
}

extension Message {
    /// Opens a ``MessageRoutingView`` on the binary message in `bytes` and passes it to `body`. The
    /// view borrows `bytes`: it must not escape `body`. Throws the ``IMWireError`` a full decode
    /// would for malformed framing or envelope strings (see ``MessageRoutingView`` for what is and
    /// is not checked), or what `body` throws.
    @inlinable
    public static func withRoutingView<Bytes: Collection, Result>(
        serializedBytes bytes: Bytes,
        options: BinaryDecodingOptions = .init(),
        _ body: (MessageRoutingView) throws -> Result
    ) throws -> Result where Bytes.Element == UInt8 {
        try withContiguousBytesRethrowing(bytes) { try body(try MessageRoutingView($0, options: options)) }
    }
}
