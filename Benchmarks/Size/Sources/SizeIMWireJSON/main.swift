// A client that speaks IMWire's binary format and proto3 JSON: the binary client's work, then each
// message of the corpus's JSON decoded, read, encoded as JSON and decoded again.
import IMWire
import SizeSupport
import WalkIMWire

let paths = corpusPaths()
let inputs = readRecords(paths.binary)
let jsonInputs = readRecords(paths.json)
var walk: UInt64 = 0, rewalk: UInt64 = 0, jsonWalk: UInt64 = 0, jsonRewalk: UInt64 = 0
var encoded: [[UInt8]] = []
do {
    for input in inputs {
        let message = try Message(serializedBytes: input)
        walk &+= IMWireWalk.message(message)
        let bytes = try message.serializedBytes()
        encoded.append(bytes)
        rewalk &+= IMWireWalk.message(try Message(serializedBytes: bytes))
    }
    for input in jsonInputs {
        let message = try Message(jsonUTF8Bytes: input)
        jsonWalk &+= IMWireWalk.message(message)
        jsonRewalk &+= IMWireWalk.message(try Message(jsonUTF8Bytes: try message.jsonUTF8Bytes()))
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
