import Foundation

/// `Fixtures/manifest.json` (SPEC §4.1, `Fixtures/README.md`): every golden case with its kind and
/// the paths of its files, relative to the fixtures directory.
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
    }

    /// The fixtures directory the paths are relative to.
    public let directory: String
    /// The cases, in manifest order (sorted by name).
    public let entries: [Entry]

    /// Reads `DIRECTORY/manifest.json`.
    public static func load(directory: String) throws(ConformanceSetupError) -> FixtureManifest {
        let path = (directory as NSString).appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConformanceSetupError("cannot read \(path)")
        }
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
            for (key, value) in entry {
                switch value {
                case .string(let string): strings[key] = string
                case .bool(let flag): flags[key] = flag
                case .strings(let list): lists[key] = list
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
                objectKeys: objectKeys))
        }
        return FixtureManifest(directory: directory, entries: entries)
    }

    /// The bytes of the file at `relativePath` (a path from the manifest).
    public func bytes(_ relativePath: String) throws(ConformanceSetupError) -> [UInt8] {
        let path = (directory as NSString).appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConformanceSetupError("missing fixture file \(path)")
        }
        return [UInt8](data)
    }

    /// The fixtures directory for a run started in `currentDirectory`: the first of
    /// `currentDirectory/Fixtures`, `../Fixtures`, `../../Fixtures`, … that holds a manifest.json.
    public static func findDirectory(from currentDirectory: String = FileManager.default.currentDirectoryPath) -> String? {
        var directory = URL(fileURLWithPath: currentDirectory).standardizedFileURL
        while true {
            let candidate = directory.appendingPathComponent("Fixtures")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("manifest.json").path) {
                return candidate.path
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }
}

/// The manifest's shape: `{"version": 1, "cases": [{…}, …]}`, each case an object of strings,
/// booleans, lists of strings and objects (only their presence is kept); other values are ignored.
private struct ManifestFile: Decodable {
    enum Value: Decodable {
        case string(String)
        case bool(Bool)
        case strings([String])
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
