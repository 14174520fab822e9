import IMWireCore
import IMWireBinary
import IMWireView
import IMWireTUIKit

extension Message {
    /// Every way this message breaks `profile`'s limits or the always-on rules, in a
    /// stable order; empty when the message is valid.
    ///
    /// Decoding checks the wire format only; this is the separate, explicit step. It never throws
    /// and never changes the message. The always-on rules (location latitude in [-90, 90] and
    /// longitude in [-180, 180], both finite; at most one Image per ImageType) run for every
    /// profile, ``ValidationProfile/none`` included. Messages nested in merger elems are validated
    /// too, each against its own target.
    ///
    /// ```swift
    /// for violation in message.validate(profile: .tencent) {
    ///     print(violation.code.name, violation.path, violation.limit, violation.actual)
    /// }
    /// // content_too_large elems 12288 12301
    /// ```
    ///
    /// The order: within a message, `sender` and `receiver`, then the chain (`elems` as a whole,
    /// then each elem in order with its fields in field-number order and the messages of a merger,
    /// recursively), then `at_user_list`, then `targeted_receivers`.
    public func validate(profile: ValidationProfile) -> [Violation] {
        Validator.violations(of: self, profile: profile)
    }

    /// The message's content size in bytes as Tencent counts it against its 12 KB limit (server
    /// error 80002; ``ValidationProfile/maxContentBytes``): the UTF-8 bytes of every string and the
    /// length of every bytes value inside the elems — sub-messages, repeated fields and maps
    /// included, and the elems of messages nested in merger elems counted the same way. Envelope
    /// fields (`msg_id`, `sender`, the target, `cloud_custom_data`, `offline_push_info`, the @ lists)
    /// and unknown fields count nothing.
    public var contentByteCount: Int {
        Int(clamping: ContentSize.of(self))
    }
}

extension Message.View {
    /// ``Message/validate(profile:)`` of the message this view reads, read in place: the same
    /// violations in the same order, without building the message.
    public func validate(profile: ValidationProfile) -> [Violation] {
        Validator.violations(of: self, profile: profile)
    }

    /// ``Message/contentByteCount`` of the message this view reads.
    public var contentByteCount: Int { Int(clamping: ContentSize.of(self)) }
}

extension Message {
    /// Validates a binary message without decoding it into a `Message`: the bytes are read through
    /// the message view (<doc:ReadingWithoutCopying>), which checks them as a decode does, and the
    /// rules of `profile` run over the view. The result is ``validate(profile:)`` of the decoded
    /// message; an input a decode refuses throws the decode's error.
    @inlinable
    public static func validate<Bytes: Collection>(
        serializedBytes bytes: Bytes, options: BinaryDecodingOptions = .init(), profile: ValidationProfile
    ) throws(IMWireError) -> [Violation] where Bytes.Element == UInt8 {
        try withContiguousBytes(bytes) { (buffer) throws(IMWireError) in try _validate(buffer, options, profile) }
    }

    /// ``validate(serializedBytes:options:profile:)`` of contiguous bytes: not generic, so the
    /// view and the rules it runs are specialised here, once.
    @usableFromInline
    static func _validate(
        _ buffer: UnsafeBufferPointer<UInt8>, _ options: BinaryDecodingOptions, _ profile: ValidationProfile
    ) throws(IMWireError) -> [Violation] {
        do {
            return try withView(serializedBytes: buffer, options: options) { $0.validate(profile: profile) }
        } catch let error as IMWireError {
            throw error
        } catch {
            preconditionFailure("the view's body throws nothing: \(error)")
        }
    }
}
