import IMWire
import IMWireTestSupport
import Testing

/// The validator writes its paths (`elems[0].merger.messages[1].sender`) from field names it names
/// itself, not from the schema's tables. This pins that every path it reports for the golden limit
/// fixtures walks the schema: each component is a field of the message type reached so far (a
/// oneof member included), indexed only when the field is repeated, and only the last may be a
/// non-message field. A field renamed in the schema but not in the validator fails here.
@Suite struct ViolationPathTests {
    @Test(arguments: ValidationGoldenTests.cases)
    func everyViolationPathNamesSchemaFields(_ fixture: Fixtures.Case) throws {
        let message = try Message(serializedBytes: fixture.bytes("binpb"))
        for profile in ValidationProfile.presets {
            for violation in message.validate(profile: profile) {
                #expect(Self.problem(in: violation.path) == nil, "\(profile.name): \(violation)")
            }
        }
    }

    /// The fixtures reach most of the validator's paths (169 distinct shapes, indices removed), so the
    /// check above is not vacuous.
    @Test func theFixturesReachManyDistinctPaths() throws {
        var shapes = Set<String>()
        for fixture in ValidationGoldenTests.cases {
            let message = try Message(serializedBytes: fixture.bytes("binpb"))
            for profile in ValidationProfile.presets {
                for violation in message.validate(profile: profile) {
                    shapes.insert(String(violation.path.filter { !$0.isNumber }))
                }
            }
        }
        #expect(shapes.count >= 150, "\(shapes.count) distinct paths: \(shapes.sorted())")
    }

    @Test func aPathTheSchemaDoesNotHaveIsCaught() {
        #expect(Self.problem(in: "elems[0].merger.messages[1].sender") == nil)
        #expect(Self.problem(in: "elems") == nil)
        #expect(Self.problem(in: "elems[0].merger.message[1].sender") != nil)
        #expect(Self.problem(in: "sender[0]") != nil)
        #expect(Self.problem(in: "sender.text") != nil)
        #expect(Self.problem(in: "elems[0].text.texts") != nil)
    }

    /// Why `path` does not walk `Message.schema`, or `nil` when it does.
    static func problem(in path: String) -> String? {
        var schema: MessageSchema? = Message.schema
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard let current = schema else { return "\(component) follows a field that is not a message" }
            let name = component.prefix { $0 != "[" }
            let indexed = name.count != component.count
            guard let field = current.fields.first(where: { $0.name == name }) else {
                return "\(current.fullName) has no field \(name)"
            }
            if indexed && !field.isRepeated { return "\(name) is not repeated but is indexed" }
            if case .message(let nested) = field.kind { schema = nested() } else { schema = nil }
        }
        return nil
    }
}
