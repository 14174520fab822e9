import IMWire
import IMWireConformance

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FuzzChecks {
    /// The conformance protocol's frame reader and the Swift testee behind it: any byte stream on
    /// the testee's stdin — truncated or oversized length prefixes, frames that are not
    /// ConformanceRequests, requests with any payload, output format and profile — must end in a
    /// clean ending (end of input, or a described failure) with every response well framed, and
    /// every response frame must decode as a ConformanceResponse.
    public static func conformanceFrames(_ bytes: [UInt8]) throws(Invariants.Violation) {
        guard let input = tmpfile(), let output = tmpfile() else { return }
        defer {
            fclose(input)
            fclose(output)
        }
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, input) }
        fflush(input)
        rewind(input)
        let ending = TesteeServer.serve(input: fileno(input), output: fileno(output)) { request in
            SwiftCodecTestee.respond(to: request)
        }
        if case .failed(let message) = ending, message.isEmpty {
            throw Invariants.Violation(description: "a failed ending without a description")
        }
        // Read back what the testee wrote: a sequence of complete frames, each a ConformanceResponse.
        fflush(output)
        rewind(output)
        let written = FuzzMain.readAll(output)
        var offset = 0
        while offset < written.count {
            guard written.count - offset >= 4 else { throw Invariants.Violation(description: "a truncated response prefix") }
            let length = Framing.length(written[offset..<(offset + 4)])
            guard written.count - offset - 4 >= length else { throw Invariants.Violation(description: "a truncated response frame") }
            let body = Array(written[(offset + 4)..<(offset + 4 + length)])
            do {
                _ = try Framing.decode(ConformanceResponse.self, from: body)
            } catch {
                throw Invariants.Violation(description: "a response frame is not a ConformanceResponse: \(error)")
            }
            offset += 4 + length
        }
    }
}
