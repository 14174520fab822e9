import IMWire
import Testing

/// The codes' shared shape (``StableCode``): a name per code, unique, found again by name, printed
/// as the name.
@Suite struct StableCodeTests {
    static func checkShape<C: StableCode>(_: C.Type, atLeast minimum: Int = 10) {
        #expect(C.all.count >= minimum, "\(C.self) has \(C.all.count) codes")
        #expect(Set(C.all.map(\.name)).count == C.all.count, "two codes of \(C.self) share a name")
        for code in C.all {
            #expect(C(name: code.name) == code)
            #expect(code.description == code.name)
            #expect(code.name.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" },
                    "\(code.name) is not snake_case")
        }
        #expect(C(name: "") == nil)
        #expect(C(name: C.all[0].name.uppercased()) == nil)
    }

    @Test func errorCodes() { Self.checkShape(IMWireError.Code.self) }
    @Test func violationCodes() { Self.checkShape(Violation.Code.self) }
    @Test func skippedKeyReasons() {
        Self.checkShape(SkippedKey.Reason.self, atLeast: 4)
        #expect(SkippedKey.Reason.all.count == 4)
        #expect(SkippedKey.Reason(name: "unknown_field") == nil)
    }
    @Test func aNameOfAnotherKindIsNotFound() {
        #expect(IMWireError.Code(name: "content_too_large") == nil)
        #expect(Violation.Code(name: "truncated") == nil)
        #expect(IMWireError.Code(name: "truncated") == .truncated)
    }
}
