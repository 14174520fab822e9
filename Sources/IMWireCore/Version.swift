/// The version of this package, `MAJOR.MINOR.PATCH` (semantic versioning; while MAJOR is 0 a MINOR
/// release may change the API).
///
/// ``current`` is the one place the version is written: `imwire --version` prints it, and a test
/// checks that the latest entry of `CHANGELOG.md`, which lists what each version changed, names it.
public enum IMWireVersion {
    /// This version, e.g. `0.3.0`.
    public static let current = "0.3.0"
}
