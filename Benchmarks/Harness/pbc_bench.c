/*
 * pbc_bench: the C side of Scripts/bench.
 *
 *   protobuf-c  libprotobuf-c with the committed protoc-c code for Schemas/imwire/v1/message.proto
 *               (Sources/IMWireProtobufC/generated): binary-decode = unpack + free_unpacked,
 *               binary-encode = get_packed_size + malloc + pack + free (on messages unpacked untimed),
 *               binary-decode-read = unpack + walk + free_unpacked, binary-read = walk alone (on messages
 *               unpacked untimed). The walk reads every field of every message type once through the
 *               structs (strings by strlen, as a C reader does) and folds it into a digest (see walk_message).
 *   memcpy      the practical ceiling: per message malloc(len) + memcpy + free, over the binary records
 *               (reported for the binary-* operations) and over the JSON records (json-*).
 *
 * Build (Scripts/bench does this):
 *   cc -O2 -I Sources/IMWireProtobufC/generated Benchmarks/Harness/pbc_bench.c \
 *      Sources/IMWireProtobufC/generated/message.pb-c.c $(pkg-config --cflags --libs libprotobuf-c)
 *
 * Usage:
 *   pbc_bench [--impl protobuf-c|memcpy]... [--op OP]... [--sample-time S] [--samples N] [--round R]
 *             DIR CORPUS...
 *       For each corpus, implementation and operation, in the order given (default: protobuf-c then
 *       memcpy; every operation), one measurement as imwire-bench makes it: warm-up, calibration, best
 *       of N samples of >= S seconds. protobuf-c has binary-decode and binary-encode; memcpy is measured
 *       for each operation on the records of its format (binary or JSON). Other pairs are skipped.
 *   pbc_bench --verify DIR CORPUS...
 *       unpack + pack of every record must give the corpus bytes back.
 *   pbc_bench --digest DIR CORPUS...
 *       Per corpus, "digest protobuf-c CORPUS MESSAGES SUM": the wrapping uint64 sum of the walk's digest
 *       over the binary records, to compare with cpp_bench --digest.
 *   pbc_bench --memory DIR CORPUS COUNT
 *       Unpacks COUNT messages (record k % n), keeps them all, and prints "memory protobuf-c CORPUS message
 *       COUNT BYTES": the heap in use per message (glibc mallinfo2 uordblks, after - before).
 *   pbc_bench --profile IMPL CORPUS OP [--passes N] DIR
 *       One warm-up pass, then N passes (default 10) in pbc_profile_region and nothing else, for
 *       callgrind --toggle-collect=pbc_profile_region (Scripts/profile --impl protobuf-c).
 * Output lines are those of imwire-bench (see its --help): result lines (ending in ROUND, default 1),
 * error and verify lines, and the profile line "profiled N passes of M messages (B B each pass)"; and the digest
 * and memory lines, tab-separated as the others.
 */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "imwire/v1/message.pb-c.h"

typedef struct {
    size_t count;
    uint8_t **data;
    size_t *len;
    size_t bytes;
} Records;

static void die(const char *what, const char *detail) {
    fprintf(stderr, "pbc_bench: %s %s\n", what, detail ? detail : "");
    exit(2);
}

static Records read_records(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open", path);
    Records r = {0};
    size_t cap = 0;
    uint8_t hdr[4];
    while (fread(hdr, 1, 4, f) == 4) {
        size_t n = (size_t)hdr[0] | (size_t)hdr[1] << 8 | (size_t)hdr[2] << 16 | (size_t)hdr[3] << 24;
        uint8_t *buf = malloc(n ? n : 1);
        if (!buf || fread(buf, 1, n, f) != n) die("truncated record in", path);
        if (r.count == cap) {
            cap = cap ? cap * 2 : 1024;
            r.data = realloc(r.data, cap * sizeof *r.data);
            r.len = realloc(r.len, cap * sizeof *r.len);
            if (!r.data || !r.len) die("out of memory", NULL);
        }
        r.data[r.count] = buf;
        r.len[r.count] = n;
        r.bytes += n;
        r.count++;
    }
    fclose(f);
    return r;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Tells the compiler that the pointed-to memory is used, so malloc/memcpy/free are not elided. */
static inline void escape(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

/* ------------------------------------------------------------------------------------------------
 * The walker: reads every field of every message type once, through protobuf-c's structs, as a reader
 * of the decoded message does, and folds what it read into a digest that independent implementations
 * can be compared by (cpp_bench computes the same). W(message) = 1 + the sum of its fields' F, uint64,
 * wrapping: string = strlen (what a C reader of the char * gets), bytes = len, uint64/uint32 = value,
 * int32/enum = value sign-extended, bool = 0/1, double = bit pattern, message = W (0 when absent),
 * repeated = sum over elements, map<string, bytes> = sum of key + value lengths, oneof = F of the member
 * set (0 if none). Unknown fields are ignored. */

static inline uint64_t w_str(const char *s) { return strlen(s); }
static inline uint64_t w_bytes(ProtobufCBinaryData b) { return b.len; }
static inline uint64_t w_int32(int32_t v) { return (uint64_t)(int64_t)v; }
static inline uint64_t w_bool(protobuf_c_boolean v) { return v != 0; }
static inline uint64_t w_double(double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

static uint64_t walk_message(const Imwire__V1__Message *m);

static uint64_t walk_recall_notice(const Imwire__V1__RecallNotice *m) {
    return 1 + w_str(m->msg_id) + w_str(m->recalled_by) + w_str(m->reason);
}

static uint64_t walk_group_read_receipt(const Imwire__V1__GroupReadReceipt *m) {
    return 1 + w_str(m->msg_id) + m->read_count + m->unread_count;
}

static uint64_t walk_c2c_read_receipt(const Imwire__V1__C2CReadReceipt *m) {
    return 1 + w_str(m->user_id) + m->read_timestamp_ms;
}

static uint64_t walk_offline_push_info(const Imwire__V1__OfflinePushInfo *m) {
    return 1 + w_str(m->title) + w_str(m->desc) + w_str(m->ext) + w_bool(m->disable_push) + w_str(m->ios_sound) +
           w_str(m->android_sound) + w_bool(m->ignore_ios_badge) + w_int32(m->ios_push_type) + w_str(m->ios_title) +
           w_str(m->ios_subtitle) + w_str(m->ios_image) + w_bool(m->ios_mutable_content);
}

static uint64_t walk_text_elem(const Imwire__V1__TextElem *m) { return 1 + w_str(m->text); }

static uint64_t walk_custom_elem(const Imwire__V1__CustomElem *m) {
    return 1 + w_bytes(m->data) + w_str(m->desc) + w_str(m->ext) + w_str(m->sound);
}

static uint64_t walk_image(const Imwire__V1__Image *m) {
    return 1 + w_int32(m->type) + w_str(m->uuid) + m->size + m->width + m->height + w_str(m->url);
}

static uint64_t walk_image_elem(const Imwire__V1__ImageElem *m) {
    uint64_t d = 1 + w_int32(m->format);
    for (size_t i = 0; i < m->n_images; i++) d += walk_image(m->images[i]);
    return d;
}

static uint64_t walk_sound_elem(const Imwire__V1__SoundElem *m) {
    return 1 + w_str(m->uuid) + w_str(m->url) + m->data_size + m->duration + w_str(m->format);
}

static uint64_t walk_video_elem(const Imwire__V1__VideoElem *m) {
    return 1 + w_str(m->video_uuid) + w_str(m->video_url) + m->video_size + w_str(m->video_format) + m->duration +
           w_str(m->snapshot_uuid) + w_str(m->snapshot_url) + m->snapshot_size + m->snapshot_width +
           m->snapshot_height + w_str(m->snapshot_format);
}

static uint64_t walk_file_elem(const Imwire__V1__FileElem *m) {
    return 1 + w_str(m->uuid) + w_str(m->url) + w_str(m->file_name) + m->file_size;
}

static uint64_t walk_location_elem(const Imwire__V1__LocationElem *m) {
    return 1 + w_str(m->desc) + w_double(m->longitude) + w_double(m->latitude);
}

static uint64_t walk_face_elem(const Imwire__V1__FaceElem *m) { return 1 + w_int32(m->index) + w_bytes(m->data); }

static uint64_t walk_merger_elem(const Imwire__V1__MergerElem *m) {
    uint64_t d = 1 + w_str(m->title);
    for (size_t i = 0; i < m->n_abstract_list; i++) d += w_str(m->abstract_list[i]);
    d += w_str(m->compatible_text) + w_bool(m->layers_over_limit);
    for (size_t i = 0; i < m->n_messages; i++) d += walk_message(m->messages[i]);
    return d + w_str(m->json_msg_key) + m->msg_num;
}

static uint64_t walk_group_member_info(const Imwire__V1__GroupMemberInfo *m) {
    uint64_t d = 1 + w_str(m->user_id) + w_str(m->nick_name) + w_str(m->friend_remark) + w_str(m->name_card) +
                 w_str(m->face_url) + w_int32(m->role) + m->join_time + m->mute_until;
    for (size_t i = 0; i < m->n_custom_info; i++)
        d += w_str(m->custom_info[i]->key) + w_bytes(m->custom_info[i]->value);
    return d;
}

static uint64_t walk_group_change_info(const Imwire__V1__GroupChangeInfo *m) {
    return 1 + w_int32(m->type) + w_str(m->value) + w_str(m->key) + w_bool(m->bool_value) + m->int_value +
           m->uint64_value;
}

static uint64_t walk_user_profile(const Imwire__V1__UserProfile *m) {
    uint64_t d = 1 + w_str(m->user_id) + w_str(m->nick_name) + w_str(m->face_url) + w_str(m->self_signature);
    for (size_t i = 0; i < m->n_custom_info; i++)
        d += w_str(m->custom_info[i]->key) + w_bytes(m->custom_info[i]->value);
    return d;
}

static uint64_t walk_member_change_info(const Imwire__V1__MemberChangeInfo *m) {
    return 1 + w_str(m->user_id) + m->mute_time;
}

static uint64_t walk_group_tips_elem(const Imwire__V1__GroupTipsElem *m) {
    uint64_t d = 1 + w_str(m->group_id) + w_int32(m->type);
    if (m->op_member) d += walk_group_member_info(m->op_member);
    for (size_t i = 0; i < m->n_member_list; i++) d += walk_group_member_info(m->member_list[i]);
    for (size_t i = 0; i < m->n_group_change_list; i++) d += walk_group_change_info(m->group_change_list[i]);
    for (size_t i = 0; i < m->n_member_change_list; i++) d += walk_member_change_info(m->member_change_list[i]);
    d += m->member_count + w_str(m->group_name) + w_str(m->platform);
    if (m->op_user_info) d += walk_user_profile(m->op_user_info);
    for (size_t i = 0; i < m->n_changed_user_info_list; i++) d += walk_user_profile(m->changed_user_info_list[i]);
    for (size_t i = 0; i < m->n_changed_group_member_info_list; i++)
        d += walk_group_member_info(m->changed_group_member_info_list[i]);
    return d;
}

static uint64_t walk_group_system_elem(const Imwire__V1__GroupSystemElem *m) {
    uint64_t d = 1 + w_int32(m->type) + w_str(m->group_id) + w_str(m->op_user) + w_str(m->reason) + m->msg_key +
                 w_bytes(m->auth_key) + w_bytes(m->user_data);
    if (m->op_member) d += walk_group_member_info(m->op_member);
    d += w_str(m->platform);
    if (m->op_user_info) d += walk_user_profile(m->op_user_info);
    return d;
}

static uint64_t walk_elem(const Imwire__V1__Elem *m) {
    uint64_t d = 1;
    switch (m->content_case) {
    case IMWIRE__V1__ELEM__CONTENT_TEXT: d += walk_text_elem(m->text); break;
    case IMWIRE__V1__ELEM__CONTENT_CUSTOM: d += walk_custom_elem(m->custom); break;
    case IMWIRE__V1__ELEM__CONTENT_IMAGE: d += walk_image_elem(m->image); break;
    case IMWIRE__V1__ELEM__CONTENT_SOUND: d += walk_sound_elem(m->sound); break;
    case IMWIRE__V1__ELEM__CONTENT_VIDEO: d += walk_video_elem(m->video); break;
    case IMWIRE__V1__ELEM__CONTENT_FILE: d += walk_file_elem(m->file); break;
    case IMWIRE__V1__ELEM__CONTENT_LOCATION: d += walk_location_elem(m->location); break;
    case IMWIRE__V1__ELEM__CONTENT_FACE: d += walk_face_elem(m->face); break;
    case IMWIRE__V1__ELEM__CONTENT_GROUP_TIPS: d += walk_group_tips_elem(m->group_tips); break;
    case IMWIRE__V1__ELEM__CONTENT_MERGER: d += walk_merger_elem(m->merger); break;
    case IMWIRE__V1__ELEM__CONTENT_GROUP_SYSTEM: d += walk_group_system_elem(m->group_system); break;
    default: break;
    }
    return d;
}

static uint64_t walk_message(const Imwire__V1__Message *m) {
    uint64_t d = 1 + w_str(m->msg_id) + w_str(m->sender);
    switch (m->target_case) {
    case IMWIRE__V1__MESSAGE__TARGET_RECEIVER: d += w_str(m->receiver); break;
    case IMWIRE__V1__MESSAGE__TARGET_GROUP_ID: d += w_str(m->group_id); break;
    case IMWIRE__V1__MESSAGE__TARGET_ROOM_ID: d += w_str(m->room_id); break;
    default: break;
    }
    d += m->timestamp_ms + m->seq + m->random + w_int32(m->priority);
    for (size_t i = 0; i < m->n_elems; i++) d += walk_elem(m->elems[i]);
    for (size_t i = 0; i < m->n_at_user_list; i++) d += w_str(m->at_user_list[i]);
    for (size_t i = 0; i < m->n_targeted_receivers; i++) d += w_str(m->targeted_receivers[i]);
    d += w_bytes(m->cloud_custom_data);
    if (m->offline_push_info) d += walk_offline_push_info(m->offline_push_info);
    d += w_bool(m->need_read_receipt) + w_bool(m->excluded_from_unread_count) + w_bool(m->excluded_from_last_message) +
         w_bool(m->online_user_only) + w_bool(m->support_message_extension) + w_str(m->topic_id) + w_bool(m->barrage);
    switch (m->signal_case) {
    case IMWIRE__V1__MESSAGE__SIGNAL_RECALL_NOTICE: d += walk_recall_notice(m->recall_notice); break;
    case IMWIRE__V1__MESSAGE__SIGNAL_GROUP_READ_RECEIPT: d += walk_group_read_receipt(m->group_read_receipt); break;
    case IMWIRE__V1__MESSAGE__SIGNAL_C2C_READ_RECEIPT: d += walk_c2c_read_receipt(m->c2c_read_receipt); break;
    default: break;
    }
    return d;
}

/* Each walk's digest is stored here, so that no walk can be left out. */
static volatile uint64_t walk_sink;

typedef struct {
    const Records *records;
    Imwire__V1__Message **messages; /* for encode */
    int failed;
} Work;

typedef void (*PassFn)(Work *);

static void pass_decode(Work *w) {
    const Records *r = w->records;
    for (size_t i = 0; i < r->count; i++) {
        Imwire__V1__Message *m = imwire__v1__message__unpack(NULL, r->len[i], r->data[i]);
        if (!m) {
            w->failed = 1;
            continue;
        }
        escape(m);
        imwire__v1__message__free_unpacked(m, NULL);
    }
}

static void pass_decode_read(Work *w) {
    const Records *r = w->records;
    for (size_t i = 0; i < r->count; i++) {
        Imwire__V1__Message *m = imwire__v1__message__unpack(NULL, r->len[i], r->data[i]);
        if (!m) {
            w->failed = 1;
            continue;
        }
        walk_sink = walk_message(m);
        imwire__v1__message__free_unpacked(m, NULL);
    }
}

static void pass_read(Work *w) {
    const Records *r = w->records;
    for (size_t i = 0; i < r->count; i++) walk_sink = walk_message(w->messages[i]);
}

static void pass_encode(Work *w) {
    const Records *r = w->records;
    for (size_t i = 0; i < r->count; i++) {
        const Imwire__V1__Message *m = w->messages[i];
        size_t size = imwire__v1__message__get_packed_size(m);
        uint8_t *buf = malloc(size ? size : 1);
        imwire__v1__message__pack(m, buf);
        escape(buf);
        free(buf);
    }
}

static void pass_memcpy(Work *w) {
    const Records *r = w->records;
    for (size_t i = 0; i < r->count; i++) {
        uint8_t *buf = malloc(r->len[i] ? r->len[i] : 1);
        memcpy(buf, r->data[i], r->len[i]);
        escape(buf);
        free(buf);
    }
}

static double sample_time = 0.2;
static int samples = 5;
static int round_number = 1;

/* Same method as imwire-bench: warm-up, calibrate passes per sample, best of `samples`. */
static double measure(PassFn fn, Work *w, long *passes_out) {
    double t0, elapsed;
    long passes = 1;
    fn(w);
    for (;;) {
        t0 = now();
        for (long k = 0; k < passes; k++) fn(w);
        elapsed = now() - t0;
        if (elapsed >= sample_time / 2) {
            double p = (double)passes * sample_time / elapsed;
            passes = p < 1 ? 1 : (long)(p + 0.999);
            break;
        }
        double factor = elapsed > 0 ? sample_time / elapsed : 100;
        if (factor > 100) factor = 100;
        if (factor < 2) factor = 2;
        passes = (long)((double)passes * factor + 0.999);
    }
    double best = 1e300;
    for (int s = 0; s < samples; s++) {
        t0 = now();
        for (long k = 0; k < passes; k++) fn(w);
        elapsed = now() - t0;
        if (elapsed / (double)passes < best) best = elapsed / (double)passes;
        if (elapsed < sample_time / 2) passes *= 2; /* calibrated on an outlier: keep samples long enough */
    }
    *passes_out = passes;
    return best;
}

static void report(const char *impl, const char *corpus, const char *op, const Records *r, PassFn fn, Work *w) {
    long passes = 0;
    w->failed = 0;
    double seconds = measure(fn, w, &passes);
    if (w->failed) {
        printf("error\t%s\t%s\t%s\tprotobuf-c refused to unpack a message\n", impl, corpus, op);
        return;
    }
    printf("result\t%s\t%s\t%s\t%zu\t%zu\t%.9g\t%ld\t%d\t%d\n", impl, corpus, op, r->count, r->bytes, seconds,
           passes, samples, round_number);
    fflush(stdout);
}

static void hex(char *out, const uint8_t *p, size_t n) {
    size_t shown = n <= 96 ? n : 64;
    out += sprintf(out, "%zu B ", n);
    for (size_t i = 0; i < shown; i++) out += sprintf(out, "%02x", p[i]);
    if (shown < n) strcpy(out, "...");
}

/* unpack + pack must give the corpus bytes back. Fixtures hold cases protobuf-c is known to handle
 * differently (Sources/IMWireProtobufC/KNOWN_DIFFERENCES.md), so there the check is informational. */
static void verify(const char *corpus, const Records *r) {
    size_t mismatches = 0;
    char first[1024] = "-";
    for (size_t i = 0; i < r->count; i++) {
        Imwire__V1__Message *m = imwire__v1__message__unpack(NULL, r->len[i], r->data[i]);
        if (!m) {
            if (!mismatches++) snprintf(first, sizeof first, "message %zu: unpack failed", i);
            continue;
        }
        size_t size = imwire__v1__message__get_packed_size(m);
        uint8_t *buf = malloc(size ? size : 1);
        imwire__v1__message__pack(m, buf);
        if (size != r->len[i] || memcmp(buf, r->data[i], size) != 0) {
            if (!mismatches++) {
                char a[400], b[400];
                hex(a, r->data[i], r->len[i]);
                hex(b, buf, size);
                snprintf(first, sizeof first, "message %zu: expected %s, got %s", i, a, b);
            }
        }
        free(buf);
        imwire__v1__message__free_unpacked(m, NULL);
    }
    printf("verify\t%s\tprotobuf-c unpack+pack = corpus binary\t%zu\t%zu\t%d\t%s\n", corpus, r->count, mismatches,
           strcmp(corpus, "fixtures") == 0, first);
}

static const char *const OPS[] = {"binary-decode", "binary-encode",      "json-decode",
                                  "json-encode",   "binary-decode-read", "binary-read"};
enum { OP_DECODE, OP_ENCODE, OP_JSON_DECODE, OP_JSON_ENCODE, OP_DECODE_READ, OP_READ, N_OPS, MAX_LIST = 16 };

static int op_is_json(int op) { return op == OP_JSON_DECODE || op == OP_JSON_ENCODE; }

static int op_index(const char *name) {
    for (int k = 0; k < N_OPS; k++)
        if (!strcmp(name, OPS[k])) return k;
    die("unknown operation", name);
    return -1;
}

static int is_impl(const char *name) { return !strcmp(name, "protobuf-c") || !strcmp(name, "memcpy"); }

/* Unpacks every record (untimed) for the encode and read passes; 0 if protobuf-c refused one. */
static int unpack_all(Work *w) {
    const Records *r = w->records;
    int ok = 1;
    w->messages = calloc(r->count ? r->count : 1, sizeof *w->messages);
    if (!w->messages) die("out of memory", NULL);
    for (size_t k = 0; k < r->count; k++) {
        w->messages[k] = imwire__v1__message__unpack(NULL, r->len[k], r->data[k]);
        if (!w->messages[k]) ok = 0;
    }
    return ok;
}

static void free_all(Work *w) {
    for (size_t k = 0; k < w->records->count; k++)
        if (w->messages[k]) imwire__v1__message__free_unpacked(w->messages[k], NULL);
    free(w->messages);
    w->messages = NULL;
}

/* One operation of one implementation over a corpus: fills `w` (records, messages) and the pass. Returns
 * NULL, with a reason, for a pair that does not exist or could not be prepared. */
static PassFn prepare(const char *impl, int op, const Records *bin, const Records *json, Work *w,
                      const char **why) {
    int is_json = op_is_json(op);
    w->records = is_json ? json : bin;
    w->messages = NULL;
    w->failed = 0;
    *why = NULL;
    if (!strcmp(impl, "memcpy")) return pass_memcpy;
    if (is_json) return NULL; /* protobuf-c has no JSON */
    if (op == OP_DECODE) return pass_decode;
    if (op == OP_DECODE_READ) return pass_decode_read;
    if (!unpack_all(w)) {
        free_all(w);
        *why = "protobuf-c refused to unpack a message";
        return NULL;
    }
    return op == OP_ENCODE ? pass_encode : pass_read;
}

/* The digest line: the wrapping sum of W over the corpus's messages, each unpacked from its binary record. */
static void digest(const char *corpus, const Records *r) {
    uint64_t sum = 0;
    for (size_t i = 0; i < r->count; i++) {
        Imwire__V1__Message *m = imwire__v1__message__unpack(NULL, r->len[i], r->data[i]);
        if (!m) {
            printf("error\tprotobuf-c\t%s\tdigest\tprotobuf-c refused to unpack message %zu\n", corpus, i);
            return;
        }
        sum += walk_message(m);
        imwire__v1__message__free_unpacked(m, NULL);
    }
    printf("digest\tprotobuf-c\t%s\t%zu\t%" PRIu64 "\n", corpus, r->count, sum);
}

/* The memory line: heap in use (mallinfo2 uordblks) per message, with `count` messages unpacked (record
 * k % n) and all kept alive, plus the pointer each is held by. The "before" reading comes after the
 * corpus is loaded, the pointer array is allocated and one message has been unpacked and freed (a
 * warm-up), so that only the messages count. */
static void memory(const char *corpus, const Records *r, long count) {
    if (!r->count) die("no records in", corpus);
    Imwire__V1__Message **kept = calloc((size_t)count, sizeof *kept);
    if (!kept) die("out of memory", NULL);
    Imwire__V1__Message *warm = imwire__v1__message__unpack(NULL, r->len[0], r->data[0]);
    if (!warm) die("protobuf-c refused to unpack a message of", corpus);
    imwire__v1__message__free_unpacked(warm, NULL);
    const struct mallinfo2 before = mallinfo2();
    for (long k = 0; k < count; k++) {
        size_t i = (size_t)k % r->count;
        kept[k] = imwire__v1__message__unpack(NULL, r->len[i], r->data[i]);
        if (!kept[k]) die("protobuf-c refused to unpack a message of", corpus);
    }
    const struct mallinfo2 after = mallinfo2();
    if (after.hblkhd != before.hblkhd) /* an mmapped block is not in uordblks: the number would be short */
        fprintf(stderr, "pbc_bench: warning: %zu B of mmapped blocks appeared, not counted\n",
                after.hblkhd - before.hblkhd);
    /* Plus the pointer that holds each message: the Swift harness counts its array's storage too. */
    printf("memory\tprotobuf-c\t%s\tmessage\t%ld\t%.1f\n", corpus, count,
           ((double)after.uordblks - (double)before.uordblks) / (double)count + (double)sizeof *kept);
    for (long k = 0; k < count; k++) imwire__v1__message__free_unpacked(kept[k], NULL);
    free(kept);
}

__attribute__((noinline)) void pbc_profile_region(PassFn fn, Work *w, long passes) {
    for (long k = 0; k < passes; k++) fn(w);
    escape(w);
}

static void load(const char *dir, const char *corpus, Records *bin, Records *json) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.msgs", dir, corpus);
    *bin = read_records(path);
    snprintf(path, sizeof path, "%s/%s.json.msgs", dir, corpus);
    *json = read_records(path);
}

static const char *usage =
    "usage: pbc_bench [--impl protobuf-c|memcpy]... [--op OP]... [--sample-time S] [--samples N] [--round R] "
    "DIR CORPUS...\n"
    "       pbc_bench --verify DIR CORPUS...\n"
    "       pbc_bench --digest DIR CORPUS...\n"
    "       pbc_bench --memory DIR CORPUS COUNT\n"
    "       pbc_bench --profile IMPL CORPUS OP [--passes N] DIR";

int main(int argc, char **argv) {
    const char *impls[MAX_LIST];
    int ops[MAX_LIST];
    int n_impls = 0, n_ops = 0, do_verify = 0, do_digest = 0, do_memory = 0;
    const char *profile_impl = NULL, *profile_corpus = NULL;
    int profile_op = -1;
    long passes_wanted = 10;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (!strcmp(argv[i], "--impl") && i + 1 < argc) {
            const char *v = argv[++i];
            if (!is_impl(v)) die("unknown implementation", v);
            if (n_impls == MAX_LIST) die("too many --impl", NULL);
            impls[n_impls++] = v;
        } else if (!strcmp(argv[i], "--op") && i + 1 < argc) {
            if (n_ops == MAX_LIST) die("too many --op", NULL);
            ops[n_ops++] = op_index(argv[++i]);
        } else if (!strcmp(argv[i], "--sample-time") && i + 1 < argc) {
            sample_time = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            samples = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--round") && i + 1 < argc) {
            round_number = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--verify")) {
            do_verify = 1;
        } else if (!strcmp(argv[i], "--digest")) {
            do_digest = 1;
        } else if (!strcmp(argv[i], "--memory")) {
            do_memory = 1;
        } else if (!strcmp(argv[i], "--profile") && i + 3 < argc) {
            profile_impl = argv[++i];
            profile_corpus = argv[++i];
            profile_op = op_index(argv[++i]);
            if (!is_impl(profile_impl)) die("unknown implementation", profile_impl);
        } else if (!strcmp(argv[i], "--passes") && i + 1 < argc) {
            passes_wanted = atol(argv[++i]);
        } else {
            die("unknown option", argv[i]);
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (profile_impl) {
        if (argc - i != 1 || passes_wanted <= 0) die(usage, NULL);
        Records bin, json;
        load(argv[i], profile_corpus, &bin, &json);
        Work w;
        const char *why;
        PassFn fn = prepare(profile_impl, profile_op, &bin, &json, &w, &why);
        if (!fn) die(why ? why : "no such operation for", profile_impl);
        fn(&w); /* warm-up, outside the region */
        pbc_profile_region(fn, &w, passes_wanted);
        if (w.failed) die("protobuf-c refused to unpack a message", NULL);
        printf("profiled %ld passes of %zu messages (%zu B each pass)\n", passes_wanted, w.records->count,
               w.records->bytes);
        return 0;
    }

    if (do_memory) {
        if (argc - i != 3) die(usage, NULL);
        char *end;
        long count = strtol(argv[i + 2], &end, 10);
        if (count <= 0 || *end) die(usage, NULL);
        Records bin, json;
        load(argv[i], argv[i + 1], &bin, &json);
        memory(argv[i + 1], &bin, count);
        return 0;
    }

    if (!n_impls) impls[n_impls++] = "protobuf-c", impls[n_impls++] = "memcpy";
    if (!n_ops)
        for (int k = 0; k < N_OPS; k++) ops[n_ops++] = k;
    if (argc - i < 2 || sample_time <= 0 || samples <= 0) die(usage, NULL);
    const char *dir = argv[i++];
    for (; i < argc; i++) {
        const char *corpus = argv[i];
        Records bin, json;
        load(dir, corpus, &bin, &json);
        if (do_verify) {
            verify(corpus, &bin);
            continue;
        }
        if (do_digest) {
            digest(corpus, &bin);
            continue;
        }
        for (int a = 0; a < n_impls; a++) {
            for (int b = 0; b < n_ops; b++) {
                Work w;
                const char *why;
                PassFn fn = prepare(impls[a], ops[b], &bin, &json, &w, &why);
                if (fn) {
                    report(impls[a], corpus, OPS[ops[b]], w.records, fn, &w);
                } else if (why) {
                    printf("error\t%s\t%s\t%s\t%s\n", impls[a], corpus, OPS[ops[b]], why);
                }
                if (w.messages) free_all(&w);
            }
        }
    }
    return 0;
}
