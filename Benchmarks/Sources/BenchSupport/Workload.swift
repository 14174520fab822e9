// The operations both Swift harnesses time (imwire-bench and the ordo-one/benchmark suite), so that
// they measure exactly the same code: one "pass" runs the operation once on every message of a corpus.
// binary-route is IMWire's routing view (Message.withRoutingView): what a relay reads instead of a
// full decode; swift-protobuf has no such operation.

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
    /// Open a routing view on each binary message and read its envelope (IMWire only).
    case binaryRoute = "binary-route"

    public var isJSON: Bool { self == .jsonDecode || self == .jsonEncode }
}

extension Implementation {
    /// Whether `makeWorkload` has `operation` for this implementation (the routing view is IMWire's).
    public func supports(_ operation: Operation) -> Bool {
        operation != .binaryRoute || self == .imwire
    }
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
    case (.imwire, .binaryRoute):
        // What a relay reads before forwarding the bytes: msg id, sender, target, timestamp, seq and
        // the kind of every elem. The strings are read in place as UTF-8 (the view's `…UTF8`
        // properties), as a relay hashing or comparing IDs would: no String, no allocation.
        let inputs = corpus.binary
        pass = {
            for input in inputs {
                try IMWire.Message.withRoutingView(serializedBytes: input) { view in
                    blackHole(view.msgIDUTF8)
                    blackHole(view.senderUTF8)
                    blackHole(view.targetIDUTF8)
                    blackHole(view.timestampMs)
                    blackHole(view.seq)
                    for kind in view.elemKinds { blackHole(kind) }
                }
            }
        }
    case (.swiftProtobuf, .binaryRoute):
        throw WorkloadError(description: "swift-protobuf has no routing view")
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
