// The proto3 JSON client's work over IMWire.
import IMWireJSON
import SizeSupport
import WalkIMWire

/// Each JSON record decoded, walked, encoded as JSON, and its encoding decoded and walked again.
public func jsonRoundTrip(_ inputs: [[UInt8]]) throws -> RoundTrip {
    var result = RoundTrip()
    for input in inputs {
        let message = try Message(jsonUTF8Bytes: input)
        result.walk &+= IMWireWalk.message(message)
        let json = try message.jsonUTF8Bytes()
        result.encoded.append(json)
        result.rewalk &+= IMWireWalk.message(try Message(jsonUTF8Bytes: json))
    }
    return result
}
