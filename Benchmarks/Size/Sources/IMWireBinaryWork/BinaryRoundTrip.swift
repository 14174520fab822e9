// The binary client's work over IMWire, shared by every IMWire client.
import IMWireBinary
import SizeSupport
import WalkIMWire

/// Each record decoded, walked, encoded, and its encoding decoded and walked again; `each` is handed
/// the record and its decoded message for a client's further work.
public func binaryRoundTrip(_ inputs: [[UInt8]], each: ([UInt8], Message) throws -> Void = { _, _ in }) throws -> RoundTrip {
    var result = RoundTrip()
    for input in inputs {
        let message = try Message(serializedBytes: input)
        result.walk &+= IMWireWalk.message(message)
        let bytes = try message.serializedBytes()
        result.encoded.append(bytes)
        result.rewalk &+= IMWireWalk.message(try Message(serializedBytes: bytes))
        try each(input, message)
    }
    return result
}
