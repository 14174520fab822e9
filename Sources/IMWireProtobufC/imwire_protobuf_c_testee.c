// The conformance testee on libprotobuf-c: include/imwire_protobuf_c_testee.h. Uses protoc-c's code for
// both schemas: imwire.conformance.v1 for the framing messages, imwire.v1 (through
// imwire_pbc_repack_message) for the messages under test.

#include "include/imwire_protobuf_c_testee.h"
#include "include/imwire_protobuf_c.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>

#include "generated/imwire/conformance/v1/conformance.pb-c.h"

typedef Imwire__Conformance__V1__ConformanceRequest Request;
typedef Imwire__Conformance__V1__ConformanceResponse Response;

// The largest frame accepted, as the Swift runner (Framing.maxFrameSize): 64 MiB.
#define MAX_FRAME_SIZE (64u * 1024u * 1024u)

// Reads exactly `len` bytes. Returns 1 on success, 0 at end of input before the first byte, -1 at end
// of input or an error after some bytes.
static int read_exactly(uint8_t *buffer, size_t len) {
    size_t got = 0;
    while (got < len) {
        size_t n = fread(buffer + got, 1, len - got, stdin);
        if (n == 0) {
            return got == 0 ? 0 : -1;
        }
        got += n;
    }
    return 1;
}

static int write_response(const Response *response) {
    size_t size = imwire__conformance__v1__conformance_response__get_packed_size(response);
    uint8_t *buffer = malloc(size + 4);
    if (buffer == NULL) {
        return 0;
    }
    buffer[0] = (uint8_t)size;
    buffer[1] = (uint8_t)(size >> 8);
    buffer[2] = (uint8_t)(size >> 16);
    buffer[3] = (uint8_t)(size >> 24);
    imwire__conformance__v1__conformance_response__pack(response, buffer + 4);
    int ok = fwrite(buffer, 1, size + 4, stdout) == size + 4 && fflush(stdout) == 0;
    free(buffer);
    return ok;
}

static void set_string(Response *response, Imwire__Conformance__V1__ConformanceResponse__ResultCase which,
                       const char *text) {
    response->result_case = which;
    // Every string member of the oneof shares the union's storage.
    response->skipped = (char *)text;
}

// Answers one request (a frame of `len` bytes). `*to_free` receives a buffer to free after the answer
// is written.
static void answer(const uint8_t *frame, size_t len, Response *response, uint8_t **to_free) {
    Request *request = imwire__conformance__v1__conformance_request__unpack(NULL, len, frame);
    if (request == NULL) {
        set_string(response, IMWIRE__CONFORMANCE__V1__CONFORMANCE_RESPONSE__RESULT_RUNTIME_ERROR,
                   "protobuf-c testee: the request frame is not a ConformanceRequest");
        return;
    }
    if (request->payload_case != IMWIRE__CONFORMANCE__V1__CONFORMANCE_REQUEST__PAYLOAD_BINARY_PAYLOAD) {
        set_string(response, IMWIRE__CONFORMANCE__V1__CONFORMANCE_RESPONSE__RESULT_SKIPPED,
                   "protobuf-c testee: binary input only (protobuf-c has no JSON or tim-rest)");
    } else if (request->requested_output_format != IMWIRE__CONFORMANCE__V1__WIRE_FORMAT__WIRE_FORMAT_BINARY) {
        set_string(response, IMWIRE__CONFORMANCE__V1__CONFORMANCE_RESPONSE__RESULT_SKIPPED,
                   "protobuf-c testee: binary output only (protobuf-c has no JSON or tim-rest)");
    } else if (request->validation_profile != NULL && request->validation_profile[0] != '\0') {
        set_string(response, IMWIRE__CONFORMANCE__V1__CONFORMANCE_RESPONSE__RESULT_SKIPPED,
                   "protobuf-c testee: no validation (protobuf-c has no IMWire profiles)");
    } else {
        uint8_t *out = NULL;
        size_t out_len = 0;
        int status = imwire_pbc_repack_message(request->binary_payload.data, request->binary_payload.len, &out,
                                               &out_len);
        switch (status) {
        case IMWIRE_PBC_OK:
            response->result_case = IMWIRE__CONFORMANCE__V1__CONFORMANCE_RESPONSE__RESULT_BINARY_PAYLOAD;
            response->binary_payload.data = out;
            response->binary_payload.len = out_len;
            *to_free = out;
            break;
        case IMWIRE_PBC_UNPACK_FAILED:
            // protobuf-c says only that unpacking failed, never why or where.
            set_string(response, IMWIRE__CONFORMANCE__V1__CONFORMANCE_RESPONSE__RESULT_PARSE_ERROR,
                       "unpack_failed: protobuf_c_message_unpack refused the input");
            break;
        case IMWIRE_PBC_TOO_DEEP:
            set_string(response, IMWIRE__CONFORMANCE__V1__CONFORMANCE_RESPONSE__RESULT_PARSE_ERROR,
                       "depth_limit_exceeded: nesting deeper than IMWIRE_PBC_DEFAULT_MAX_DEPTH message levels "
                       "(checked before protobuf-c, which has no depth limit)");
            break;
        default:
            set_string(response, IMWIRE__CONFORMANCE__V1__CONFORMANCE_RESPONSE__RESULT_RUNTIME_ERROR,
                       "protobuf-c testee: out of memory");
            break;
        }
    }
    imwire__conformance__v1__conformance_request__free_unpacked(request, NULL);
}

int imwire_pbc_testee_main(void) {
    for (;;) {
        uint8_t prefix[4];
        int status = read_exactly(prefix, 4);
        if (status == 0) {
            return 0;
        }
        if (status < 0) {
            fprintf(stderr, "imwire-testee-c: end of input inside a length prefix\n");
            return 1;
        }
        uint32_t len = (uint32_t)prefix[0] | (uint32_t)prefix[1] << 8 | (uint32_t)prefix[2] << 16 |
                       (uint32_t)prefix[3] << 24;
        if (len > MAX_FRAME_SIZE) {
            fprintf(stderr, "imwire-testee-c: request frame of %u bytes is larger than the limit\n", len);
            return 1;
        }
        uint8_t *frame = malloc(len > 0 ? len : 1);
        if (frame == NULL) {
            fprintf(stderr, "imwire-testee-c: out of memory\n");
            return 1;
        }
        if (len > 0 && read_exactly(frame, len) != 1) {
            fprintf(stderr, "imwire-testee-c: end of input inside a request frame\n");
            free(frame);
            return 1;
        }
        Response response = IMWIRE__CONFORMANCE__V1__CONFORMANCE_RESPONSE__INIT;
        uint8_t *to_free = NULL;
        answer(frame, len, &response, &to_free);
        int written = write_response(&response);
        imwire_pbc_free(to_free);
        free(frame);
        if (!written) {
            fprintf(stderr, "imwire-testee-c: cannot write the response\n");
            return 1;
        }
    }
}
