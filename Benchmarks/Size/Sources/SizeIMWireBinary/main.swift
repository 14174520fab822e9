// A client that decodes and encodes IMWire's binary format only: each message of the corpus decoded,
// read (the benchmark's walk), encoded and decoded again. Scripts/size measures what this adds to
// the empty client and checks the digests it prints.
import IMWire
import SizeSupport
import WalkIMWire

let paths = corpusPaths()
let inputs = readRecords(paths.binary)
var walk: UInt64 = 0, rewalk: UInt64 = 0
var encoded: [[UInt8]] = []
do {
    for input in inputs {
        let message = try Message(serializedBytes: input)
        walk &+= IMWireWalk.message(message)
        let bytes = try message.serializedBytes()
        encoded.append(bytes)
        rewalk &+= IMWireWalk.message(try Message(serializedBytes: bytes))
    }
} catch {
    fail("\(error)")
}
report("records", UInt64(inputs.count))
report("binary-walk", walk)
report("binary-rewalk", rewalk)
report("binary-encoded-bytes", byteDigest(encoded))
