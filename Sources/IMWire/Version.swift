/// The version of this package, `MAJOR.MINOR.PATCH` (semantic versioning; while MAJOR is 0 a MINOR
/// release may change the API). `imwire --version` prints it; CHANGELOG.md lists what each version
/// changed.
public enum IMWireVersion {
    /// This version, e.g. `0.2.0`.
    public static let current = "0.2.0"
}
