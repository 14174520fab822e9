import IMWireFuzzSupport

/// Fuzz target: the message views against the decoders, on every input read both ways — as binary
/// (the binary view against a binary decode) and as proto3 JSON (the JSON view against a JSON
/// decode). See FuzzChecks.differential for the invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzMain.runOne(data, size, FuzzChecks.differential)
}

@main struct FuzzDifferential {
    static func main() {
        FuzzMain.main(callback: fuzzOneInput, check: FuzzChecks.differential)
    }
}
