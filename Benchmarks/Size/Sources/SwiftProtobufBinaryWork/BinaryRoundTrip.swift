// The binary client's work over swift-protobuf: what IMWireBinaryWork does, with the same walk.
import SizeSupport
import SwiftProtobufPeer
import WalkSwiftProtobuf

public func binaryRoundTrip(_ inputs: [[UInt8]]) throws -> RoundTrip {
    var result = RoundTrip()
    for input in inputs {
        let message = try Imwire_V1_Message(serializedBytes: input)
        result.walk &+= SwiftProtobufWalk.message(message)
        let bytes: [UInt8] = try message.serializedBytes()
        result.encoded.append(bytes)
        result.rewalk &+= SwiftProtobufWalk.message(try Imwire_V1_Message(serializedBytes: bytes))
    }
    return result
}
