import Foundation

/// The library's Swift modules: `IMWire` and every module it re-exports (the `@_exported import`
/// lines of `Sources/IMWire/API/Exports.swift`), so a module added to the library is one line there
/// and every test that walks the library's sources sees it.
package enum LibraryModules {
    package static let names: [String] = {
        let exports = Fixtures.directory.deletingLastPathComponent()
            .appendingPathComponent("Sources/IMWire/API/Exports.swift")
        let text = (try? String(contentsOf: exports, encoding: .utf8)) ?? ""
        let reexported = text.split(separator: "\n").compactMap { line -> String? in
            line.hasPrefix("@_exported import ") ? String(line.dropFirst("@_exported import ".count)) : nil
        }
        return ["IMWire"] + reexported
    }()
}
