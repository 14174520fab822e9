// Byte-identity checks run before timing: every implementation must reproduce the canonical corpus
// bytes, otherwise its throughput is not comparable (and IMWire has a bug, or the peer a known
// difference).

import IMWire
import SwiftProtobuf
import SwiftProtobufPeer

public func verify(_ corpus: Corpus) -> [VerifyResult] {
    var results: [VerifyResult] = []
    func check(
        _ name: String, informational: Bool = false,
        _ body: (_ index: Int) throws -> (expected: [UInt8], actual: [UInt8])?
    ) {
        var checked = 0
        var mismatches = 0
        var first: String?
        for i in 0..<corpus.count {
            do {
                guard let (expected, actual) = try body(i) else { continue }
                checked += 1
                if expected != actual {
                    mismatches += 1
                    if first == nil {
                        first = "message \(i): expected \(describe(expected)), got \(describe(actual))"
                    }
                }
            } catch {
                checked += 1
                mismatches += 1
                if first == nil { first = "message \(i): \(error)" }
            }
        }
        results.append(
            VerifyResult(
                check: name, corpus: corpus.name, checked: checked, mismatches: mismatches,
                firstMismatch: first, informational: informational))
    }

    if !corpus.timREST.isEmpty {
        // A tim-rest corpus: its tim-rest records must decode to its messages (shuffled keys too), and
        // the encoder must write the canonical records back (the shuffled corpus's records are not).
        check("IMWire tim-rest decode, binary encode = corpus binary") { i in
            (corpus.binary[i], try IMWire.Message(timRESTUTF8Bytes: corpus.timREST[i]).serializedBytes())
        }
        check("IMWire proto3 JSON decode, binary encode = corpus binary") { i in
            (corpus.binary[i], try IMWire.Message(jsonUTF8Bytes: corpus.json[i]).serializedBytes())
        }
        if !corpus.name.hasSuffix("-shuffled") {
            check("IMWire binary decode, tim-rest encode = corpus tim-rest") { i in
                (corpus.timREST[i], try IMWire.Message(serializedBytes: corpus.binary[i]).timRESTUTF8Bytes())
            }
        }
        return results
    }

    // Messages with unknown fields have no JSON counterpart of their binary (JSON drops them).
    let hasUnknown: [Bool] = corpus.binary.map {
        (try? IMWire.Message(serializedBytes: $0))?.containsUnknownFields ?? false
    }
    var deterministic = SwiftProtobuf.BinaryEncodingOptions()
    deterministic.useDeterministicOrdering = true

    check("IMWire binary decode+encode = corpus binary") { i in
        (corpus.binary[i], try IMWire.Message(serializedBytes: corpus.binary[i]).serializedBytes())
    }
    check("IMWire JSON decode+encode = corpus JSON") { i in
        (corpus.json[i], try IMWire.Message(jsonUTF8Bytes: corpus.json[i]).jsonUTF8Bytes())
    }
    check("IMWire binary decode, JSON encode = corpus JSON") { i in
        (corpus.json[i], try IMWire.Message(serializedBytes: corpus.binary[i]).jsonUTF8Bytes())
    }
    check("IMWire JSON decode, binary encode = corpus binary") { i in
        hasUnknown[i] ? nil : (corpus.binary[i], try IMWire.Message(jsonUTF8Bytes: corpus.json[i]).serializedBytes())
    }
    // Fixtures hold edge cases swift-protobuf is known to handle differently: its maps are Swift
    // Dictionaries, so canonically equivalent keys ("é" and "e\u{301}") collapse into one entry.
    let peerInformational = corpus.name == "fixtures"
    check(
        "swift-protobuf binary decode+encode (deterministic) = corpus binary", informational: peerInformational
    ) { i in
        let m = try Imwire_V1_Message(serializedBytes: corpus.binary[i])
        return (corpus.binary[i], try m.serializedBytes(options: deterministic) as [UInt8])
    }
    check(
        "swift-protobuf JSON decode, binary encode (deterministic) = corpus binary",
        informational: peerInformational
    ) { i in
        if hasUnknown[i] { return nil }
        let m = try Imwire_V1_Message(jsonUTF8Bytes: corpus.json[i])
        return (corpus.binary[i], try m.serializedBytes(options: deterministic) as [UInt8])
    }
    check("swift-protobuf JSON encode = corpus JSON (its own style: informational)", informational: true) { i in
        (corpus.json[i], try Imwire_V1_Message(serializedBytes: corpus.binary[i]).jsonUTF8Bytes() as [UInt8])
    }
    return results
}

/// Hex of short byte strings, else the length and the first 64 bytes.
func describe(_ bytes: [UInt8]) -> String {
    let hexDigits = Array("0123456789abcdef")
    func hex(_ b: ArraySlice<UInt8>) -> String {
        String(b.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 15)]] })
    }
    if bytes.count <= 96 { return "\(bytes.count) B \(hex(bytes[...]))" }
    return "\(bytes.count) B \(hex(bytes[0..<64]))…"
}
