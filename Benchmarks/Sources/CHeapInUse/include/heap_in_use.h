// The heap in use, for the memory figures of the benchmark harness (Harness.swift: bytesHeld).
#ifndef HEAP_IN_USE_H
#define HEAP_IN_USE_H
#include <stddef.h>

/// Bytes of every live heap allocation with its chunk overhead (glibc: mallinfo2().uordblks, plus
/// the blocks it maps on their own, hblkhd); -1 where the C library cannot tell.
long long bench_heap_in_use(void);

#endif
