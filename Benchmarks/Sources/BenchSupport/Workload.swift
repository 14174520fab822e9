// The operations both Swift harnesses time (imwire-bench and the ordo-one/benchmark suite), so that
// they measure exactly the same code: one "pass" runs the operation once on every message of a corpus.
// binary-route is IMWire's routing view (Message.withRoutingView): what a relay reads instead of a
// full decode; swift-protobuf has no such operation.

@_spi(Benchmarks) import IMWire
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
    /// Build a `String` from the validated bytes of every string of the corpus, as a decoded value's
    /// accessor does (IMWire only; the bytes are collected untimed).
    case stringBuild = "string-build"
    /// The same with the fallback for Apple systems before the 26 releases, which validates again.
    case stringBuildFallback = "string-build-fallback"

    public var isJSON: Bool { self == .jsonDecode || self == .jsonEncode }

    /// IMWire's own operations, which no peer has.
    public var isIMWireOnly: Bool { self == .binaryRoute || self == .stringBuild || self == .stringBuildFallback }
}

extension Implementation {
    /// Whether `makeWorkload` has `operation` for this implementation (the routing view is IMWire's).
    public func supports(_ operation: Operation) -> Bool {
        !operation.isIMWireOnly || self == .imwire
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
    case (.imwire, .stringBuild), (.imwire, .stringBuildFallback):
        // Each string's bytes and whether they are ASCII, which the decoder learns while validating.
        let strings = try corpus.binary.flatMap { try stringsOf(IMWire.Message(serializedBytes: $0)) }
            .map { (bytes: Array($0.utf8), isASCII: $0.utf8.allSatisfy { $0 < 0x80 }) }
        let fallback = operation == .stringBuildFallback
        pass = {
            for string in strings {
                string.bytes.withUnsafeBufferPointer { buffer in
                    blackHole(_UTF8StringBuilding.string(buffer, isASCII: string.isASCII, fallback: fallback))
                }
            }
        }
    case (.swiftProtobuf, .binaryRoute), (.swiftProtobuf, .stringBuild), (.swiftProtobuf, .stringBuildFallback):
        throw WorkloadError(description: "swift-protobuf has no \(operation.rawValue)")
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

/// Every `String` in a value, found by reflection (the model types reflect their fields).
func stringsOf(_ value: Any) -> [String] {
    if let string = value as? String { return [string] }
    return Mirror(reflecting: value).children.flatMap { stringsOf($0.value) }
}
