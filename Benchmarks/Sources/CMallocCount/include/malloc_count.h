// Counts the heap allocations of this process (every malloc, calloc, realloc of nothing,
// posix_memalign and aligned_alloc, the Swift runtime's included), for imwire-allocs: linked into
// that program only, so the timing harness runs on the C library's allocator untouched.
#ifndef MALLOC_COUNT_H
#define MALLOC_COUNT_H

/// Starts counting from zero.
void malloc_count_start(void);
/// Stops counting; returns the allocations since `malloc_count_start`.
long long malloc_count_stop(void);

#endif
