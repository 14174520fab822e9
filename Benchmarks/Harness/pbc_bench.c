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
 * Usage: pbc_bench [--impl protobuf-c|memcpy]... [--sample-time S] [--samples N] [--verify] DIR CORPUS...
 * Output lines are those of imwire-bench (see its --help): result, error and verify lines.
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
    printf("result\t%s\t%s\t%s\t%zu\t%zu\t%.9g\t%ld\t%d\n", impl, corpus, op, r->count, r->bytes, seconds, passes,
           samples);
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

int main(int argc, char **argv) {
    int want_pbc = 0, want_memcpy = 0, do_verify = 0;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (!strcmp(argv[i], "--impl") && i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(v, "protobuf-c")) want_pbc = 1;
            else if (!strcmp(v, "memcpy")) want_memcpy = 1;
            else die("unknown implementation", v);
        } else if (!strcmp(argv[i], "--sample-time") && i + 1 < argc) {
            sample_time = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            samples = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--verify")) {
            do_verify = 1;
        } else {
            die("unknown option", argv[i]);
        }
    }
    if (!want_pbc && !want_memcpy) want_pbc = want_memcpy = 1;
    if (argc - i < 2 || sample_time <= 0 || samples <= 0)
        die("usage: pbc_bench [--impl protobuf-c|memcpy]... [--sample-time S] [--samples N] [--verify] DIR CORPUS...",
            NULL);
    const char *dir = argv[i++];
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (; i < argc; i++) {
        const char *corpus = argv[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.msgs", dir, corpus);
        Records bin = read_records(path);
        snprintf(path, sizeof path, "%s/%s.json.msgs", dir, corpus);
        Records json = read_records(path);

        if (do_verify) {
            verify(corpus, &bin);
            continue;
        }
        if (want_pbc) {
            Work w = {&bin, NULL, 0};
            report("protobuf-c", corpus, "binary-decode", &bin, pass_decode, &w);
            w.messages = malloc((bin.count ? bin.count : 1) * sizeof *w.messages);
            int ok = 1;
            for (size_t k = 0; k < bin.count; k++) {
                w.messages[k] = imwire__v1__message__unpack(NULL, bin.len[k], bin.data[k]);
                if (!w.messages[k]) ok = 0;
            }
            if (ok) {
                report("protobuf-c", corpus, "binary-encode", &bin, pass_encode, &w);
            } else {
                printf("error\tprotobuf-c\t%s\tbinary-encode\tprotobuf-c refused to unpack a message\n", corpus);
            }
            for (size_t k = 0; k < bin.count; k++)
                if (w.messages[k]) imwire__v1__message__free_unpacked(w.messages[k], NULL);
            free(w.messages);
        }
        if (want_memcpy) {
            /* One measurement per format, reported for both of its operations. */
            Work wb = {&bin, NULL, 0}, wj = {&json, NULL, 0};
            long passes = 0;
            double sb = measure(pass_memcpy, &wb, &passes);
            printf("result\tmemcpy\t%s\tbinary-decode\t%zu\t%zu\t%.9g\t%ld\t%d\n", corpus, bin.count, bin.bytes, sb,
                   passes, samples);
            printf("result\tmemcpy\t%s\tbinary-encode\t%zu\t%zu\t%.9g\t%ld\t%d\n", corpus, bin.count, bin.bytes, sb,
                   passes, samples);
            double sj = measure(pass_memcpy, &wj, &passes);
            printf("result\tmemcpy\t%s\tjson-decode\t%zu\t%zu\t%.9g\t%ld\t%d\n", corpus, json.count, json.bytes, sj,
                   passes, samples);
            printf("result\tmemcpy\t%s\tjson-encode\t%zu\t%zu\t%.9g\t%ld\t%d\n", corpus, json.count, json.bytes, sj,
                   passes, samples);
        }
    }
    return 0;
}
