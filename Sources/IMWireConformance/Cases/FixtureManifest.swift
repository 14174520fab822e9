import CIMWireFixtures
import IMWire
import Foundation

/// `Fixtures/manifest.json` (`Fixtures/README.md`): every golden case with its kind and the paths of
/// its files, relative to the fixtures directory — read from a directory, or from the copy built
/// into this binary (``embedded()``).
public struct FixtureManifest: Sendable {
    /// One case of the manifest.
    public struct Entry: Sendable {
        /// Unique lower_snake_case name, e.g. `elem_text_all_fields`.
        public let name: String
        /// `valid`, `noncanonical_binary`, `invalid_binary`, `limit`, …
        public let kind: String
        /// The source file the case comes from (`elems`, `unicode`, …).
        public let category: String
        /// What the case is about, for people.
        public let description: String
        /// The case's string-valued keys: file paths (`binpb`, `json`, `input`), the expected error
        /// code (`error`), the validation profile (`profile`).
        public let strings: [String: String]
        /// The case's boolean keys (`has_unknown_fields`, `python_accepts`, …).
        public let flags: [String: Bool]
        /// The case's list-of-strings keys (`expected_codes`).
        public let lists: [String: [String]]
        /// The keys whose value is an object (`options`: decoder options such as
        /// `ignore_unknown_fields`).
        public let objectKeys: Set<String>
        /// The keys whose value is an object of booleans, with that object (`options`).
        public let flagObjects: [String: [String: Bool]]
    }

    /// Where the fixtures come from: the directory, or `the fixtures built into imwire VERSION`.
    public let source: String
    /// The cases, in manifest order (sorted by name).
    public let entries: [Entry]
    /// The bytes of a file, by its path relative to the fixtures directory.
    private let read: @Sendable (String) -> [UInt8]?

    /// Reads `DIRECTORY/manifest.json`; the files are read from `DIRECTORY` as they are needed.
    public static func load(directory: String) throws(ConformanceSetupError) -> FixtureManifest {
        try parse(source: directory) { relativePath in
            let path = (directory as NSString).appendingPathComponent(relativePath)
            return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        }
    }

    /// The fixtures this binary was built with (`Scripts/gen_embedded_fixtures.py`), so that the
    /// suite runs from any directory.
    public static func embedded() throws(ConformanceSetupError) -> FixtureManifest {
        try parse(source: "the fixtures built into imwire \(IMWireVersion.current)") { relativePath in
            EmbeddedFixtures.files[relativePath]
        }
    }

    private static func parse(
        source: String, read: @escaping @Sendable (String) -> [UInt8]?
    ) throws(ConformanceSetupError) -> FixtureManifest {
        let path = "manifest.json in \(source)"
        guard let bytes = read("manifest.json") else {
            throw ConformanceSetupError("cannot read \(path)")
        }
        let data = Data(bytes)
        let file: ManifestFile
        do {
            file = try JSONDecoder().decode(ManifestFile.self, from: data)
        } catch {
            throw ConformanceSetupError("\(path) is not a fixture manifest: \(error)")
        }
        var entries: [Entry] = []
        for (index, entry) in file.cases.enumerated() {
            var strings: [String: String] = [:]
            var flags: [String: Bool] = [:]
            var lists: [String: [String]] = [:]
            var objectKeys: Set<String> = []
            var flagObjects: [String: [String: Bool]] = [:]
            for (key, value) in entry {
                switch value {
                case .string(let string): strings[key] = string
                case .bool(let flag): flags[key] = flag
                case .strings(let list): lists[key] = list
                case .flags(let object):
                    objectKeys.insert(key)
                    flagObjects[key] = object
                case .object: objectKeys.insert(key)
                case .other: break
                }
            }
            guard let name = strings["name"], let kind = strings["kind"] else {
                throw ConformanceSetupError("\(path): case \(index) has no name or kind")
            }
            entries.append(Entry(
                name: name, kind: kind, category: strings["category"] ?? "",
                description: strings["description"] ?? "", strings: strings, flags: flags, lists: lists,
                objectKeys: objectKeys, flagObjects: flagObjects))
        }
        return FixtureManifest(source: source, entries: entries, read: read)
    }

    /// The bytes of the file at `relativePath` (a path from the manifest).
    public func bytes(_ relativePath: String) throws(ConformanceSetupError) -> [UInt8] {
        guard let bytes = read(relativePath) else {
            throw ConformanceSetupError("missing fixture file \(relativePath) in \(source)")
        }
        return bytes
    }
}

/// The files of `Sources/CIMWireFixtures`, by path relative to `Fixtures/`.
private enum EmbeddedFixtures {
    static let files: [String: [UInt8]] = {
        var files: [String: [UInt8]] = [:]
        for index in 0..<imwire_fixture_count() {
            var count = 0
            let bytes = imwire_fixture_bytes(index, &count)
            files[String(cString: imwire_fixture_path(index))] =
                count == 0 ? [] : Array(UnsafeBufferPointer(start: bytes, count: count))
        }
        return files
    }()
}

/// The manifest's shape: `{"version": 1, "cases": [{…}, …]}`, each case an object of strings,
/// booleans, lists of strings and objects (objects of booleans are kept, of other objects only their
/// presence); other values are ignored.
private struct ManifestFile: Decodable {
    enum Value: Decodable {
        case string(String)
        case bool(Bool)
        case strings([String])
        case flags([String: Bool])
        case object
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                self = .string(string)
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let list = try? container.decode([String].self) {
                self = .strings(list)
            } else if let object = try? container.decode([String: Bool].self) {
                self = .flags(object)
            } else if (try? container.decode([String: Value].self)) != nil {
                self = .object
            } else {
                self = .other
            }
        }
    }

    let cases: [[String: Value]]
}

/// A problem that stops a conformance run before it starts: unreadable fixtures, a malformed
/// expected-failure file, a bad pattern. The CLI exits with status 2.
public struct ConformanceSetupError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, for people.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
