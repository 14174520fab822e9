// The binary client over swift-protobuf and protoc-gen-swift's code of the same schema: the same
// work as SizeIMWireBinary, the same walk (Walk+SwiftProtobuf.swift), the same digests.
import SizeSupport
import SwiftProtobufPeer
import WalkSwiftProtobuf

let paths = corpusPaths()
let inputs = readRecords(paths.binary)
var walk: UInt64 = 0, rewalk: UInt64 = 0
var encoded: [[UInt8]] = []
do {
    for input in inputs {
        let message = try Imwire_V1_Message(serializedBytes: input)
        walk &+= SwiftProtobufWalk.message(message)
        let bytes: [UInt8] = try message.serializedBytes()
        encoded.append(bytes)
        rewalk &+= SwiftProtobufWalk.message(try Imwire_V1_Message(serializedBytes: bytes))
    }
} catch {
    fail("\(error)")
}
report("records", UInt64(inputs.count))
report("binary-walk", walk)
report("binary-rewalk", rewalk)
report("binary-encoded-bytes", byteDigest(encoded))
