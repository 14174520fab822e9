// The empty client: reads the corpus and prints its byte digest, with no protobuf library. Every
// other client's size is reported less this one's.
import SizeSupport

let paths = corpusPaths()
let records = readRecords(paths.binary)
report("records", UInt64(records.count))
report("binary-bytes", byteDigest(records))
