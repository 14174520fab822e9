import IMWireCore

/// What a decode read past without putting it into the message: the keys of proto3 JSON (with
/// ``JSONDecodingOptions/ignoreUnknownFields``) and of tim-rest that the model has no place for,
/// each with its path, so that nothing is lost without a word.
///
/// Pass one to the decoders that take it — ``JSONMessage/init(jsonUTF8Bytes:options:report:)``,
/// ``Message/init(timRESTUTF8Bytes:options:report:)`` — and read ``skippedKeys`` afterwards:
///
/// ```swift
/// var report = DecodingReport()
/// let message = try Message(timRESTUTF8Bytes: body, report: &report)
/// for skipped in report.skippedKeys {
///     print(skipped)   // unknown_key: "From_account" is not a key of a C2C.CallbackAfterSendMsg body; did you mean "From_Account"? (at From_account)
/// }
/// ```
///
/// The decoders without a report skip the same keys and say nothing. Collecting costs nothing until
/// a key is skipped: a document with nothing to report decodes as fast, and allocates as much, as
/// without a report.
public struct DecodingReport: Hashable, Sendable {
    /// The keys skipped, in the order the decoder met them: document order within an object, a
    /// key that disagrees with another after the object's other keys.
    public var skippedKeys: [SkippedKey]

    /// A report holding `skippedKeys` (empty by default).
    public init(skippedKeys: [SkippedKey] = []) {
        self.skippedKeys = skippedKeys
    }

    /// Nothing was skipped.
    public var isEmpty: Bool { skippedKeys.isEmpty }
}
