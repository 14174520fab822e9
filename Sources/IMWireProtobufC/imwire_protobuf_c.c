// The C API in include/imwire_protobuf_c.h over libprotobuf-c and the generated imwire.v1 code.

#include "include/imwire_protobuf_c.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <protobuf-c/protobuf-c.h>

#include "generated/imwire/v1/message.pb-c.h"

// protobuf-c unpacks, sizes, packs and frees recursively, about 1 KB of stack per message level
// (x86-64 Linux, libprotobuf-c 1.4.1: 8 MB of stack overflow at ~8,700 levels, 512 KB at ~540), and it
// has no depth limit of its own. So before unpacking, walk the input's message structure iteratively and
// refuse it if it nests deeper than the caller allows. The walk follows the schema (only fields of
// message type nest) and stops quietly at the first thing it cannot parse, leaving the rejection to
// protobuf-c. That is safe because everything the walk cannot parse, protobuf-c refuses too (varints
// over 10 bytes, lengths past the end, groups, wire types 6/7), and protobuf-c scans all fields of a
// message before it unpacks any sub-message and gives up at the first failing one: it never reaches
// input after the point where the walk stopped.

typedef struct {
    const ProtobufCMessageDescriptor *descriptor;
    size_t end;
} Frame;

static bool read_varint(const uint8_t *data, size_t end, size_t *pos, uint64_t *value) {
    uint64_t result = 0;
    for (unsigned shift = 0; shift < 70 && *pos < end; shift += 7) {
        uint8_t byte = data[(*pos)++];
        result |= (uint64_t)(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0) {
            *value = result;
            return true;
        }
    }
    return false;
}

// Returns IMWIRE_PBC_TOO_DEEP if the input nests more than max_depth message levels before anything
// malformed, IMWIRE_PBC_OUT_OF_MEMORY if the walk cannot allocate its stack, else IMWIRE_PBC_OK.
static int check_depth(const ProtobufCMessageDescriptor *root, const uint8_t *data, size_t len,
                       size_t max_depth) {
    // Each nested level costs at least 2 bytes (tag and length), which bounds the useful stack size.
    size_t capacity = max_depth < len / 2 + 1 ? max_depth : len / 2 + 1;
    Frame *frames = malloc(capacity * sizeof(Frame));
    if (frames == NULL) {
        return IMWIRE_PBC_OUT_OF_MEMORY;
    }
    size_t depth = 1;
    frames[0] = (Frame){root, len};
    size_t pos = 0;
    int status = IMWIRE_PBC_OK;

    while (depth > 0) {
        Frame *frame = &frames[depth - 1];
        if (pos == frame->end) {
            depth--;
            continue;
        }
        if (pos > frame->end) {
            break; // a fixed-width value ran past its message
        }
        uint64_t tag, length;
        if (!read_varint(data, frame->end, &pos, &tag)) {
            break;
        }
        switch (tag & 7) {
        case 0: // varint
            if (!read_varint(data, frame->end, &pos, &length)) {
                goto done;
            }
            break;
        case 1: // fixed64
            pos += 8;
            break;
        case 5: // fixed32
            pos += 4;
            break;
        case 2: { // length-delimited
            if (!read_varint(data, frame->end, &pos, &length) || length > frame->end - pos) {
                goto done;
            }
            const ProtobufCFieldDescriptor *field =
                tag >> 3 <= UINT32_MAX
                    ? protobuf_c_message_descriptor_get_field(frame->descriptor, (unsigned)(tag >> 3))
                    : NULL;
            if (field != NULL && field->type == PROTOBUF_C_TYPE_MESSAGE) {
                if (depth == max_depth) {
                    status = IMWIRE_PBC_TOO_DEEP;
                    goto done;
                }
                frames[depth++] = (Frame){field->descriptor, pos + (size_t)length};
            } else {
                pos += (size_t)length;
            }
            break;
        }
        default: // groups (protobuf-c 1.4 refuses them, known or unknown) and wire types 6/7
            goto done;
        }
    }
done:
    free(frames);
    return status;
}

// Unpacks with protobuf-c after the depth check; sets *status to an IMWIRE_PBC_* code on failure.
static Imwire__V1__Message *unpack(const uint8_t *data, size_t len, size_t max_depth, int *status) {
    static const uint8_t empty[1] = {0};
    if (data == NULL) {
        // Only valid with len 0 (the empty message); never hand protobuf-c a NULL buffer.
        data = empty;
        len = 0;
    }
    if (max_depth != 0) {
        *status = check_depth(&imwire__v1__message__descriptor, data, len, max_depth);
        if (*status != IMWIRE_PBC_OK) {
            return NULL;
        }
    }
    Imwire__V1__Message *message = imwire__v1__message__unpack(NULL, len, data);
    *status = message != NULL ? IMWIRE_PBC_OK : IMWIRE_PBC_UNPACK_FAILED;
    return message;
}

int imwire_pbc_repack_message_with_max_depth(const uint8_t *data, size_t len, size_t max_depth,
                                             uint8_t **out, size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    int status;
    Imwire__V1__Message *message = unpack(data, len, max_depth, &status);
    if (message == NULL) {
        return status;
    }
    size_t size = imwire__v1__message__get_packed_size(message);
    // malloc(0) may return NULL; callers get a non-NULL buffer even for the empty message.
    uint8_t *buffer = malloc(size > 0 ? size : 1);
    if (buffer == NULL) {
        imwire__v1__message__free_unpacked(message, NULL);
        return IMWIRE_PBC_OUT_OF_MEMORY;
    }
    size_t written = imwire__v1__message__pack(message, buffer);
    imwire__v1__message__free_unpacked(message, NULL);
    *out = buffer;
    *out_len = written;
    return IMWIRE_PBC_OK;
}

int imwire_pbc_repack_message(const uint8_t *data, size_t len, uint8_t **out, size_t *out_len) {
    return imwire_pbc_repack_message_with_max_depth(data, len, IMWIRE_PBC_DEFAULT_MAX_DEPTH, out, out_len);
}

void imwire_pbc_free(void *p) {
    free(p);
}

int64_t imwire_pbc_packed_size(const uint8_t *data, size_t len) {
    int status;
    Imwire__V1__Message *message = unpack(data, len, IMWIRE_PBC_DEFAULT_MAX_DEPTH, &status);
    if (message == NULL) {
        return -1;
    }
    size_t size = imwire__v1__message__get_packed_size(message);
    imwire__v1__message__free_unpacked(message, NULL);
    return (int64_t)size;
}

const char *imwire_pbc_library_version(void) {
    return protobuf_c_version();
}

uint32_t imwire_pbc_library_version_number(void) {
    return protobuf_c_version_number();
}
