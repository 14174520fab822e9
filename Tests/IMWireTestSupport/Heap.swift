import CIMWireTestHeap

/// Bytes of every live heap allocation now, or `nil` where the C library cannot tell.
package func heapInUse() -> Int? {
    let bytes = imwire_test_heap_in_use()
    return bytes < 0 ? nil : Int(bytes)
}
