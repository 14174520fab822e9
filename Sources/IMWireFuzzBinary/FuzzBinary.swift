import IMWireFuzzSupport

/// Fuzz target: binary decoding (see FuzzChecks.binary for the invariants).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzMain.runOne(data, size, FuzzChecks.binary)
}

@main struct FuzzBinary {
    static func main() {
        FuzzMain.main(callback: fuzzOneInput, check: FuzzChecks.binary)
    }
}
