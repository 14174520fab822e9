// A client (or server) that uses everything: binary and proto3 JSON as the JSON client does, the
// message view, tim-rest (each message encoded and decoded again), validation (of the decoded value
// and through the view) and a length-delimited stream of the whole corpus.
import IMWire
import SizeSupport
import WalkIMWire
import WalkIMWireView

let paths = corpusPaths()
let inputs = readRecords(paths.binary)
let jsonInputs = readRecords(paths.json)
var walk: UInt64 = 0, rewalk: UInt64 = 0, jsonWalk: UInt64 = 0, jsonRewalk: UInt64 = 0
var viewWalk: UInt64 = 0, timREST: UInt64 = 0, violations: UInt64 = 0, streamWalk: UInt64 = 0
var encoded: [[UInt8]] = []
var stream: [UInt8] = []
do {
    for input in inputs {
        let message = try Message(serializedBytes: input)
        walk &+= IMWireWalk.message(message)
        let bytes = try message.serializedBytes()
        encoded.append(bytes)
        rewalk &+= IMWireWalk.message(try Message(serializedBytes: bytes))
        viewWalk &+= try Message.withView(serializedBytes: input) { IMWireViewWalk.message($0) }
        // tim-rest keeps what Tencent's REST format has: the digest of what comes back, and the code
        // of each message it cannot carry.
        do {
            timREST &+= IMWireWalk.message(try Message(timRESTUTF8Bytes: try message.timRESTUTF8Bytes()))
        } catch {
            timREST &+= UInt64(error.code.name.utf8.count)
        }
        let profile = ValidationProfile.tencent
        let found = message.validate(profile: profile)
        let viewed = try Message.validate(serializedBytes: input, profile: profile)
        guard found.map(\.code) == viewed.map(\.code) else { fail("validation: the value and the view disagree") }
        violations &+= UInt64(found.count) &* 31 &+ UInt64(found.reduce(0) { $0 &+ $1.path.utf8.count })
        try LengthDelimited.append(message, to: &stream)
    }
    var offset = 0
    while let (message, count) = try LengthDelimited.read(from: stream[offset...]) {
        streamWalk &+= IMWireWalk.message(message)
        offset += count
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
report("view-walk", viewWalk)
report("stream-walk", streamWalk)
report("tim-rest-walk", timREST)
report("violations", violations)
