// The heap in use, for the tests that measure what a value keeps alive (RetentionTests).
#ifndef IMWIRE_TEST_HEAP_H
#define IMWIRE_TEST_HEAP_H

/// Bytes of every live heap allocation (glibc: mallinfo2's uordblks plus its separately mapped blocks;
/// Apple: the default zone's size in use); -1 where the C library cannot tell.
long long imwire_test_heap_in_use(void);

#endif
