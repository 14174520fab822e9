/// Receives the present fields of a message from ``ProtoMessage/traverse(_:)``.
@usableFromInline package protocol FieldVisitor {
    /// What the visitor can throw: `IMWireError` for the encoders (depth limit), `Never` for
    /// visitors that cannot fail (the binary writer, counters), so they need no `try!`.
    associatedtype Failure: Error
    mutating func visitString(_ value: String, field: Int) throws(Failure)
    mutating func visitBytes(_ value: [UInt8], field: Int) throws(Failure)
    mutating func visitUInt64(_ value: UInt64, field: Int) throws(Failure)
    mutating func visitUInt32(_ value: UInt32, field: Int) throws(Failure)
    mutating func visitInt32(_ value: Int32, field: Int) throws(Failure)
    mutating func visitBool(_ value: Bool, field: Int) throws(Failure)
    mutating func visitDouble(_ value: Double, field: Int) throws(Failure)
    mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) throws(Failure)
    mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) throws(Failure)
    mutating func visitRepeatedString(_ value: [String], field: Int) throws(Failure)
    mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) throws(Failure)
    /// A field that closes the model's cycle of message types (in this schema, a merger's messages;
    /// see ``NestedMessages``): the one place where a message built in code can nest without bound.
    /// The default is ``visitRepeatedMessage(_:field:)``, for visitors that bound their recursion
    /// themselves (the encoders' depth limits and ``StackGuard``); a visitor that must answer at any
    /// depth keeps these messages on a worklist of its own instead of recursing.
    mutating func visitNestedMessages<M: ProtoMessage>(_ value: [M], field: Int) throws(Failure)
    mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) throws(Failure)
    mutating func visitUnknownFields(_ value: UnknownFields) throws(Failure)
}

extension FieldVisitor {
    @inline(__always)
    @usableFromInline package mutating func visitNestedMessages<M: ProtoMessage>(_ value: [M], field: Int) throws(Failure) {
        try visitRepeatedMessage(value, field: field)
    }
}

/// A visitor that counts or searches strings, bytes and structure only (the content-size counter,
/// the unknown-field search): numbers, bools and enums carry nothing for it, so they are ignored
/// here once instead of by an empty method in each such visitor.
@usableFromInline package protocol NumberIgnoringVisitor: FieldVisitor where Failure == Never {}

extension NumberIgnoringVisitor {
    @usableFromInline package mutating func visitUInt64(_ value: UInt64, field: Int) {}
    @usableFromInline package mutating func visitUInt32(_ value: UInt32, field: Int) {}
    @usableFromInline package mutating func visitInt32(_ value: Int32, field: Int) {}
    @usableFromInline package mutating func visitBool(_ value: Bool, field: Int) {}
    @usableFromInline package mutating func visitDouble(_ value: Double, field: Int) {}
    @usableFromInline package mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) {}
}
