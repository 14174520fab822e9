#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The testee side of the protocol: reads framed ``ConformanceRequest``s from a file descriptor and
/// writes one framed ``ConformanceResponse`` for each, until end of input. `imwire testee` runs it
/// on stdin/stdout with ``SwiftCodecTestee``.
public enum TesteeServer {
    /// How serving ended.
    public enum Ending: Sendable, Equatable {
        /// End of input between frames: the normal end.
        case endOfInput
        /// End of input inside a frame, a length beyond ``Framing/maxFrameSize``, or a read or write
        /// error; the message says which.
        case failed(String)
    }

    /// Serves requests from `input` to `output` until end of input. A frame that does not decode as
    /// a ConformanceRequest is answered with `runtime_error`; the framing stays intact.
    public static func serve(
        input: Int32 = 0, output: Int32 = 1, handler: (ConformanceRequest) -> ConformanceResponse
    ) -> Ending {
        while true {
            var prefix: [UInt8] = []
            switch readExactly(4, from: input, into: &prefix) {
            case .complete: break
            case .endOfInput where prefix.isEmpty: return .endOfInput
            case .endOfInput: return .failed("end of input inside a length prefix (\(prefix.count) of 4 bytes)")
            case .error(let message): return .failed(message)
            }
            let length = Framing.length(prefix)
            guard length <= Framing.maxFrameSize else {
                return .failed("request frame of \(length) bytes is larger than the limit of \(Framing.maxFrameSize)")
            }
            var body: [UInt8] = []
            body.reserveCapacity(length)
            switch readExactly(length, from: input, into: &body) {
            case .complete: break
            case .endOfInput: return .failed("end of input inside a request frame (\(body.count) of \(length) bytes)")
            case .error(let message): return .failed(message)
            }
            let response: ConformanceResponse
            do {
                response = handler(try Framing.decode(ConformanceRequest.self, from: body))
            } catch {
                response = ConformanceResponse(result: .runtimeError("the request frame is not a ConformanceRequest: \(error)"))
            }
            if let message = writeAll(Framing.frame(Framing.encode(response)), to: output) {
                return .failed(message)
            }
        }
    }

    private enum ReadResult { case complete, endOfInput, error(String) }

    private static func readExactly(_ count: Int, from descriptor: Int32, into bytes: inout [UInt8]) -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: min(max(count, 1), 1 << 16))
        while bytes.count < count {
            let want = min(chunk.count, count - bytes.count)
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, want) }
            if got < 0 {
                if errno == EINTR { continue }
                return .error("read failed: \(String(cString: strerror(errno)))")
            }
            if got == 0 { return .endOfInput }
            bytes.append(contentsOf: chunk[0..<got])
        }
        return .complete
    }

    /// Writes everything; returns an error message on failure.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return "write failed: \(String(cString: strerror(errno)))"
            }
            offset += written
        }
        return nil
    }
}
