// The proto3 JSON client's work over swift-protobuf: what IMWireJSONWork does, with the same walk.
import SizeSupport
import SwiftProtobufPeer
import WalkSwiftProtobuf

public func jsonRoundTrip(_ inputs: [[UInt8]]) throws -> RoundTrip {
    var result = RoundTrip()
    for input in inputs {
        let message = try Imwire_V1_Message(jsonUTF8Bytes: input)
        result.walk &+= SwiftProtobufWalk.message(message)
        let json: [UInt8] = try message.jsonUTF8Bytes()
        result.encoded.append(json)
        result.rewalk &+= SwiftProtobufWalk.message(try Imwire_V1_Message(jsonUTF8Bytes: json))
    }
    return result
}
