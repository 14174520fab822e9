/// Fields of a message that this schema does not know — from a newer schema, or a known field sent
/// with an unexpected wire type — kept as their raw wire bytes (tag included) in the order they
/// arrived, and written back after the known fields. A relay built on this version loses no data.
public struct UnknownFields: Hashable, Sendable {
    /// The raw protobuf bytes of the unknown fields, tags included, in wire order.
    public private(set) var bytes: [UInt8]

    /// No unknown fields.
    public init() { bytes = [] }

    /// `true` when there are no unknown fields.
    @inlinable public var isEmpty: Bool { bytes.isEmpty }

    @usableFromInline package mutating func append(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }
}
