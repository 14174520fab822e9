import IMWireFuzzSupport

/// Fuzz target: the vectorised UTF-8 validator (see FuzzChecks.utf8 for the invariants).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzMain.runOne(data, size, FuzzChecks.utf8)
}

@main struct FuzzUTF8 {
    static func main() {
        FuzzMain.main(callback: fuzzOneInput, check: FuzzChecks.utf8)
    }
}
