import IMWireFuzzSupport

/// Fuzz target: the message view (see FuzzChecks.view for the invariants).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzMain.runOne(data, size, FuzzChecks.view)
}

@main struct FuzzView {
    static func main() {
        FuzzMain.main(callback: fuzzOneInput, check: FuzzChecks.view)
    }
}
