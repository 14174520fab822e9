// The binary + proto3 JSON client over swift-protobuf: the same work as SizeIMWireJSON.
import SizeSupport
import SwiftProtobufPeer
import WalkSwiftProtobuf

let paths = corpusPaths()
let inputs = readRecords(paths.binary)
let jsonInputs = readRecords(paths.json)
var walk: UInt64 = 0, rewalk: UInt64 = 0, jsonWalk: UInt64 = 0, jsonRewalk: UInt64 = 0
var encoded: [[UInt8]] = []
do {
    for input in inputs {
        let message = try Imwire_V1_Message(serializedBytes: input)
        walk &+= SwiftProtobufWalk.message(message)
        let bytes: [UInt8] = try message.serializedBytes()
        encoded.append(bytes)
        rewalk &+= SwiftProtobufWalk.message(try Imwire_V1_Message(serializedBytes: bytes))
    }
    for input in jsonInputs {
        let message = try Imwire_V1_Message(jsonUTF8Bytes: input)
        jsonWalk &+= SwiftProtobufWalk.message(message)
        let json: [UInt8] = try message.jsonUTF8Bytes()
        jsonRewalk &+= SwiftProtobufWalk.message(try Imwire_V1_Message(jsonUTF8Bytes: json))
    }
} catch {
    fail("\(error)")
}
report("records", UInt64(inputs.count))
report("binary-walk", walk)
report("binary-rewalk", rewalk)
report("binary-encoded-bytes", byteDigest(encoded))
report("json-walk", jsonWalk)
report("json-rewalk", jsonRewalk)
