import IMWireFuzzSupport

/// Fuzz target: the conformance protocol's frame reader and the Swift testee (see
/// FuzzChecks.conformanceFrames for the invariants).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzMain.runOne(data, size, FuzzChecks.conformanceFrames)
}

@main struct FuzzConformance {
    static func main() {
        FuzzMain.main(callback: fuzzOneInput, check: FuzzChecks.conformanceFrames)
    }
}
