import Foundation

/// A testee's list of tests it is known to fail, each with its reason (Docs/conformance.md).
///
/// The file has one entry per line, `PATTERN  # reason`; the reason is required. `PATTERN` is a full
/// test name, or one with `*` standing for exactly one whole dot-separated segment
/// (`Recommended.BinaryInput.*.ParseErrorCode`). Lines that are empty or start with `#` are
/// comments. A test matched by an entry that fails counts as an expected failure, not a failure.
///
/// The list must stay honest: an entry that matches at least one test that ran, all of which now
/// pass, makes the run fail ("unexpected pass") until it is removed. An entry that matches no test
/// that ran (a typo, a filtered or skipped test) only earns a note.
///
/// An entry whose pattern starts with `?` (`?Recommended.*.*.CanonicalBinaryOutput  # …`) is for
/// tests whose outcome the testee does not decide: its tests may fail (an expected failure) or pass
/// (a pass, never an unexpected one). It is meant for output that changes from run to run, such as
/// maps written in hash order by a runtime with no deterministic mode (Docs/conformance.md).
public struct ExpectedFailureList: Sendable {
    /// One line of the file.
    public struct Entry: Sendable {
        /// The tests it names.
        public let pattern: TestNamePattern
        /// Why they fail (the text after `#`).
        public let reason: String
        /// `FILE:LINE`, for the report.
        public let location: String
        /// Written with a leading `?`: its tests may pass as well as fail, and a pass is no
        /// unexpected pass.
        public let mayPass: Bool

        /// An entry for `pattern`, with its reason and `FILE:LINE`.
        public init(pattern: TestNamePattern, reason: String, location: String, mayPass: Bool = false) {
            self.pattern = pattern
            self.reason = reason
            self.location = location
            self.mayPass = mayPass
        }
    }

    /// Where the list came from (the file path), for the report.
    public let source: String
    /// The entries, in file order.
    public let entries: [Entry]

    /// A list of `entries` read from `source`.
    public init(source: String, entries: [Entry]) {
        self.source = source
        self.entries = entries
    }

    /// Reads and parses the file at `path`.
    public static func load(path: String) throws(ConformanceSetupError) -> ExpectedFailureList {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConformanceSetupError("cannot read the expected-failure file \(path)")
        }
        return try parse(String(decoding: data, as: UTF8.self), source: path)
    }

    /// Parses the text of an expected-failure file.
    public static func parse(_ text: String, source: String) throws(ConformanceSetupError) -> ExpectedFailureList {
        var entries: [Entry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let location = "\(source):\(index + 1)"
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            var patternText = parts[0].trimmingCharacters(in: .whitespaces)
            let mayPass = patternText.hasPrefix("?")
            if mayPass { patternText.removeFirst() }
            let reason = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            guard !reason.isEmpty else {
                throw ConformanceSetupError("\(location): entry \"\(patternText)\" has no reason (write `PATTERN  # reason`)")
            }
            guard !patternText.contains(where: \.isWhitespace) else {
                throw ConformanceSetupError("\(location): \"\(patternText)\" is not one test name pattern")
            }
            let pattern: TestNamePattern
            do {
                pattern = try TestNamePattern(patternText)
            } catch {
                throw ConformanceSetupError("\(location): \(error)")
            }
            guard pattern.segments.count == 4 else {
                throw ConformanceSetupError("\(location): \"\(patternText)\" has \(pattern.segments.count) segments; test names have 4 (Level.Input.Case.Output)")
            }
            if let level = pattern.segments[0], TestName.Level(rawValue: level) == nil {
                throw ConformanceSetupError("\(location): \"\(patternText)\" must start with Required, Recommended or *")
            }
            entries.append(Entry(pattern: pattern, reason: reason, location: location, mayPass: mayPass))
        }
        return ExpectedFailureList(source: source, entries: entries)
    }

    /// The indices of the entries matching `name`.
    func matches(_ name: String) -> [Int] {
        entries.indices.filter { entries[$0].pattern.matches(name) }
    }
}
