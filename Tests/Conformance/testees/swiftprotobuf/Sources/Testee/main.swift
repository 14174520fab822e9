// imwire-testee-swift-protobuf: the IMWire conformance testee on apple/swift-protobuf 1.39.0, for Swift
// users who already speak protobuf through it and want to know whether it reads and writes the same
// messages as IMWire.
//
// It speaks the conformance protocol (Schemas/imwire/conformance/v1/conformance.proto, Docs/conformance.md):
// from standard input, frames of a 4-byte little-endian length and a ConformanceRequest in the binary
// format; to standard output, one framed ConformanceResponse per request. End of input before a frame
// starts ends it with status 0.
//
// A plain use of the library: `Message(serializedBytes:options:)` and `Message(jsonUTF8Bytes:options:)`
// to read, `serializedBytes(options:)` and `jsonUTF8Bytes()` to write, with the options the guide
// names — every nesting limit swift-protobuf exposes raised to 320 message levels (its binary and
// JSON decoders stop at 100 by default; its encoders have no limit), deterministic binary output,
// and the request's ignore-unknown-fields for JSON. It never looks at test_name. swift-protobuf has no
// tim-rest dialect and no IMWire validation profiles: those cases are answered `skipped`. Its errors
// carry no IMWire error code, so they are reported as `unclassified: <error>`.
import Generated
import SwiftProtobuf

import Glibc

typealias Request = Imwire_Conformance_V1_ConformanceRequest
typealias Response = Imwire_Conformance_V1_ConformanceResponse

/// The contract admits 100 merger layers, 301 message levels (Docs/conformance.md, "What a testee does").
let depthLimit = 320

func respond(to request: Request) -> Response {
    var response = Response()
    guard request.validationProfile.isEmpty else {
        response.skipped = "swift-protobuf has no IMWire validation profiles"
        return response
    }
    let message: Imwire_V1_Message
    do {
        switch request.payload {
        case .binaryPayload(let bytes):
            var options = BinaryDecodingOptions()
            options.messageDepthLimit = depthLimit
            message = try Imwire_V1_Message(serializedBytes: bytes, options: options)
        case .jsonPayload(let bytes):
            var options = JSONDecodingOptions()
            options.messageDepthLimit = depthLimit
            options.ignoreUnknownFields = request.jsonIgnoreUnknownFields
            message = try Imwire_V1_Message(jsonUTF8Bytes: bytes, options: options)
        case .timRestPayload:
            response.skipped = "swift-protobuf has no tim-rest dialect"
            return response
        case nil:
            response.runtimeError = "the request has no payload"
            return response
        }
    } catch {
        response.parseError = "unclassified: \(error)"
        return response
    }
    do {
        switch request.requestedOutputFormat {
        case .binary:
            var options = BinaryEncodingOptions()
            options.useDeterministicOrdering = true
            response.binaryPayload = try message.serializedBytes(options: options)
        case .json:
            response.jsonPayload = try message.jsonUTF8Bytes()
        case .timRest:
            response.skipped = "swift-protobuf has no tim-rest dialect"
        default:
            response.runtimeError = "unsupported output format \(request.requestedOutputFormat)"
        }
    } catch {
        response.serializeError = "unclassified: \(error)"
    }
    return response
}

/// Reads exactly `count` bytes from standard input; fewer only at its end.
func readExactly(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let read = bytes.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress! + filled, count - filled) }
        if read < 0 && errno == EINTR { continue }
        if read <= 0 { break }
        filled += read
    }
    return Array(bytes.prefix(filled))
}

/// Writes all of `bytes` to the file descriptor; false if it cannot.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return false }
        written += count
    }
    return true
}

func fail(_ message: String) -> Never {
    _ = writeAll(Array("imwire-testee-swift-protobuf: \(message)\n".utf8), to: 2)
    exit(1)
}

while true {
    let prefix = readExactly(4)
    if prefix.isEmpty { exit(0) }
    guard prefix.count == 4 else { fail("end of input inside a length prefix") }
    let length = prefix.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    let frame = readExactly(length)
    guard frame.count == length else { fail("end of input inside a request frame") }
    let response: Response
    do {
        response = respond(to: try Request(serializedBytes: frame))
    } catch {
        var malformed = Response()
        malformed.runtimeError = "the request does not decode: \(error)"
        response = malformed
    }
    let bytes: [UInt8]
    do {
        bytes = try response.serializedBytes()
    } catch {
        fail("cannot encode the response: \(error)")
    }
    guard writeAll(withUnsafeBytes(of: UInt32(bytes.count).littleEndian, Array.init) + bytes, to: 1) else {
        fail("cannot write to standard output")
    }
}
