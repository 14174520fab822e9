/// An implementation under test: answers ``ConformanceRequest``s one at a time, in order.
///
/// ``InProcessTestee`` calls a Swift function; ``SubprocessTestee`` runs a program that speaks the
/// framed protocol on stdin/stdout and restarts it when it crashes, hangs or breaks the framing.
public protocol Testee: AnyObject {
    /// A short description for the report, e.g. `in-process Swift codec` or the command line.
    var description: String { get }
    /// Sends one request and waits at most `timeout` for the answer.
    func respond(to request: ConformanceRequest, timeout: Duration) -> TesteeOutcome
    /// Ends the testee (closes its input, waits briefly, then kills it). Further requests start it
    /// again.
    func shutdown()
}

/// What came of one request.
public struct TesteeOutcome: Sendable {
    /// What the testee did.
    public enum Kind: Sendable {
        /// A well-formed response.
        case response(ConformanceResponse)
        /// The testee died, or closed its output, before answering: the text says how (`it exited
        /// with status 1 before answering`). It is restarted for the next case.
        case crashed(String)
        /// No complete answer within the timeout. The testee is killed and restarted.
        case timedOut(Duration)
        /// The answer is not a frame holding a ConformanceResponse (a length prefix beyond the
        /// limit, bytes that do not decode, stray bytes): the text says what (`its 3-byte frame is
        /// not a ConformanceResponse (…)`). The testee is restarted.
        case malformedFrame(String)
        /// A well-framed ConformanceResponse that breaks a rule of the protocol (an error string that
        /// is not UTF-8): the text says which. The case fails; the testee is healthy and goes on.
        case invalidResponse(String)
    }

    /// What the testee did.
    public var kind: Kind
    /// What the testee wrote to stderr while it handled the request (the tail, if long).
    public var stderr: String

    /// An outcome of `kind`, with the testee's stderr for the case.
    public init(_ kind: Kind, stderr: String = "") {
        self.kind = kind
        self.stderr = stderr
    }
}

/// A testee that is a Swift function called in this process: the built-in codec
/// (``SwiftCodecTestee``), or a deliberately broken one in the suite's self-tests. It cannot crash,
/// hang or break the framing on its own; the timeout is not enforced.
public final class InProcessTestee: Testee {
    /// What the testee is, for the report.
    public let description: String
    private let handler: (ConformanceRequest) -> ConformanceResponse

    /// A testee that answers each request with `handler`.
    public init(description: String, handler: @escaping (ConformanceRequest) -> ConformanceResponse) {
        self.description = description
        self.handler = handler
    }

    /// The built-in Swift codec.
    public static func swiftCodec() -> InProcessTestee {
        InProcessTestee(description: "the built-in Swift codec (in-process)", handler: SwiftCodecTestee.respond(to:))
    }

    /// Calls the handler; `timeout` is not enforced.
    public func respond(to request: ConformanceRequest, timeout: Duration) -> TesteeOutcome {
        TesteeOutcome(.response(handler(request)))
    }

    /// Nothing to end.
    public func shutdown() {}
}
