// A client that decodes and encodes IMWire's binary format only: each message of the corpus decoded,
// read (the benchmark's walk), encoded and decoded again. Scripts/size measures what this adds to
// the empty client and checks the digests it prints.
import IMWireBinaryWork
import SizeSupport

let paths = corpusPaths()
let inputs = readRecords(paths.binary)
do {
    let binary = try binaryRoundTrip(inputs)
    report("records", UInt64(inputs.count))
    binary.report("binary", encodedBytes: true)
} catch {
    fail("\(error)")
}
