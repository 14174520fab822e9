import IMWire
import IMWireTestSupport
import Testing

/// The `limit` fixtures (Fixtures/sources/limits.json, written by Python's google.protobuf):
/// every validation limit exactly at the limit and one unit past it, per profile, and messages
/// breaking several rules at once. Each fixture is its own test case.
@Suite struct ValidationGoldenTests {
    static let cases = Fixtures.cases(kind: "limit")

    @Test(arguments: cases)
    func limitFixtureValidatesToItsExpectedCodes(_ fixture: Fixtures.Case) throws {
        let profileName = try #require(fixture.fields["profile"])
        let profile = try #require(ValidationProfile(preset: profileName), "unknown profile \(profileName)")
        let expected = try #require(fixture.lists["expected_codes"])
        let message = try Message(serializedBytes: fixture.bytes("binpb"))

        let violations = message.validate(profile: profile)
        #expect(violations.map(\.code.name).sorted() == expected, "\(violations.map(\.description).joined(separator: "\n"))")
        // The limit and actual values agree with the verdict: a numeric limit is exceeded.
        for violation in violations {
            if case .integer(let limit) = violation.limit, case .integer(let actual) = violation.actual,
                violation.code != .elemChainEmpty, violation.code != .elemNotStandalone,
                violation.code != .signalMsgIDMissing
            {
                #expect(actual > limit, "\(violation)")
            }
            #expect(!violation.path.isEmpty)
        }
    }

    @Test(arguments: cases)
    func limitFixtureJSONValidatesLikeItsBinary(_ fixture: Fixtures.Case) throws {
        let profile = try #require(ValidationProfile(preset: fixture.fields["profile"] ?? ""))
        let fromBinary = try Message(serializedBytes: fixture.bytes("binpb"))
        let fromJSON = try Message(jsonUTF8Bytes: fixture.bytes("json"))
        #expect(fromJSON == fromBinary)
        #expect(fromJSON.validate(profile: profile) == fromBinary.validate(profile: profile))
    }

    @Test func everyCodeHasAFailingFixtureAndEveryFixtureCodeIsKnown() {
        let fixtureCodes = Set(Self.cases.flatMap { $0.lists["expected_codes"] ?? [] })
        for code in Violation.Code.all {
            #expect(fixtureCodes.contains(code.name), "no limit fixture reports \(code.name)")
        }
        for name in fixtureCodes {
            #expect(Violation.Code(name: name) != nil, "fixture code \(name) is not a Violation.Code")
        }
    }

    @Test func everyProfileHasValidAndInvalidFixtures() {
        for profile in ValidationProfile.presets.map(\.name) {
            let cases = Self.cases.filter { $0.fields["profile"] == profile }
            #expect(cases.contains { $0.lists["expected_codes"] == [] }, "\(profile): no at-limit case")
            #expect(cases.contains { $0.lists["expected_codes"]?.isEmpty == false }, "\(profile): no past-limit case")
            #expect(cases.contains { Set($0.lists["expected_codes"] ?? []).count >= 3 }, "\(profile): no multi-rule case")
        }
    }
}
