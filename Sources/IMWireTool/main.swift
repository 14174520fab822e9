import IMWireCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let result = CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), io: .standard)
writeAll(result.stdout, to: 1)
writeAll(Array(result.stderr.utf8), to: 2)
exit(result.status)
