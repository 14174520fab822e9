// swift-protobuf's workloads (code generated from the same schema: SwiftProtobufPeer), digests and
// memory figures: the same operations as IMWire's where it has them.

import SwiftProtobuf
import SwiftProtobufPeer

public enum SwiftProtobufWorkloads {
    public static let implementation = HarnessImplementation(
        name: "swift-protobuf", workload: workload, digests: digests, memory: memory)

    static func workload(_ operation: Operation, _ corpus: Corpus) throws -> Workload? {
        typealias Message = Imwire_V1_Message
        let pass: () throws -> Void
        switch operation {
        case .binaryDecodeRead:
            let inputs = corpus.binary
            pass = {
                for index in inputs.indices { blackHole(SwiftProtobufWalk.message(try Message(serializedBytes: inputs[index]))) }
            }
        case .binaryRead:
            let models = try corpus.binary.map { try Message(serializedBytes: $0) }
            pass = {
                models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(SwiftProtobufWalk.message(models[index])) }
                }
            }
        case .builtRead:
            let models = try corpus.binary.map { SwiftProtobufBuild.message(try Message(serializedBytes: $0)) }
            pass = {
                models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(SwiftProtobufWalk.message(models[index])) }
                }
            }
        case .binaryEncodeBuilt:
            let models = try corpus.binary.map { SwiftProtobufBuild.message(try Message(serializedBytes: $0)) }
            pass = {
                try models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(try models[index].serializedBytes() as [UInt8]) }
                }
            }
        case .jsonDecodeRead:
            let inputs = corpus.json
            pass = {
                for index in inputs.indices { blackHole(SwiftProtobufWalk.message(try Message(jsonUTF8Bytes: inputs[index]))) }
            }
        case .jsonEncodeBuilt:
            let models = try corpus.binary.map { SwiftProtobufBuild.message(try Message(serializedBytes: $0)) }
            pass = {
                try models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(try models[index].jsonUTF8Bytes() as [UInt8]) }
                }
            }
        case .binaryDecode:
            let inputs = corpus.binary
            pass = {
                for index in inputs.indices { blackHole(try Message(serializedBytes: inputs[index])) }
            }
        case .binaryEncode:
            let models = try corpus.binary.map { try Message(serializedBytes: $0) }
            pass = {
                try models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(try models[index].serializedBytes() as [UInt8]) }
                }
            }
        case .jsonDecode:
            let inputs = corpus.json
            pass = {
                for index in inputs.indices { blackHole(try Message(jsonUTF8Bytes: inputs[index])) }
            }
        case .jsonEncode:
            let models = try corpus.json.map { try Message(jsonUTF8Bytes: $0) }
            pass = {
                try models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(try models[index].jsonUTF8Bytes() as [UInt8]) }
                }
            }
        case .binaryViewRead, .jsonViewRead, .binaryValidateView, .binaryDecodeValidate, .binarySizeTraverse, .binaryRoute, .binaryViewRoute, .timRESTDecodeRead, .timRESTEncodeBuilt, .stringBuild, .stringBuildFallback:
            return nil
        }
        return Workload(implementation: "swift-protobuf", operation: operation, corpus: corpus, pass: pass)
    }

    static func digests(_ corpus: Corpus) throws -> [(format: String, sum: UInt64)] {
        var binary: UInt64 = 0, json: UInt64 = 0
        for input in corpus.binary { binary &+= SwiftProtobufWalk.message(try Imwire_V1_Message(serializedBytes: input)) }
        for input in corpus.json { json &+= SwiftProtobufWalk.message(try Imwire_V1_Message(jsonUTF8Bytes: input)) }
        return [("binary", binary), ("json", json)]
    }

    static func memory(_ corpus: Corpus, _ count: Int) throws -> [(kept: String, bytesPerValue: Double)] {
        let inputs = corpus.binary
        let message = try bytesHeld(count: count) { try Imwire_V1_Message(serializedBytes: inputs[$0 % inputs.count]) }
        // Every chat message has an elem: the first is kept alone, as a client keeps a message's preview.
        let elem = try bytesHeld(count: count) { try Imwire_V1_Message(serializedBytes: inputs[$0 % inputs.count]).elems[0] }
        return [("message", message), ("elem", elem)]
    }
}
