// imwire-testee-c: the conformance testee on libprotobuf-c (Docs/conformance.md). Binary cases only; the rest
// are answered `skipped`. Run it with
//   imwire conformance --testee .build/release/imwire-testee-c \
//       --expected-failures Tests/Conformance/expected-failures/protobuf-c.txt
// The protocol loop is imwire_pbc_testee_main in the IMWireProtobufC target, next to protoc-c's code.

#include "imwire_protobuf_c_testee.h"

int main(void) {
    return imwire_pbc_testee_main();
}
