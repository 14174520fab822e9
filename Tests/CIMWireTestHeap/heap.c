#include "imwire_test_heap.h"

#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>

long long imwire_test_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>

long long imwire_test_heap_in_use(void) {
    malloc_statistics_t stats;
    malloc_zone_statistics(NULL, &stats);
    return (long long)stats.size_in_use;
}
#else
long long imwire_test_heap_in_use(void) { return -1; }
#endif
