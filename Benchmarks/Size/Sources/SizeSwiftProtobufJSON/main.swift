// The binary + proto3 JSON client over swift-protobuf: the same work as SizeIMWireJSON.
import SizeSupport
import SwiftProtobufBinaryWork
import SwiftProtobufJSONWork

let paths = corpusPaths()
let inputs = readRecords(paths.binary)
do {
    let binary = try binaryRoundTrip(inputs)
    let json = try jsonRoundTrip(readRecords(paths.json))
    report("records", UInt64(inputs.count))
    binary.report("binary", encodedBytes: true)
    json.report("json", encodedBytes: false)
} catch {
    fail("\(error)")
}
