import Foundation
import IMWire
import Testing

/// Errors are built in one place: `Sources/IMWireCore/IMWireError+Factories.swift` holds a factory per
/// code (named after it) and per situation met in more than one place; `IMWireError`'s initialiser is
/// private to that file, so no other source can build one. The same situation then reads the same in
/// every format.
@Suite struct ErrorFactoryTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // IMWireTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
    static let factoriesPath = "Sources/IMWireCore/IMWireError+Factories.swift"

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// `length_out_of_bounds` → `lengthOutOfBounds`, the Swift name of a code.
    static func camelCase(_ name: String) -> String {
        let words = name.split(separator: "_")
        return words.enumerated().map { index, word in
            if index == 0 { return String(word) }
            return word == "utf8" ? "UTF8" : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
    }

    @Test func everyCodeHasAFactoryNamedAfterItThatBuildsThatCode() throws {
        let text = try Self.read(Self.factoriesPath)
        // Each factory: its name and its body up to the next declaration.
        let pieces = text.split(separator: "@inline(never)").dropFirst()
        var codesByFactory: [String: Set<String>] = [:]
        for piece in pieces {
            guard let name = piece.firstMatch(of: /static func (\w+)\(/)?.1 else { continue }
            let built = piece.matches(of: /(?:code: |aboutField\(\w+, )\.(\w+)/).map { String($0.1) }
            codesByFactory[String(name), default: []].formUnion(built)
        }
        #expect(codesByFactory.count > 20, "the scan found \(codesByFactory.keys.sorted())")
        for code in IMWireError.Code.all {
            let swiftName = Self.camelCase(code.name)
            #expect(codesByFactory[swiftName]?.contains(swiftName) == true, "no factory \(swiftName) building .\(swiftName)")
        }
    }

    @Test func camelCaseNamesTheCodesAsSwiftDoes() {
        #expect(Self.camelCase("length_out_of_bounds") == "lengthOutOfBounds")
        #expect(Self.camelCase("invalid_utf8") == "invalidUTF8")
        #expect(Self.camelCase("truncated") == "truncated")
    }

    // MARK: - One situation, one sentence

    /// An input over `maxInputSize` reads the same in the three decoders.
    @Test func anInputOverTheLimitReadsTheSameInEveryDecoder() throws {
        let message = Message(sender: "a", target: .receiver("b"), elems: [.text("hello")])
        let binary = try message.serializedBytes()
        let json = try message.jsonUTF8Bytes()
        let timREST = try message.timRESTUTF8Bytes()
        let limit = 8
        let errors: [IMWireError?] = [
            #expect(throws: IMWireError.self) { try Message(serializedBytes: binary, options: .init(maxInputSize: limit)) },
            #expect(throws: IMWireError.self) { try Message(jsonUTF8Bytes: json, options: .init(maxInputSize: limit)) },
            #expect(throws: IMWireError.self) { try Message(timRESTUTF8Bytes: timREST, options: .init(maxInputSize: limit)) },
        ]
        let sizes = [binary.count, json.count, timREST.count]
        for (error, size) in zip(errors, sizes) {
            #expect(error?.code == .inputTooLarge)
            #expect(error?.reason == "input of \(size) bytes is larger than the limit of 8 bytes")
            #expect(error?.offset == 0)
        }
    }

    /// A model nested past the encoder's limit reads the same in the three encoders.
    @Test func aModelTooDeepToEncodeReadsTheSameInEveryEncoder() throws {
        var message = Message(sender: "a", target: .receiver("b"), elems: [.text("leaf")])
        for _ in 0..<4 { message = Message(sender: "a", target: .receiver("b"), elems: [.merger(MergerElem(title: "m", messages: [message]))]) }
        let limit = 2
        let errors: [IMWireError?] = [
            #expect(throws: IMWireError.self) { try message.serializedBytes(options: .init(maxDepth: limit)) },
            #expect(throws: IMWireError.self) { try message.jsonUTF8Bytes(options: .init(maxDepth: limit)) },
            #expect(throws: IMWireError.self) { try message.timRESTUTF8Bytes(options: .init(maxDepth: limit)) },
        ]
        for error in errors {
            #expect(error?.code == .depthLimitExceeded)
            #expect(error?.reason == "message nesting exceeds the encoder's limit of 2 levels")
        }
    }
}
