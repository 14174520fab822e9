import IMWireFuzzSupport

/// Fuzz target: json decoding and the JSON message view (see FuzzChecks.json for the invariants).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzMain.runOne(data, size, FuzzChecks.json)
}

@main struct FuzzJSON {
    static func main() {
        FuzzMain.main(callback: fuzzOneInput, check: FuzzChecks.json)
    }
}
