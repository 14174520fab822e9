// The implementations imwire-bench and the ordo-one/benchmark suite time (IMWire and swift-protobuf),
// so that both measure exactly the same code: one "pass" runs an operation once on every message of a
// corpus. The operations and the timing are in Harness.swift, each implementation's workloads in
// Workload+IMWire.swift and Workload+SwiftProtobuf.swift.

public enum Implementation: String, CaseIterable, Sendable {
    case imwire = "IMWire"
    case swiftProtobuf = "swift-protobuf"

    public var harness: HarnessImplementation {
        switch self {
        case .imwire: IMWireWorkloads.implementation(named: rawValue)
        case .swiftProtobuf: SwiftProtobufWorkloads.implementation
        }
    }
}

/// The workload of `operation` by `implementation` over `corpus`; an error when it has no such operation.
public func makeWorkload(_ implementation: Implementation, _ operation: Operation, _ corpus: Corpus) throws -> Workload {
    guard let workload = try implementation.harness.workload(operation, corpus) else {
        throw WorkloadError("\(implementation.rawValue) has no \(operation.rawValue)")
    }
    return workload
}

extension Implementation {
    /// Whether `makeWorkload` has `operation` for this implementation (``Operation/isIMWireOnly``).
    public func supports(_ operation: Operation) -> Bool {
        self == .imwire || !operation.isIMWireOnly
    }
}
