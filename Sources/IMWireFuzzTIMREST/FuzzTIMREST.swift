import IMWireFuzzSupport

/// Fuzz target: see FuzzChecks.timREST for the invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzMain.runOne(data, size, FuzzChecks.timREST)
}

@main struct FuzzTIMREST {
    static func main() {
        FuzzMain.main(callback: fuzzOneInput, check: FuzzChecks.timREST)
    }
}
