// IMWireProtobufC: libprotobuf-c and the protoc-c output for Schemas/imwire/v1/message.proto, as a peer
// implementation that tests, the C testee and benchmarks compare the Swift codec against.
//
// This header is all Swift sees: it exposes no protobuf-c types. protobuf-c's own behaviour (what it
// accepts, how it re-encodes) is listed against the IMWire canonical form in KNOWN_DIFFERENCES.md next to
// this target's sources.
#ifndef IMWIRE_PROTOBUF_C_H
#define IMWIRE_PROTOBUF_C_H

#include <stddef.h>
#include <stdint.h>

#if defined(__clang__)
// Nullability annotations give Swift exact optionals; they are a Clang extension, so -Wpedantic would
// flag each one.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-extension"
#define IMWIRE_PBC_NULLABLE _Nullable
#define IMWIRE_PBC_NONNULL _Nonnull
#else
#define IMWIRE_PBC_NULLABLE
#define IMWIRE_PBC_NONNULL
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// imwire_pbc_repack_message succeeded.
#define IMWIRE_PBC_OK 0
/// protobuf-c refused to unpack the input (protobuf_c_message_unpack returned NULL).
#define IMWIRE_PBC_UNPACK_FAILED 1
/// The input nests messages deeper than the depth bound (IMWIRE_PBC_DEFAULT_MAX_DEPTH unless given).
/// protobuf-c itself has no depth limit and would recurse until the stack overflows, so this wrapper
/// refuses such input before unpacking it.
#define IMWIRE_PBC_TOO_DEEP 2
/// malloc failed (also for the depth check's own stack).
#define IMWIRE_PBC_OUT_OF_MEMORY 3

/// The deepest message nesting imwire_pbc_repack_message and imwire_pbc_packed_size hand to protobuf-c,
/// counted in message levels (the root Message is level 1; one merger layer adds 3: Message -> Elem ->
/// MergerElem). It admits the `tencent` profile's 100 merger layers (301 levels) and keeps protobuf-c's
/// recursion (about 1 KB of stack per level) within a 512 KB thread stack.
#define IMWIRE_PBC_DEFAULT_MAX_DEPTH 400

/// Unpacks `len` bytes as imwire.v1.Message with protobuf-c, then packs it again.
///
/// Returns IMWIRE_PBC_OK and sets `*out` (malloc'd, never NULL, free it with imwire_pbc_free) and
/// `*out_len` on success; otherwise returns IMWIRE_PBC_UNPACK_FAILED, IMWIRE_PBC_TOO_DEEP or
/// IMWIRE_PBC_OUT_OF_MEMORY and sets `*out` to NULL and `*out_len` to 0. Never aborts on bad input.
/// `data` may be NULL when `len` is 0; empty input is the empty message and repacks to 0 bytes.
int imwire_pbc_repack_message(const uint8_t *IMWIRE_PBC_NULLABLE data, size_t len,
                              uint8_t *IMWIRE_PBC_NULLABLE *IMWIRE_PBC_NONNULL out,
                              size_t *IMWIRE_PBC_NONNULL out_len);

/// imwire_pbc_repack_message with a different depth bound: `max_depth` message levels, or 0 for none
/// (protobuf-c's own behaviour, which overflows the stack on deep input: allow about 1 KB of stack per
/// level).
int imwire_pbc_repack_message_with_max_depth(const uint8_t *IMWIRE_PBC_NULLABLE data, size_t len,
                                             size_t max_depth,
                                             uint8_t *IMWIRE_PBC_NULLABLE *IMWIRE_PBC_NONNULL out,
                                             size_t *IMWIRE_PBC_NONNULL out_len);

/// Frees a buffer returned by imwire_pbc_repack_message. NULL is allowed.
void imwire_pbc_free(void *IMWIRE_PBC_NULLABLE p);

/// protobuf-c's packed size (protobuf_c_message_get_packed_size) of `len` bytes unpacked as
/// imwire.v1.Message, or -1 if the input is refused (unpack failed, too deep, or out of memory).
int64_t imwire_pbc_packed_size(const uint8_t *IMWIRE_PBC_NULLABLE data, size_t len);

/// The version of the linked libprotobuf-c, e.g. "1.4.1" (protobuf_c_version()).
const char *IMWIRE_PBC_NONNULL imwire_pbc_library_version(void);

/// The version of the linked libprotobuf-c as MAJOR*1000000 + MINOR*1000 + PATCH, e.g. 1004001.
uint32_t imwire_pbc_library_version_number(void);

#ifdef __cplusplus
}
#endif

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif
