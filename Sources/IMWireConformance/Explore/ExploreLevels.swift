/// The levels of the golden cases that the generative mode's classes follow (``FlawKind/exemplar``),
/// read from the fixture manifest: a class is Required or Recommended as its golden case is.
struct ExploreLevels: Sendable {
    private let levels: [String: TestName.Level]

    /// Reads the levels; throws if a class's golden case is missing from `manifest`.
    init(manifest: FixtureManifest) throws(ConformanceSetupError) {
        var levels: [String: TestName.Level] = [:]
        for entry in manifest.entries { levels[entry.name] = try ConformanceSuite.level(of: entry) }
        for kind in FlawKind.allCases where kind.rule == .rejected {
            for exemplar in [kind.exemplar, kind.integerExemplar].compactMap({ $0 }) where levels[exemplar] == nil {
                throw ConformanceSetupError(
                    "the generative class \(kind.rawValue) takes its level from the golden case \(exemplar), which \(manifest.source) does not have")
            }
        }
        self.levels = levels
    }

    /// The level of the golden case `exemplar`: a case of a class judged by ``JudgingRule/rejected``
    /// takes the level of the golden case it generalises (``ExploreCase/exemplar``), a class that of
    /// ``FlawKind/exemplar``.
    func level(of exemplar: String) -> TestName.Level {
        levels[exemplar] ?? .required
    }
}
