// The conformance testee on libprotobuf-c (Docs/conformance.md), the body of the `imwire-testee-c` executable
// (target IMWireTesteeC). Kept apart from imwire_protobuf_c.h, the peer API the tests use.
#ifndef IMWIRE_PROTOBUF_C_TESTEE_H
#define IMWIRE_PROTOBUF_C_TESTEE_H

#ifdef __cplusplus
extern "C" {
#endif

/// Serves the conformance protocol on stdin/stdout until end of input: reads each 4-byte
/// little-endian length-prefixed imwire.conformance.v1.ConformanceRequest, answers with a framed
/// ConformanceResponse. Binary input to binary output without validation is unpacked and repacked
/// with protobuf-c (imwire_pbc_repack_message: protobuf-c's behaviour, plus a depth check at
/// IMWIRE_PBC_DEFAULT_MAX_DEPTH levels); every other request is answered `skipped`.
/// Returns 0 at end of input between frames, 1 on a broken stream (message on stderr).
int imwire_pbc_testee_main(void);

#ifdef __cplusplus
}
#endif

#endif
