// UTF-8 validation at memory speed for IMWire's decoders (Keiser and Lemire, "Validating UTF-8 In
// Less Than One Instruction Per Byte", 2021: the lookup algorithm, as upb's utf8_range uses it).
#ifndef IMWIRE_UTF8_H
#define IMWIRE_UTF8_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What imwire_utf8_check found.
enum {
    IMWIRE_UTF8_INVALID = 0,
    IMWIRE_UTF8_VALID = 1,  // valid, with at least one byte above 0x7F
    IMWIRE_UTF8_ASCII = 2,  // valid, every byte 0x00...0x7F
};

/// Whether `bytes[0..<count]` is valid UTF-8 (Unicode's table 3-7: no overlong forms, no
/// surrogates, nothing above U+10FFFF, no truncated sequence), and whether it is all ASCII.
/// Uses the widest vector unit the processor has (AVX-512 BW/VL, AVX2 or SSSE3 on x86-64, NEON
/// on ARM64), chosen once, and a scalar loop elsewhere and for short strings without AVX-512.
int imwire_utf8_check(const uint8_t *bytes, size_t count);

/// The same check with a given implementation, for tests and benchmarks: 0 scalar, 1 SSSE3,
/// 2 AVX2, 3 NEON, 4 AVX-512 (BW and VL, 256-bit vectors with masked loads). Returns -1 when the
/// processor or the build lacks that implementation.
int imwire_utf8_check_with(int implementation, const uint8_t *bytes, size_t count);

/// The implementation imwire_utf8_check uses on this processor (numbered as above).
int imwire_utf8_implementation(void);

#ifdef __cplusplus
}
#endif

#endif
