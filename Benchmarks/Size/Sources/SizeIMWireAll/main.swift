// A client (or server) that uses everything: binary and proto3 JSON as the JSON client does, the
// message view, tim-rest (each message encoded and decoded again), validation (of the decoded value
// and through the view) and a length-delimited stream of the whole corpus.
import IMWire
import IMWireBinaryWork
import IMWireJSONWork
import SizeSupport
import WalkIMWire
import WalkIMWireView

let paths = corpusPaths()
let inputs = readRecords(paths.binary)
var viewWalk: UInt64 = 0, timREST: UInt64 = 0, violations: UInt64 = 0, streamWalk: UInt64 = 0
var stream: [UInt8] = []
do {
    let binary = try binaryRoundTrip(inputs) { input, message in
        viewWalk &+= try Message.withView(serializedBytes: input) { IMWireViewWalk.message($0) }
        // tim-rest keeps what Tencent's REST format has: the digest of what comes back, and the code
        // of each message it cannot carry.
        do throws(IMWireError) {
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
    let json = try jsonRoundTrip(readRecords(paths.json))
    report("records", UInt64(inputs.count))
    binary.report("binary", encodedBytes: true)
    json.report("json", encodedBytes: false)
} catch {
    fail("\(error)")
}
report("view-walk", viewWalk)
report("stream-walk", streamWalk)
report("tim-rest-walk", timREST)
report("violations", violations)
