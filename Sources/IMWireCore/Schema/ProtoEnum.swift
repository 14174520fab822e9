/// A proto3 enum: open, so numbers the schema does not name are kept as `.unrecognized(n)`.
@usableFromInline package protocol ProtoEnum: RawRepresentable, Hashable, Sendable where RawValue == Int32 {
    init(rawValue: Int32)
    static var schema: EnumSchema { get }
}
