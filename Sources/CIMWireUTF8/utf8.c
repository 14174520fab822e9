// UTF-8 validation with the lookup algorithm of Keiser and Lemire ("Validating UTF-8 In Less Than
// One Instruction Per Byte", Software: Practice and Experience, 2021), written for IMWire.
//
// Each byte is checked against the one before it by three table lookups (the high nibble of the
// previous byte, its low nibble, and the high nibble of this byte): the AND of the three is a set of
// error bits, one per way a two-byte pair can be wrong (too short, too long, overlong, surrogate,
// above U+10FFFF, two continuations). Two continuations are an error unless the byte two or three
// back is a lead of a three- or four-byte sequence; a sequence cut off by the end of the input is
// caught by checking the last three bytes. Blocks of ASCII skip all of it.

#include "imwire_utf8.h"

#include <stdatomic.h>
#include <string.h>

// The error bits (one per class of malformed pair).
#define TOO_SHORT (1 << 0)      // a lead followed by a lead or ASCII
#define TOO_LONG (1 << 1)       // ASCII followed by a continuation
#define OVERLONG_3 (1 << 2)     // E0 80..9F
#define TOO_LARGE (1 << 3)      // F4 90..BF
#define SURROGATE (1 << 4)      // ED A0..BF
#define OVERLONG_2 (1 << 5)     // C0..C1 xx
#define TOO_LARGE_1000 (1 << 6) // F5..FF 80..8F
#define OVERLONG_4 (1 << 6)     // F0 80..8F
#define TWO_CONTS (1 << 7)      // a continuation followed by a continuation
#define CARRY (TOO_SHORT | TOO_LONG | TWO_CONTS)

// Indexed by the high nibble of the previous byte.
static const uint8_t byte_1_high[16] = {
    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
    TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
};
// Indexed by the low nibble of the previous byte.
static const uint8_t byte_1_low[16] = {
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
};
// Indexed by the high nibble of the byte itself.
static const uint8_t byte_2_high[16] = {
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
};
// A block whose last three bytes exceed these ends inside a sequence (the next block must go on).
static const uint8_t incomplete_max[32] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0xF0 - 1, 0xE0 - 1, 0xC0 - 1,
};

// ---------------------------------------------------------------------------------------------
// Scalar: the well-formed sequences of Unicode's table 3-7, eight ASCII bytes at a time.

static int check_scalar(const uint8_t *bytes, size_t count) {
    // [unsafe: utf8-validator] Eight bytes are read after `i + 8 <= count`, a sequence's `need`
    // continuation bytes after `count - i - 1 >= need`, single bytes below `count`.
    size_t i = 0;
    int ascii = 1;
    while (i < count) {
        if (i + 8 <= count) {
            uint64_t word;
            memcpy(&word, bytes + i, 8);
            if ((word & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        uint8_t lead = bytes[i];
        if (lead < 0x80) {
            i += 1;
            continue;
        }
        ascii = 0;
        size_t need;
        uint8_t low = 0x80, high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            need = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            need = 2;
            if (lead == 0xE0) low = 0xA0;   // overlong
            if (lead == 0xED) high = 0x9F;  // surrogates
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            need = 3;
            if (lead == 0xF0) low = 0x90;   // overlong
            if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
        } else {
            return IMWIRE_UTF8_INVALID;
        }
        if (count - i - 1 < need) return IMWIRE_UTF8_INVALID;
        uint8_t second = bytes[i + 1];
        if (second < low || second > high) return IMWIRE_UTF8_INVALID;
        for (size_t k = 2; k <= need; k++) {
            if ((bytes[i + k] & 0xC0) != 0x80) return IMWIRE_UTF8_INVALID;
        }
        i += need + 1;
    }
    return ascii ? IMWIRE_UTF8_ASCII : IMWIRE_UTF8_VALID;
}

// ---------------------------------------------------------------------------------------------
// x86-64: SSSE3 (16 bytes a block) and AVX2 (32), chosen at run time.

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

__attribute__((target("ssse3")))
static int check_ssse3(const uint8_t *bytes, size_t count) {
    // [unsafe: utf8-validator] The tables are 16 and 32 bytes, read within; a block of the input is
    // loaded after `count - i >= 16`, the last partial one copied into a zeroed 16-byte buffer.
    const __m128i t1 = _mm_loadu_si128((const __m128i *)byte_1_high);
    const __m128i t2 = _mm_loadu_si128((const __m128i *)byte_1_low);
    const __m128i t3 = _mm_loadu_si128((const __m128i *)byte_2_high);
    const __m128i nibble = _mm_set1_epi8(0x0F);
    const __m128i max = _mm_loadu_si128((const __m128i *)(incomplete_max + 16));
    const __m128i third_lead = _mm_set1_epi8((char)(0xE0 - 0x80));
    const __m128i fourth_lead = _mm_set1_epi8((char)(0xF0 - 0x80));
    const __m128i high_bit = _mm_set1_epi8((char)0x80);
    __m128i prev = _mm_setzero_si128(), error = _mm_setzero_si128(), incomplete = _mm_setzero_si128();
    __m128i any = _mm_setzero_si128();
    uint8_t tail[16];
    size_t i = 0;
    while (i < count) {
        __m128i input;
        if (count - i >= 16) {
            input = _mm_loadu_si128((const __m128i *)(bytes + i));
        } else {
            // The last partial block, padded with NUL (ASCII): a sequence cut off by the end is then
            // followed by ASCII, which the pair check reports as too short.
            memset(tail, 0, sizeof tail);
            memcpy(tail, bytes + i, count - i);
            input = _mm_loadu_si128((const __m128i *)tail);
        }
        i += 16;
        if (_mm_movemask_epi8(input) == 0) {
            error = _mm_or_si128(error, incomplete);
            incomplete = _mm_setzero_si128();
            prev = input;
            continue;
        }
        any = _mm_or_si128(any, input);
        __m128i prev1 = _mm_alignr_epi8(input, prev, 15);
        __m128i high1 = _mm_shuffle_epi8(t1, _mm_and_si128(_mm_srli_epi16(prev1, 4), nibble));
        __m128i low1 = _mm_shuffle_epi8(t2, _mm_and_si128(prev1, nibble));
        __m128i high2 = _mm_shuffle_epi8(t3, _mm_and_si128(_mm_srli_epi16(input, 4), nibble));
        __m128i special = _mm_and_si128(_mm_and_si128(high1, low1), high2);
        __m128i prev2 = _mm_alignr_epi8(input, prev, 14);
        __m128i prev3 = _mm_alignr_epi8(input, prev, 13);
        __m128i must23 = _mm_or_si128(_mm_subs_epu8(prev2, third_lead), _mm_subs_epu8(prev3, fourth_lead));
        error = _mm_or_si128(error, _mm_xor_si128(_mm_and_si128(must23, high_bit), special));
        incomplete = _mm_subs_epu8(input, max);
        prev = input;
    }
    error = _mm_or_si128(error, incomplete);
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(error, _mm_setzero_si128())) != 0xFFFF) return IMWIRE_UTF8_INVALID;
    return _mm_movemask_epi8(any) == 0 ? IMWIRE_UTF8_ASCII : IMWIRE_UTF8_VALID;
}

// The byte `n` places back in the concatenation prev:input, for each byte of input (AVX2's alignr
// works within 128-bit lanes, so the lane boundary comes from a permute).
#define PREV256(input, prev, n) _mm256_alignr_epi8((input), _mm256_permute2x128_si256((prev), (input), 0x21), 16 - (n))

// The state of the AVX2 check between 32-byte blocks.
struct avx2_state {
    __m256i prev, error, incomplete, any;
};

// One 32-byte block of the check (the SSSE3 one on twice the width), shared by the AVX2 and the
// AVX-512 variants, which differ only in how they read the last block. Inlined into both: the
// lookup tables and constants are loop invariants there, loaded once.
__attribute__((target("avx2"), always_inline))
static inline void avx2_block(struct avx2_state *state, __m256i input) {
    // [unsafe: utf8-validator] Loads of the constant tables only, each within its length.
    const __m256i t1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)byte_1_high));
    const __m256i t2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)byte_1_low));
    const __m256i t3 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)byte_2_high));
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i max = _mm256_loadu_si256((const __m256i *)incomplete_max);
    const __m256i third_lead = _mm256_set1_epi8((char)(0xE0 - 0x80));
    const __m256i fourth_lead = _mm256_set1_epi8((char)(0xF0 - 0x80));
    const __m256i high_bit = _mm256_set1_epi8((char)0x80);
    if (_mm256_movemask_epi8(input) == 0) {
        state->error = _mm256_or_si256(state->error, state->incomplete);
        state->incomplete = _mm256_setzero_si256();
        state->prev = input;
        return;
    }
    state->any = _mm256_or_si256(state->any, input);
    __m256i prev1 = PREV256(input, state->prev, 1);
    __m256i high1 = _mm256_shuffle_epi8(t1, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
    __m256i low1 = _mm256_shuffle_epi8(t2, _mm256_and_si256(prev1, nibble));
    __m256i high2 = _mm256_shuffle_epi8(t3, _mm256_and_si256(_mm256_srli_epi16(input, 4), nibble));
    __m256i special = _mm256_and_si256(_mm256_and_si256(high1, low1), high2);
    __m256i prev2 = PREV256(input, state->prev, 2);
    __m256i prev3 = PREV256(input, state->prev, 3);
    __m256i must23 = _mm256_or_si256(_mm256_subs_epu8(prev2, third_lead), _mm256_subs_epu8(prev3, fourth_lead));
    state->error = _mm256_or_si256(state->error, _mm256_xor_si256(_mm256_and_si256(must23, high_bit), special));
    state->incomplete = _mm256_subs_epu8(input, max);
    state->prev = input;
}

// The verdict once every block has been through avx2_block.
__attribute__((target("avx2"), always_inline))
static inline int avx2_result(const struct avx2_state *state) {
    __m256i error = _mm256_or_si256(state->error, state->incomplete);
    if (!_mm256_testz_si256(error, error)) return IMWIRE_UTF8_INVALID;
    return _mm256_movemask_epi8(state->any) == 0 ? IMWIRE_UTF8_ASCII : IMWIRE_UTF8_VALID;
}

__attribute__((target("avx2")))
static int check_avx2(const uint8_t *bytes, size_t count) {
    // [unsafe: utf8-validator] A block is loaded after `count - i >= 32`; the last partial one is
    // copied (`count - i` bytes) into a zeroed 32-byte buffer.
    struct avx2_state state = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    uint8_t tail[32];
    size_t i = 0;
    while (i < count) {
        __m256i input;
        if (count - i >= 32) {
            input = _mm256_loadu_si256((const __m256i *)(bytes + i));
        } else {
            memset(tail, 0, sizeof tail);
            memcpy(tail, bytes + i, count - i);
            input = _mm256_loadu_si256((const __m256i *)tail);
        }
        i += 32;
        avx2_block(&state, input);
    }
    return avx2_result(&state);
}

// AVX-512 (BW and VL, on 256-bit vectors): AVX2's algorithm, with the last block read by a masked
// load instead of copied into a padded buffer, so a short string (an ID, a name, a short text: most
// strings a message holds) is one block and no copy, and it needs no scalar loop.
__attribute__((target("avx2,avx512f,avx512bw,avx512vl")))
static int check_avx512(const uint8_t *bytes, size_t count) {
    // [unsafe: utf8-validator] A block is loaded after `count - i >= 32`; the last partial one by a
    // load masked to its `count - i` (< 32) bytes, which touches no byte past them.
    struct avx2_state state = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    size_t i = 0;
    while (i < count) {
        __m256i input;
        if (count - i >= 32) {
            input = _mm256_loadu_si256((const __m256i *)(bytes + i));
        } else {
            input = _mm256_maskz_loadu_epi8((__mmask32)((1u << (count - i)) - 1), bytes + i);
        }
        i += 32;
        avx2_block(&state, input);
    }
    return avx2_result(&state);
}

static int detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int ssse3 = (c >> 9) & 1;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    int avx2 = 0;
    if (osxsave && avx) {
        unsigned lo, hi;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        // The operating system saves the XMM and YMM registers.
        if ((lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d)) {
            avx2 = (b >> 5) & 1;
            // AVX-512 F, BW and VL, and the operating system saves the mask and upper registers too.
            if (avx2 && (lo & 0xE6) == 0xE6 && ((b >> 16) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1)) return 4;
        }
    }
    return avx2 ? 2 : ssse3 ? 1 : 0;
}
#endif

// ---------------------------------------------------------------------------------------------
// ARM64: NEON (16 bytes a block), always present.

#if defined(__aarch64__)
#include <arm_neon.h>

static int check_neon(const uint8_t *bytes, size_t count) {
    // [unsafe: utf8-validator] A block is loaded after `count - i >= 16`; the last partial one is
    // copied into a zeroed 16-byte buffer.
    const uint8x16_t t1 = vld1q_u8(byte_1_high), t2 = vld1q_u8(byte_1_low), t3 = vld1q_u8(byte_2_high);
    const uint8x16_t nibble = vdupq_n_u8(0x0F);
    const uint8x16_t max = vld1q_u8(incomplete_max + 16);
    uint8x16_t prev = vdupq_n_u8(0), error = vdupq_n_u8(0), incomplete = vdupq_n_u8(0), any = vdupq_n_u8(0);
    uint8_t tail[16];
    size_t i = 0;
    while (i < count) {
        uint8x16_t input;
        if (count - i >= 16) {
            input = vld1q_u8(bytes + i);
        } else {
            memset(tail, 0, sizeof tail);
            memcpy(tail, bytes + i, count - i);
            input = vld1q_u8(tail);
        }
        i += 16;
        if (vmaxvq_u8(input) < 0x80) {
            error = vorrq_u8(error, incomplete);
            incomplete = vdupq_n_u8(0);
            prev = input;
            continue;
        }
        any = vorrq_u8(any, input);
        uint8x16_t prev1 = vextq_u8(prev, input, 15);
        uint8x16_t high1 = vqtbl1q_u8(t1, vshrq_n_u8(prev1, 4));
        uint8x16_t low1 = vqtbl1q_u8(t2, vandq_u8(prev1, nibble));
        uint8x16_t high2 = vqtbl1q_u8(t3, vshrq_n_u8(input, 4));
        uint8x16_t special = vandq_u8(vandq_u8(high1, low1), high2);
        uint8x16_t prev2 = vextq_u8(prev, input, 14);
        uint8x16_t prev3 = vextq_u8(prev, input, 13);
        uint8x16_t must23 = vorrq_u8(vqsubq_u8(prev2, vdupq_n_u8(0xE0 - 0x80)), vqsubq_u8(prev3, vdupq_n_u8(0xF0 - 0x80)));
        error = vorrq_u8(error, veorq_u8(vandq_u8(must23, vdupq_n_u8(0x80)), special));
        incomplete = vqsubq_u8(input, max);
        prev = input;
    }
    error = vorrq_u8(error, incomplete);
    if (vmaxvq_u8(error) != 0) return IMWIRE_UTF8_INVALID;
    return vmaxvq_u8(any) < 0x80 ? IMWIRE_UTF8_ASCII : IMWIRE_UTF8_VALID;
}
#endif

// ---------------------------------------------------------------------------------------------

// -1 until the first call picks the implementation. Threads that make their first check at once may
// each detect it and store the same number: an atomic (relaxed: the value is all that is shared), so
// that is no data race.
static _Atomic int chosen = -1;

int imwire_utf8_implementation(void) {
    int implementation = atomic_load_explicit(&chosen, memory_order_relaxed);
    if (implementation < 0) {
#if defined(__x86_64__)
        implementation = detect();
#elif defined(__aarch64__)
        implementation = 3;
#else
        implementation = 0;
#endif
        atomic_store_explicit(&chosen, implementation, memory_order_relaxed);
    }
    return implementation;
}

int imwire_utf8_check_with(int implementation, const uint8_t *bytes, size_t count) {
    switch (implementation) {
    case 0: return check_scalar(bytes, count);
#if defined(__x86_64__)
    case 1: return imwire_utf8_implementation() >= 1 ? check_ssse3(bytes, count) : -1;
    case 2: return imwire_utf8_implementation() >= 2 ? check_avx2(bytes, count) : -1;
    case 4: return imwire_utf8_implementation() == 4 ? check_avx512(bytes, count) : -1;
#endif
#if defined(__aarch64__)
    case 3: return check_neon(bytes, count);
#endif
    default: return -1;
    }
}

int imwire_utf8_check(const uint8_t *bytes, size_t count) {
#if defined(__x86_64__)
    // Masked loads read a short string as one block, with no padding copy.
    if (imwire_utf8_implementation() == 4) return check_avx512(bytes, count);
#endif
    // Below a vector's width the scalar loop is as fast and needs no padding copy.
    if (count < 16) return check_scalar(bytes, count);
    switch (imwire_utf8_implementation()) {
#if defined(__x86_64__)
    case 2: return check_avx2(bytes, count);
    case 1: return check_ssse3(bytes, count);
#endif
#if defined(__aarch64__)
    case 3: return check_neon(bytes, count);
#endif
    default: return check_scalar(bytes, count);
    }
}
