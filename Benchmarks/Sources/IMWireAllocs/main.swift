// imwire-allocs: the harness of imwire-bench (Harness.swift) with a counting allocator linked in
// (CMallocCount), for its `allocs` command: heap allocations per message of each operation. A program
// of its own, so that imwire-bench times with the C library's allocator untouched.

import BenchSupport
import CMallocCount

runHarness(
    "imwire-allocs", Implementation.allCases.map(\.harness), arguments: Array(CommandLine.arguments.dropFirst()),
    countAllocations: { body in
        malloc_count_start()
        do { try body() } catch {
            _ = malloc_count_stop()
            throw error
        }
        return Int(malloc_count_stop())
    })
