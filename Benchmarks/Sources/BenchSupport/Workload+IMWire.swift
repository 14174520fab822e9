// IMWire's workloads, digests and memory figures. This file compiles against the current library and,
// in the harness Scripts/bench builds for commit 02d391d (Benchmarks/Harness/eager.sh), against the
// eager model of that commit, so both are timed with the same code.

import IMWire

public enum IMWireWorkloads {
    /// The implementation as the harness names it ("IMWire", or "IMWire 02d391d").
    public static func implementation(named name: String) -> HarnessImplementation {
        HarnessImplementation(
            name: name,
            workload: { operation, corpus in try workload(name, operation, corpus) },
            digests: digests, memory: memory)
    }

    static func workload(_ name: String, _ operation: Operation, _ corpus: Corpus) throws -> Workload? {
        let pass: () throws -> Void
        switch operation {
        case .binaryDecodeRead:
            let inputs = corpus.binaryRaw
            pass = {
                for input in inputs { blackHole(IMWireWalk.message(try Message(serializedBytes: input))) }
            }
        case .binaryRead:
            let models = try corpus.binary.map { try Message(serializedBytes: $0) }
            pass = {
                models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(IMWireWalk.message(models[index])) }
                }
            }
        case .builtRead:
            let models = try corpus.binary.map { IMWireBuild.message(try Message(serializedBytes: $0)) }
            pass = {
                models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(IMWireWalk.message(models[index])) }
                }
            }
        case .binaryEncodeBuilt:
            let models = try corpus.binary.map { IMWireBuild.message(try Message(serializedBytes: $0)) }
            pass = {
                try models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(try models[index].serializedBytes()) }
                }
            }
        case .jsonDecodeRead:
            let inputs = corpus.jsonRaw
            pass = {
                for input in inputs { blackHole(IMWireWalk.message(try Message(jsonUTF8Bytes: input))) }
            }
        case .jsonEncodeBuilt:
            let models = try corpus.binary.map { IMWireBuild.message(try Message(serializedBytes: $0)) }
            pass = {
                try models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(try models[index].jsonUTF8Bytes()) }
                }
            }
        case .binaryDecode:
            let inputs = corpus.binaryRaw
            pass = {
                for input in inputs { blackHole(try Message(serializedBytes: input)) }
            }
        case .binaryEncode:
            let models = try corpus.binary.map { try Message(serializedBytes: $0) }
            pass = {
                try models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(try models[index].serializedBytes()) }
                }
            }
        case .jsonDecode:
            let inputs = corpus.jsonRaw
            pass = {
                for input in inputs { blackHole(try Message(jsonUTF8Bytes: input)) }
            }
        case .jsonEncode:
            let models = try corpus.json.map { try Message(jsonUTF8Bytes: $0) }
            pass = {
                try models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(try models[index].jsonUTF8Bytes()) }
                }
            }
        case .binaryViewRead, .jsonViewRead, .binaryValidateView, .binaryDecodeValidate, .binarySizeTraverse, .binaryRoute, .binaryViewRoute, .timRESTDecodeRead,
             .timRESTEncodeBuilt, .stringBuild, .stringBuildFallback:
            guard let extra = try IMWireExtras.workload(operation, corpus) else { return nil }
            return Workload(implementation: name, operation: operation, corpus: corpus, size: extra.size, pass: extra.pass)
        }
        return Workload(implementation: name, operation: operation, corpus: corpus, pass: pass)
    }

    static func digests(_ corpus: Corpus) throws -> [(format: String, sum: UInt64)] {
        var binary: UInt64 = 0, json: UInt64 = 0
        for input in corpus.binary { binary &+= IMWireWalk.message(try Message(serializedBytes: input)) }
        for input in corpus.json { json &+= IMWireWalk.message(try Message(jsonUTF8Bytes: input)) }
        return [("binary", binary), ("json", json)] + (try IMWireExtras.digests(corpus))
    }

    static func memory(_ corpus: Corpus, _ count: Int) throws -> [(kept: String, bytesPerValue: Double)] {
        let inputs = corpus.binary
        let message = try bytesHeld(count: count) { try Message(serializedBytes: inputs[$0 % inputs.count]) }
        // Every chat message has an elem: the first is kept alone, as a client keeps a message's preview.
        let elem = try bytesHeld(count: count) { try Message(serializedBytes: inputs[$0 % inputs.count]).elems[0] }
        return [("message", message), ("elem", elem)]
    }
}
