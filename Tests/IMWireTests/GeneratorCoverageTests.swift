@testable import IMWire
import IMWireTestSupport
import Testing

/// The property tests are only as wide as `ModelGenerator`: a field the generators never set goes
/// untested by every one of them. This test walks the schema from `Message` and requires that the
/// messages the generators make (`.full`, as the property tests use) set every field of every message
/// type, every oneof member, and every named value of every enum (0, the proto3 default, is what an
/// unset field holds, so it is met whenever a field is left out).
@Suite struct GeneratorCoverageTests {
    /// Records `Type.field` for every field present, and `Enum=value` for every enum value.
    struct Recorder: FieldVisitor {
        typealias Failure = Never
        var type = ""
        var seen: Set<String> = []

        mutating func record(_ field: Int) { seen.insert("\(type).\(field)") }
        mutating func visitString(_ value: String, field: Int) { record(field) }
        mutating func visitBytes(_ value: [UInt8], field: Int) { record(field) }
        mutating func visitUInt64(_ value: UInt64, field: Int) { record(field) }
        mutating func visitUInt32(_ value: UInt32, field: Int) { record(field) }
        mutating func visitInt32(_ value: Int32, field: Int) { record(field) }
        mutating func visitBool(_ value: Bool, field: Int) { record(field) }
        mutating func visitDouble(_ value: Double, field: Int) { record(field) }
        mutating func visitEnum<E: ProtoEnum>(_ value: E, field: Int) {
            record(field)
            seen.insert("\(E.schema.fullName)=\(value.rawValue)")
        }
        mutating func visitMessage<M: ProtoMessage>(_ value: M, field: Int) {
            record(field)
            let outer = type
            type = M.schema.fullName
            value.traverse(&self)
            type = outer
        }
        mutating func visitRepeatedString(_ value: [String], field: Int) { record(field) }
        mutating func visitRepeatedMessage<M: ProtoMessage>(_ value: [M], field: Int) {
            for message in value { visitMessage(message, field: field) }
        }
        mutating func visitStringToBytesMap(_ value: StringBytesMap, field: Int) { record(field) }
        mutating func visitUnknownFields(_ value: UnknownFields) {}
    }

    /// Every `Type.field` and every non-zero `Enum=value` reachable from `Message`'s schema.
    static func schemaItems() -> Set<String> {
        var items: Set<String> = []
        var pending = [Message.schema]
        var visited: Set<String> = []
        while let schema = pending.popLast() {
            guard visited.insert(schema.fullName).inserted else { continue }
            for field in schema.fields {
                items.insert("\(schema.fullName).\(field.number)")
                switch field.kind {
                case .message(let nested): pending.append(nested())
                case .enumeration(let enumeration):
                    for value in enumeration.values where value.number != 0 { items.insert("\(enumeration.fullName)=\(value.number)") }
                default: break
                }
            }
        }
        return items
    }

    @Test func theGeneratorsSetEveryFieldOneofMemberAndEnumValue() {
        let expected = Self.schemaItems()
        #expect(expected.count > 150, "the walk of the schema found only \(expected.count) items")
        var recorder = Recorder(type: Message.schema.fullName)
        for index in 0..<2_000 {
            var generator = ModelGenerator(seed: 0xC0FE_0000 &+ UInt64(index), options: .full)
            generator.message().traverse(&recorder)
        }
        let missing = expected.subtracting(recorder.seen).sorted()
        #expect(missing.isEmpty, "never set by the generators in 2,000 messages: \(missing.joined(separator: ", "))")
    }
}
