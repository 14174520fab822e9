// Property test against Google's Python json_format (upb), both directions, on random messages
// (IMWireTestSupport/MessageGenerators.swift):
//
//   Swift JSON  -> Python json_format.Parse -> Python canonical binary  ==  Swift canonical binary
//   Swift binary -> Python MessageToJson (default options)  -> Swift JSON decode  ==  the message
//                -> Python MessageToDict(proto names), compact, raw UTF-8 -> Swift  ==  the message
//
// All messages of a run go through one Python process (Scripts/json_crosscheck.py, which compiles the
// schema with protoc at start-up), batched through temporary files.
//
// IMWIRE_PROPERTY_ITERATIONS=N sets the number of messages (default 500); IMWIRE_CROSSCHECK_SEED=S
// replays a run (every failure prints the seed and the message's index); IMWIRE_PYTHON picks the
// interpreter (default: python3 on PATH, with google.protobuf installed; see Scripts/install-deps).
//
// Known, documented differences, handled here rather than ignored:
// - JSON has no unknown fields: messages are generated without them.
// - A NaN's payload and sign do not survive JSON ("NaN"): every NaN is made the canonical quiet NaN
//   first (Double.nan, the bits Python's float('nan') has too).
// - upb's deterministic binary orders a map key after the keys it prefixes: the Python side reorders
//   map entries by key (gen_fixtures.fix_map_order) before its bytes are compared.

import Foundation
import IMWire
import IMWireTestSupport
import Testing

@Suite struct JSONPythonCrossCheckTests {
    @Test func swiftJSONParsedByPythonGivesTheCanonicalBinary() throws {
        let batch = try CrossCheckBatch.shared.get()
        var failures = 0
        for (index, message) in batch.messages.enumerated() {
            let json = batch.swiftJSON[index]
            func context() -> String {
                "seed \(batch.seed) message \(index)\nSwift JSON: \(String(decoding: json, as: UTF8.self).prefix(2000))"
            }
            switch batch.responses[CrossCheckBatch.requestID(index, .jsonToBinary)] {
            case .ok(let pythonBinary)?:
                let swiftBinary = try message.serializedBytes()
                if pythonBinary != swiftBinary {
                    failures += 1
                    Issue.record("Python's binary differs\nPython \(hex(pythonBinary, limit: 400))\nSwift  \(hex(swiftBinary, limit: 400))\n\(context())")
                }
            case .error(let reason)?:
                failures += 1
                Issue.record("Python rejects Swift's JSON: \(reason)\n\(context())")
            case nil:
                failures += 1
                Issue.record("no response from Python\n\(context())")
            }
            if failures >= 10 { break }
        }
    }

    @Test(arguments: [CrossCheckBatch.Operation.binaryToJSON, .binaryToJSONProtoNames])
    func pythonJSONDecodedBySwiftGivesTheMessage(_ operation: CrossCheckBatch.Operation) throws {
        let batch = try CrossCheckBatch.shared.get()
        var failures = 0
        for (index, message) in batch.messages.enumerated() {
            func context() -> String {
                "seed \(batch.seed) message \(index), binary \(hex((try? message.serializedBytes()) ?? [], limit: 400))"
            }
            switch batch.responses[CrossCheckBatch.requestID(index, operation)] {
            case .ok(let pythonJSON)?:
                                do {
                    let decoded = try Message(jsonUTF8Bytes: pythonJSON)
                    if decoded != message {
                        failures += 1
                        let swiftJSON = (try? decoded.jsonString()) ?? "?"
                        let wantJSON = (try? message.jsonString()) ?? "?"
                        Issue.record("Swift decodes Python's JSON to another message\nPython JSON: \(String(decoding: pythonJSON, as: UTF8.self).prefix(2000))\nSwift reads: \(swiftJSON)\nexpected:    \(wantJSON)\n\(context())")
                    }
                } catch {
                    failures += 1
                    Issue.record("Swift rejects Python's JSON: \(error)\nPython JSON: \(String(decoding: pythonJSON, as: UTF8.self).prefix(2000))\n\(context())")
                }
            case .error(let reason)?:
                failures += 1
                Issue.record("Python fails on Swift's binary: \(reason)\n\(context())")
            case nil:
                failures += 1
                Issue.record("no response from Python\n\(context())")
            }
            if failures >= 10 { break }
        }
    }
}

/// One batch of random messages and Python's answers for all of them, computed once per test run.
struct CrossCheckBatch: Sendable {
    enum Operation: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case jsonToBinary = "json_to_binary"
        case binaryToJSON = "binary_to_json"
        case binaryToJSONProtoNames = "binary_to_json_proto_names"

        var testDescription: String { rawValue }
    }

    enum Response: Sendable {
        case ok([UInt8])
        case error(String)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let seed: UInt64
    let messages: [Message]
    /// Swift's canonical JSON of each message (compact; every third one pretty-printed).
    let swiftJSON: [[UInt8]]
    let responses: [String: Response]

    static func requestID(_ index: Int, _ operation: Operation) -> String { "\(index).\(operation.rawValue)" }

    static let shared: Result<CrossCheckBatch, Failure> = Result { () throws(Failure) in try make() }

    private static func make() throws(Failure) -> CrossCheckBatch {
        let environment = ProcessInfo.processInfo.environment
        let count = PropertyIterations.count(default: 500)
        let seed = environment["IMWIRE_CROSSCHECK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)

        var options = MessageGenerationOptions.full.withoutUnknownFields()
        options.longValueRate = 0.005
        var messages: [Message] = []
        var swiftJSON: [[UInt8]] = []
        var requests = ""
        for index in 0..<count {
            var generator = ModelGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15, options: options)
            let message = canonicalNaNs(generator.message())
            let json: [UInt8]
            let binary: [UInt8]
            do {
                json = try message.jsonUTF8Bytes(options: JSONEncodingOptions(prettyPrinted: index % 3 == 2))
                binary = try message.serializedBytes()
            } catch {
                throw Failure(description: "seed \(seed) message \(index): Swift cannot encode it: \(error)")
            }
            messages.append(message)
            swiftJSON.append(json)
            requests += "\(requestID(index, .jsonToBinary))\t\(Operation.jsonToBinary.rawValue)\t\(Data(json).base64EncodedString())\n"
            for operation in [Operation.binaryToJSON, .binaryToJSONProtoNames] {
                requests += "\(requestID(index, operation))\t\(operation.rawValue)\t\(Data(binary).base64EncodedString())\n"
            }
        }

        let output = try runPython(input: Data(requests.utf8))
        var responses: [String: Response] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { throw Failure(description: "malformed response line from Python: \(line.prefix(200))") }
            switch parts[1] {
            case "ok":
                guard let data = Data(base64Encoded: String(parts[2])) else {
                    throw Failure(description: "bad base64 from Python: \(line.prefix(200))")
                }
                responses[String(parts[0])] = .ok([UInt8](data))
            default:
                responses[String(parts[0])] = .error(String(parts[2]))
            }
        }
        guard responses.count == count * 3 else {
            throw Failure(description: "Python answered \(responses.count) of \(count * 3) requests")
        }
        return CrossCheckBatch(seed: seed, messages: messages, swiftJSON: swiftJSON, responses: responses)
    }

    /// Runs the Python peer once.
    private static func runPython(input: Data) throws(Failure) -> String {
        do {
            return String(decoding: try PythonPeer.run("json_crosscheck.py", input: [UInt8](input)), as: UTF8.self)
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// `message` with every NaN replaced by `Double.nan` (JSON carries no NaN payload or sign).
    static func canonicalNaNs(_ message: Message) -> Message {
        var message = message
        for index in message.elems.indices {
            switch message.elems[index].content {
            case .location(var location)?:
                if location.longitude.isNaN { location.longitude = .nan }
                if location.latitude.isNaN { location.latitude = .nan }
                message.elems[index].content = .location(location)
            case .merger(var merger)?:
                merger.messages = merger.messages.map(canonicalNaNs)
                message.elems[index].content = .merger(merger)
            default:
                break
            }
        }
        return message
    }
}
