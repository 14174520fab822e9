import Foundation
import Testing

/// The golden fixtures under `Fixtures/`, read through `Fixtures/manifest.json` (Fixtures/README.md),
/// located relative to this file so Linux needs no resource bundles.
package enum Fixtures {
    package static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // IMWireTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repo root
        .appendingPathComponent("Fixtures")

    /// One manifest entry.
    package struct Case: Sendable, CustomTestStringConvertible {
        package let name: String
        package let category: String
        package let kind: String
        package let fields: [String: String]
        package let hasUnknownFields: Bool
        /// The manifest's list-valued keys, e.g. `expected_codes` of a `limit` case, and the keys of
        /// its objects of flags (`options`: `["ignore_unknown_fields"]`).
        package var lists: [String: [String]] = [:]

        package var testDescription: String { name }

        /// The conformance level of the case's acceptance tests (`Required` unless the manifest
        /// says `"level": "recommended"`).
        package var level: String { fields["level"] == "recommended" ? "Recommended" : "Required" }

        package func bytes(_ key: String) -> [UInt8] {
            guard let path = fields[key] else { fatalError("fixture \(name) has no \(key)") }
            return Fixtures.read(path)
        }

        package func text(_ key: String) -> String {
            String(decoding: bytes(key), as: UTF8.self)
        }
    }

    package static let all: [Case] = {
        let data = try! Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        let root = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["cases"] as! [[String: Any]]).map { entry in
            var fields: [String: String] = [:]
            var lists: [String: [String]] = [:]
            for (key, value) in entry {
                if let string = value as? String { fields[key] = string }
                if let list = value as? [String] { lists[key] = list }
                // An object of flags (`options`): its keys, as a list.
                if let object = value as? [String: Bool] { lists[key] = object.keys.sorted() }
            }
            return Case(
                name: entry["name"] as! String,
                category: entry["category"] as? String ?? "",
                kind: entry["kind"] as! String,
                fields: fields,
                hasUnknownFields: entry["has_unknown_fields"] as? Bool ?? false,
                lists: lists)
        }
    }()

    package static func cases(kind: String) -> [Case] { all.filter { $0.kind == kind } }

    package static func read(_ relativePath: String) -> [UInt8] {
        let url = directory.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            fatalError("missing fixture file \(url.path)")
        }
        return [UInt8](data)
    }
}

package func hex(_ bytes: [UInt8], limit: Int = 96) -> String {
    let digits = bytes.prefix(limit).map { String(format: "%02x", $0) }.joined()
    return bytes.count > limit ? digits + "…(\(bytes.count) bytes)" : digits
}
