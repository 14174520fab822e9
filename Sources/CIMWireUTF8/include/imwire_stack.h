// The stack position for IMWire's stack guard (Sources/IMWireCore/Support/StackGuard.swift).
#ifndef IMWIRE_STACK_H
#define IMWIRE_STACK_H

#include <stdint.h>

/// The address of the calling frame on the thread's stack. The stack guard compares it with the
/// thread's stack bounds. The address of a local variable would not do: AddressSanitizer, to find
/// uses of a local after its function returned, moves locals to a "fake stack" on the heap, so a
/// guard reading a local's address would see a position outside the stack and refuse nesting that
/// fits (a program built with `-sanitize=address` would get `depth_limit_exceeded` at 16 levels).
static inline __attribute__((always_inline)) uintptr_t imwire_stack_position(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

#endif
