import IMWire
import IMWireTIMREST

/// Invariants the fuzz targets check on whatever decodes, shared with the test suite, which
/// replays every kept fuzz finding (`Fixtures/fuzz-regressions/`) through the same checks.
public enum Invariants {
    /// A violated invariant.
    public struct Violation: Error, CustomStringConvertible {
        public var description: String
    }

    private static let encodeDepth = 10_000
    private static var lenientBinary: BinaryDecodingOptions { BinaryDecodingOptions(maxDepth: encodeDepth, maxInputSize: .max) }
    private static var lenientJSON: JSONDecodingOptions { JSONDecodingOptions(maxDepth: encodeDepth, maxInputSize: .max) }

    /// Binary canonical fixed point: encode → decode gives the same message, and encoding that
    /// again gives the same bytes. Returns the canonical bytes.
    @discardableResult
    public static func binaryFixedPoint(_ message: Message) throws(Violation) -> [UInt8] {
        let options = BinaryEncodingOptions(maxDepth: encodeDepth)
        guard let first = try? message.serializedBytes(options: options) else { throw Violation(description: "a decoded message does not encode") }
        guard let again = try? Message(serializedBytes: first, options: lenientBinary) else {
            throw Violation(description: "canonical bytes do not decode")
        }
        guard again == message else { throw Violation(description: "decode(encode(m)) != m") }
        guard let second = try? again.serializedBytes(options: options), second == first else {
            throw Violation(description: "binary encoding is not a fixed point")
        }
        return first
    }

    /// JSON and binary of the same value agree: the JSON of `message` decodes to the same message
    /// (minus unknown fields, which JSON cannot carry), is a fixed point, and survives a trip
    /// through binary unchanged.
    public static func jsonAgreesWithBinary(_ message: Message) throws(Violation) {
        let options = JSONEncodingOptions(maxDepth: encodeDepth)
        guard let json = try? message.jsonUTF8Bytes(options: options) else { throw Violation(description: "a decoded message has no JSON form") }
        guard let fromJSON = try? Message(jsonUTF8Bytes: json, options: lenientJSON) else {
            throw Violation(description: "canonical JSON does not decode: \(String(decoding: json, as: UTF8.self))")
        }
        guard let again = try? fromJSON.jsonUTF8Bytes(options: options), again == json else {
            throw Violation(description: "JSON encoding is not a fixed point")
        }
        if !message.containsUnknownFields, fromJSON != message {
            throw Violation(description: "the JSON round trip changed the message")
        }
        let binary = try binaryFixedPoint(fromJSON)
        guard let viaBinary = try? Message(serializedBytes: binary, options: lenientBinary),
              let viaBinaryJSON = try? viaBinary.jsonUTF8Bytes(options: options), viaBinaryJSON == json else {
            throw Violation(description: "binary and JSON of the same value disagree")
        }
    }

    /// A decoding error must name a byte offset inside the input (or a path).
    /// A decoded value changed (which copies its fields out of the decoder's storage into its own)
    /// is the same value: equal, with the same hash and the same encodings.
    public static func changedCopyAgrees(_ message: Message) throws(Violation) {
        var changed = message
        changed.unknownFields = message.unknownFields
        if !changed.elems.isEmpty { changed.elems[0].unknownFields = message.elems[0].unknownFields }
        guard changed == message, message == changed, changed.hashValue == message.hashValue else {
            throw Violation(description: "a changed copy of a decoded message is not equal to it")
        }
        let options = BinaryEncodingOptions(maxDepth: encodeDepth)
        guard (try? changed.serializedBytes(options: options)) == (try? message.serializedBytes(options: options)) else {
            throw Violation(description: "a changed copy of a decoded message encodes differently")
        }
        let json = JSONEncodingOptions(maxDepth: encodeDepth)
        guard (try? changed.jsonUTF8Bytes(options: json)) == (try? message.jsonUTF8Bytes(options: json)) else {
            throw Violation(description: "a changed copy of a decoded message writes different JSON")
        }
    }

    public static func wellFormedError(_ error: IMWireError, inputCount: Int) throws(Violation) {
        if error.path != nil { return }
        guard let offset = error.offset, offset >= 0, offset <= inputCount else {
            throw Violation(description: "error without a location inside the input: \(error)")
        }
    }
}

/// One check per fuzz target: decode `bytes` in that format and check the invariants.
public enum FuzzChecks {
    public static func binary(_ bytes: [UInt8]) throws(Invariants.Violation) {
        try decoding(bytes) { () throws in
            let message = try Message(serializedBytes: bytes)
            try Invariants.binaryFixedPoint(message)
            try Invariants.jsonAgreesWithBinary(message)
            try Invariants.changedCopyAgrees(message)
        }
    }

    /// The vectorised UTF-8 validator: every implementation this processor has agrees with the
    /// standard library on validity and with a byte scan on "all ASCII", on the input and on the
    /// input without its first byte or two (other alignments, sequences cut at the front).
    public static func utf8(_ bytes: [UInt8]) throws(Invariants.Violation) {
        for drop in 0...min(2, bytes.count) {
            let input = Array(bytes.dropFirst(drop))
            let valid = String(validating: input, as: UTF8.self) != nil
            let expected: UTF8Validation.Result = !valid ? .invalid : input.allSatisfy { $0 < 0x80 } ? .ascii : .valid
            for implementation in UTF8Validation.Implementation.allCases where implementation.isAvailable {
                let found = input.withUnsafeBufferPointer { UTF8Validation.check($0, with: implementation) }
                guard found == expected else {
                    throw Invariants.Violation(description: "\(implementation) says \(found), the standard library \(expected)")
                }
            }
            let found = input.withUnsafeBufferPointer { UTF8Validation.check($0) }
            guard found == expected else {
                throw Invariants.Violation(description: "check says \(found), the standard library \(expected)")
            }
        }
    }

    /// Runs a target's `body`: an invariant violation stops the fuzzer; a decoding error must be
    /// located inside the input; any other error is a violation too.
    static func decoding(_ bytes: [UInt8], _ body: () throws -> Void) throws(Invariants.Violation) {
        do {
            try body()
        } catch let error as IMWireError {
            try Invariants.wellFormedError(error, inputCount: bytes.count)
        } catch let violation as Invariants.Violation {
            throw violation
        } catch {
            throw Invariants.Violation(description: "unexpected error \(error)")
        }
    }

    public static func json(_ bytes: [UInt8]) throws(Invariants.Violation) {
        try decoding(bytes) { () throws in
            let message = try Message(jsonUTF8Bytes: bytes)
            try Invariants.jsonAgreesWithBinary(message)
            try Invariants.binaryFixedPoint(message)
        }
        try jsonView(bytes)
    }


    /// Tencent REST JSON: whatever decodes must satisfy the binary and JSON invariants; if it can
    /// be written back as REST, that output must decode to the same message and be a fixed point.
    /// And the one-pass reader answers only with the message the tape decoder reads.
    public static func timREST(_ bytes: [UInt8]) throws(Invariants.Violation) {
        try timRESTReaderAgreesWithTape(bytes)
        try decoding(bytes) { () throws in
            let message = try Message(timRESTUTF8Bytes: bytes)
            try Invariants.binaryFixedPoint(message)
            try Invariants.jsonAgreesWithBinary(message)
            let rest: [UInt8]
            do throws(IMWireError) {
                rest = try message.timRESTUTF8Bytes()
            } catch {
                // Refusing to write something REST cannot carry is allowed; anything else is not.
                guard error.code == .notRepresentable || error.code == .depthLimitExceeded else {
                    throw Invariants.Violation(description: "tim-rest export failed with \(error)")
                }
                return
            }
            guard let again = try? Message(timRESTUTF8Bytes: rest) else {
                throw Invariants.Violation(description: "canonical tim-rest does not decode: \(String(decoding: rest, as: UTF8.self))")
            }
            guard again == message else { throw Invariants.Violation(description: "tim-rest round trip changed the message") }
            guard let second = try? again.timRESTUTF8Bytes(), second == rest else {
                throw Invariants.Violation(description: "tim-rest encoding is not a fixed point")
            }
        }
    }

    /// Where the one-pass tim-rest reader answers, the tape decoder reads the same message; and
    /// where the tape decoder refuses the input, the reader does not answer.
    static func timRESTReaderAgreesWithTape(_ bytes: [UInt8]) throws(Invariants.Violation) {
        let (reader, tape) = bytes.withUnsafeBufferPointer { buffer in
            (TIMRESTReader.read(buffer, options: .init()),
             try? TIMRESTDecoder.decodeFromTape(buffer, options: .init(), skips: nil))
        }
        guard let reader else { return }
        guard let tape else {
            throw Invariants.Violation(description: "the one-pass tim-rest reader accepts what the tape decoder refuses")
        }
        guard reader == tape else {
            throw Invariants.Violation(description: "the one-pass tim-rest reader and the tape decoder read different messages")
        }
    }

    /// The message view over hostile bytes: it refuses exactly what a decode refuses, with the same
    /// error; what it accepts reads (every field of every type, through the owned copy, whose
    /// accessors read them all) the value a decode gives, and a walk of every string and list in
    /// place stays inside the input.
    public static func view(_ bytes: [UInt8]) throws(Invariants.Violation) {
        try viewAgreesWithDecode(bytes, decode: { () throws(IMWireError) in try Message(serializedBytes: bytes) }) { body in
            try Message.withView(serializedBytes: bytes, body)
        }
    }

    /// The differential target's check: every input read as binary and as proto3 JSON, each by its
    /// view and by its decoder, which must agree (``view(_:)`` and ``jsonView(_:)``).
    public static func differential(_ bytes: [UInt8]) throws(Invariants.Violation) {
        try view(bytes)
        try jsonView(bytes)
    }

    /// ``view(_:)`` for proto3 JSON bytes: the JSON view against a JSON decode.
    public static func jsonView(_ bytes: [UInt8]) throws(Invariants.Violation) {
        try viewAgreesWithDecode(bytes, decode: { () throws(IMWireError) in try Message(jsonUTF8Bytes: bytes) }) { body in
            try Message.withView(jsonUTF8Bytes: bytes, body)
        }
    }

    private static func viewAgreesWithDecode(
        _ bytes: [UInt8], decode: () throws(IMWireError) -> Message,
        view withView: ((Message.View) throws -> Message) throws -> Message
    ) throws(Invariants.Violation) {
        let decoded = Result { () throws(IMWireError) in try decode() }
        let viewed: Result<Message, IMWireError>
        do {
            viewed = .success(try withView { view in
                _ = walk(view)
                return Message(view)
            })
        } catch let error as IMWireError {
            viewed = .failure(error)
        } catch {
            throw Invariants.Violation(description: "the view threw \(error)")
        }
        switch (decoded, viewed) {
        case (.success(let message), .success(let copy)):
            guard message == copy else { throw Invariants.Violation(description: "the view reads another value than a decode") }
        case (.failure(let decodeError), .failure(let viewError)):
            guard decodeError == viewError else {
                throw Invariants.Violation(description: "the view refuses with \(viewError), a decode with \(decodeError)")
            }
            try Invariants.wellFormedError(viewError, inputCount: bytes.count)
        case (.success, .failure(let error)):
            throw Invariants.Violation(description: "the view refuses what a decode accepts: \(error)")
        case (.failure(let error), .success):
            throw Invariants.Violation(description: "the view accepts what a decode refuses: \(error)")
        }
    }

    /// Touches every byte of every string the view's envelope and elems hold (a read outside the
    /// input is an AddressSanitizer report under the fuzzer).
    private static func walk(_ view: Message.View) -> Int {
        var sum = view.msgID.reduce(0) { $0 &+ Int($1) } &+ view.sender.reduce(0) { $0 &+ Int($1) }
        for elem in view.elems {
            if case .text(let text)? = elem.content { sum &+= text.text.reduce(0) { $0 &+ Int($1) } }
            if case .merger(let merger)? = elem.content { for message in merger.messages { sum &+= walk(message) } }
        }
        for field in view.unknownFields { sum &+= field.reduce(0) { $0 &+ Int($1) } }
        return sum
    }

    /// Validation of whatever binary decodes: never traps, every violation has a code and a path,
    /// the result is deterministic and survives a binary round trip unchanged.
    public static func validation(_ bytes: [UInt8]) throws(Invariants.Violation) {
        guard let message = try? Message(serializedBytes: bytes) else { return }
        let canonical = try Invariants.binaryFixedPoint(message)
        guard let again = try? Message(serializedBytes: canonical) else { throw Invariants.Violation(description: "canonical bytes do not decode") }
        for profile in [ValidationProfile.tencent, .zim, .none] {
            let violations = message.validate(profile: profile)
            guard violations == message.validate(profile: profile) else {
                throw Invariants.Violation(description: "validation is not deterministic")
            }
            guard violations.allSatisfy({ !$0.path.isEmpty && !$0.code.name.isEmpty }) else {
                throw Invariants.Violation(description: "a violation without a code or path")
            }
            guard again.validate(profile: profile) == violations else {
                throw Invariants.Violation(description: "validation changed across a binary round trip")
            }
        }
    }
}
