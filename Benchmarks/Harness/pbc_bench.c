/*
 * pbc_bench: the C side of Scripts/bench.
 *
 *   protobuf-c  libprotobuf-c with the committed protoc-c code for Schemas/imwire/v1/message.proto
 *               (Sources/IMWireProtobufC/generated): binary-decode = unpack + free_unpacked,
 *               binary-encode = get_packed_size + malloc + pack + free (on messages unpacked untimed).
 *   memcpy      the practical ceiling: per message malloc(len) + memcpy + free, over the binary records
 *               (reported for binary-decode and binary-encode) and over the JSON records (json-*).
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
 *   pbc_bench --profile IMPL CORPUS OP [--passes N] DIR
 *       One warm-up pass, then N passes (default 10) in pbc_profile_region and nothing else, for
 *       callgrind --toggle-collect=pbc_profile_region (Scripts/profile --impl protobuf-c).
 * Output lines are those of imwire-bench (see its --help): result lines (ending in ROUND, default 1),
 * error and verify lines, and the profile line "profiled N passes of M messages (B B each pass)".
 */
#include <errno.h>
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

static const char *const OPS[] = {"binary-decode", "binary-encode", "json-decode", "json-encode"};
enum { N_OPS = 4, MAX_LIST = 16 };

static int op_index(const char *name) {
    for (int k = 0; k < N_OPS; k++)
        if (!strcmp(name, OPS[k])) return k;
    die("unknown operation", name);
    return -1;
}

static int is_impl(const char *name) { return !strcmp(name, "protobuf-c") || !strcmp(name, "memcpy"); }

/* Unpacks every record (untimed) for the encode pass; 0 if protobuf-c refused one. */
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
    int is_json = op >= 2;
    w->records = is_json ? json : bin;
    w->messages = NULL;
    w->failed = 0;
    *why = NULL;
    if (!strcmp(impl, "memcpy")) return pass_memcpy;
    if (is_json) return NULL; /* protobuf-c has no JSON */
    if (op == 0) return pass_decode;
    if (!unpack_all(w)) {
        free_all(w);
        *why = "protobuf-c refused to unpack a message";
        return NULL;
    }
    return pass_encode;
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
    "       pbc_bench --profile IMPL CORPUS OP [--passes N] DIR";

int main(int argc, char **argv) {
    const char *impls[MAX_LIST];
    int ops[MAX_LIST];
    int n_impls = 0, n_ops = 0, do_verify = 0;
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
