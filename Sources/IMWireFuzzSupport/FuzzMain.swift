#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of a fuzz target executable. Built with `-DFUZZING -sanitize=fuzzer -parse-as-library`
/// (Scripts/fuzz), libFuzzer calls the target's `LLVMFuzzerTestOneInput`; built normally, the
/// executable replays the files named on its command line through the same check, so a finding
/// can be reproduced without the fuzzer.
public enum FuzzMain {
    /// Runs `check` on one input; a violated invariant stops the process with its description.
    public static func runOne(_ data: UnsafePointer<UInt8>?, _ size: Int, _ check: ([UInt8]) throws(Invariants.Violation) -> Void) -> Int32 {
        let bytes = Array(UnsafeBufferPointer(start: data, count: size))
        do {
            try check(bytes)
        } catch {
            fatalError("invariant violated: \(error)")
        }
        return 0
    }

    /// Everything left in `file`.
    package static func readAll(_ file: UnsafeMutablePointer<FILE>) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// Replays files: prints one line per file and exits 1 if any violates an invariant.
    public static func replay(arguments: [String], _ check: ([UInt8]) throws(Invariants.Violation) -> Void) -> Never {
        var failed = false
        for path in arguments {
            guard let file = fopen(path, "rb") else {
                print("\(path): cannot open")
                failed = true
                continue
            }
            let bytes = readAll(file)
            fclose(file)
            do {
                try check(bytes)
                print("\(path): ok")
            } catch {
                print("\(path): \(error)")
                failed = true
            }
        }
        exit(failed ? 1 : 0)
    }
}

#if FUZZING
/// libFuzzer's driver, for a main that SwiftPM's executable linking insists on owning.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif

extension FuzzMain {
    /// The executable's main: under `-DFUZZING` hands control to libFuzzer with `callback`;
    /// otherwise replays the files named on the command line through `check`.
    public static func main(
        callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32,
        check: ([UInt8]) throws(Invariants.Violation) -> Void
    ) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
        #else
        replay(arguments: Array(CommandLine.arguments.dropFirst()), check)
        #endif
    }
}
