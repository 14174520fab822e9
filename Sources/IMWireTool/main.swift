import IMWireCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let result = CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), io: .standard)
writeAll(result.stdout, to: 1)
writeAll(Array(result.stderr.utf8), to: 2)
reportPeakMemoryIfAsked()
exit(result.status)

/// Diagnostics: with IMWIRE_PEAK_MEMORY_FILE set, writes this process's peak resident memory
/// (Linux VmHWM, in KiB) to that file. The memory-safety tests use it: a parent's rusage of a child
/// started with posix_spawn (vfork) also counts the parent's own memory.
func reportPeakMemoryIfAsked() {
    guard let path = getenv("IMWIRE_PEAK_MEMORY_FILE"), let status = fopen("/proc/self/status", "r") else { return }
    defer { fclose(status) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), status) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:"), let out = fopen(path, "w") {
            fputs(text, out)
            fclose(out)
            return
        }
    }
}
