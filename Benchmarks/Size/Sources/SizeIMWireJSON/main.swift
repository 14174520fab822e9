// A client that speaks IMWire's binary format and proto3 JSON: the binary client's work, then each
// message of the corpus's JSON decoded, read, encoded as JSON and decoded again.
import IMWireBinaryWork
import IMWireJSONWork
import SizeSupport

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
