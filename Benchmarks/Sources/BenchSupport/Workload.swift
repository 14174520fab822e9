// The operations both Swift harnesses time (imwire-bench and the ordo-one/benchmark suite), so that
// they measure exactly the same code: one "pass" runs the operation once on every message of a corpus.

import IMWire
import SwiftProtobuf
import SwiftProtobufPeer

public enum Implementation: String, CaseIterable, Sendable {
    case imwire = "IMWire"
    case swiftProtobuf = "swift-protobuf"
}

public enum Operation: String, CaseIterable, Sendable {
    case binaryDecode = "binary-decode"
    case binaryEncode = "binary-encode"
    case jsonDecode = "json-decode"
    case jsonEncode = "json-encode"

    public var isJSON: Bool { self == .jsonDecode || self == .jsonEncode }
}

/// One operation over one corpus, its inputs prepared outside the timed part.
public struct Workload {
    public let implementation: Implementation
    public let operation: Operation
    public let corpus: String
    public let messages: Int
    /// Bytes of the corpus in the operation's format (binary or JSON): the input of a decode, the
    /// (canonical) output of an encode. MB/s is computed from this.
    public let bytes: Int
    /// Runs the operation on every message once; the results are handed to ``blackHole(_:)`` and dropped.
    public let pass: () throws -> Void
}

/// Keeps the optimiser from dropping a result it can prove unused.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

public struct WorkloadError: Error, CustomStringConvertible {
    public let description: String
}

/// Prepares `operation` by `implementation` over `corpus`: decodes run on the corpus bytes, encodes on
/// models decoded (untimed) from the corpus by the same implementation.
public func makeWorkload(
    _ implementation: Implementation, _ operation: Operation, _ corpus: Corpus
) throws -> Workload {
    let bytes = operation.isJSON ? corpus.jsonBytes : corpus.binaryBytes
    let pass: () throws -> Void
    switch (implementation, operation) {
    case (.imwire, .binaryDecode):
        let inputs = corpus.binary
        pass = {
            for input in inputs { blackHole(try IMWire.Message(serializedBytes: input)) }
        }
    case (.imwire, .binaryEncode):
        let models = try corpus.binary.map { try IMWire.Message(serializedBytes: $0) }
        pass = {
            for model in models { blackHole(try model.serializedBytes()) }
        }
    case (.imwire, .jsonDecode):
        let inputs = corpus.json
        pass = {
            for input in inputs { blackHole(try IMWire.Message(jsonUTF8Bytes: input)) }
        }
    case (.imwire, .jsonEncode):
        let models = try corpus.json.map { try IMWire.Message(jsonUTF8Bytes: $0) }
        pass = {
            for model in models { blackHole(try model.jsonUTF8Bytes()) }
        }
    case (.swiftProtobuf, .binaryDecode):
        let inputs = corpus.binary
        pass = {
            for input in inputs { blackHole(try Imwire_V1_Message(serializedBytes: input)) }
        }
    case (.swiftProtobuf, .binaryEncode):
        let models = try corpus.binary.map { try Imwire_V1_Message(serializedBytes: $0) }
        pass = {
            for model in models { blackHole(try model.serializedBytes() as [UInt8]) }
        }
    case (.swiftProtobuf, .jsonDecode):
        let inputs = corpus.json
        pass = {
            for input in inputs { blackHole(try Imwire_V1_Message(jsonUTF8Bytes: input)) }
        }
    case (.swiftProtobuf, .jsonEncode):
        let models = try corpus.json.map { try Imwire_V1_Message(jsonUTF8Bytes: $0) }
        pass = {
            for model in models { blackHole(try model.jsonUTF8Bytes() as [UInt8]) }
        }
    }
    return Workload(
        implementation: implementation, operation: operation, corpus: corpus.name,
        messages: corpus.count, bytes: bytes, pass: pass)
}
