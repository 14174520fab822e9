#include "heap_in_use.h"
#include <stdlib.h>  /* defines __GLIBC__ on glibc */

#if defined(__GLIBC__)
#include <malloc.h>

long long bench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#else
long long bench_heap_in_use(void) { return -1; }
#endif
