// The allocation functions of this program, defined here so that every call in the process (the
// Swift runtime's through its PLT included) comes through them; each forwards to glibc's own
// (__libc_malloc and the rest) and counts while counting is on. glibc only: elsewhere the counter
// stays at zero and imwire-allocs says so.
#include "malloc_count.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#if defined(__GLIBC__)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static volatile int counting;
static long long allocations;

void malloc_count_start(void) {
    allocations = 0;
    counting = 1;
}

long long malloc_count_stop(void) {
    counting = 0;
    return allocations;
}

void *malloc(size_t size) {
    if (counting) allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    if (counting) allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (counting) allocations++;  // a new block or a moved one: an allocation either way
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (counting) allocations++;
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *out = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (counting) allocations++;
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    if (counting) allocations++;
    return __libc_memalign(alignment, size);
}
#else
void malloc_count_start(void) {}
long long malloc_count_stop(void) { return -1; }
#endif
