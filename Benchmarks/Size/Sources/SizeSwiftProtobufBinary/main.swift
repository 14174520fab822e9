// The binary client over swift-protobuf and protoc-gen-swift's code of the same schema: the same
// work as SizeIMWireBinary, the same walk (Walk+SwiftProtobuf.swift), the same digests.
import SizeSupport
import SwiftProtobufBinaryWork

let paths = corpusPaths()
let inputs = readRecords(paths.binary)
do {
    let binary = try binaryRoundTrip(inputs)
    report("records", UInt64(inputs.count))
    binary.report("binary", encodedBytes: true)
} catch {
    fail("\(error)")
}
