import IMWireFuzzSupport

/// Fuzz target: see FuzzChecks.validation for the invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzMain.runOne(data, size, FuzzChecks.validation)
}

@main struct FuzzValidation {
    static func main() {
        FuzzMain.main(callback: fuzzOneInput, check: FuzzChecks.validation)
    }
}
