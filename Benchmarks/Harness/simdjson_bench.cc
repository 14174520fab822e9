// simdjson_bench: the limit of JSON reading in Scripts/bench's tim-rest table: simdjson's DOM parser
// (Debian's libsimdjson-dev 3.0.1) over the tim-rest corpora, and a walk that visits every value of the
// parsed document once. What one message costs (tim-rest-decode-read): dom::parser::parse of the record
// (one parser reused for every message, as simdjson is meant to be used; each record sits in its own
// buffer with SIMDJSON_PADDING bytes after it, so that nothing is copied), then the walk. The walk folds
// what it visits into the JSON-value digest of Benchmarks/Harness/timrest_corpus.py (Docs/benchmarks.md,
// "The tim-rest corpora"): J(object) = 1 + sum of (key bytes + J(value)); J(array) = 1 + sum of J(element);
// J(string) = byte count; true 1, false and null 0; a number its value modulo 2^64 when it is a whole
// number in [-2^63, 2^64), else the bit pattern of its double.
//
// Build (Scripts/bench does this): g++ -std=c++17 -O2 simdjson_bench.cc $(pkg-config --cflags --libs simdjson)
//
// Usage, the protocol of cpp_bench:
//   simdjson_bench [--op tim-rest-decode-read] [--sample-time S] [--samples N] [--round R] DIR CORPUS...
//       result lines ("result simdjson DOM CORPUS OP MESSAGES BYTES SECONDS PASSES SAMPLES ROUND"), as
//       imwire-bench prints them; an error line when a record does not parse.
//   simdjson_bench --digest DIR CORPUS...
//       "digest simdjson DOM CORPUS MESSAGES SUM": the walk's digest summed over the corpus.
// CORPUS is a tim-rest corpus: its records are DIR/CORPUS.timrest.msgs.

#include <simdjson.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

namespace {

const char* const kImpl = "simdjson DOM";
const char* const kOp = "tim-rest-decode-read";

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "simdjson_bench: %s\n", what.c_str());
  std::exit(2);
}

// Each record in a buffer of its own, padded as simdjson requires.
struct Records {
  std::vector<std::unique_ptr<char[]>> buffers;
  std::vector<size_t> sizes;
  size_t bytes = 0;
};

Records ReadRecords(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) Die("cannot open " + path);
  Records r;
  unsigned char header[4];
  while (std::fread(header, 1, 4, f) == 4) {
    const size_t n = size_t{header[0]} | size_t{header[1]} << 8 | size_t{header[2]} << 16 | size_t{header[3]} << 24;
    std::unique_ptr<char[]> buffer(new char[n + simdjson::SIMDJSON_PADDING]());
    if (n && std::fread(buffer.get(), 1, n, f) != n) Die("truncated record in " + path);
    r.buffers.push_back(std::move(buffer));
    r.sizes.push_back(n);
    r.bytes += n;
  }
  std::fclose(f);
  return r;
}

uint64_t Number(double d) {
  if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 18446744073709551616.0)
    return d < 0 ? uint64_t(int64_t(d)) : uint64_t(d);
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

uint64_t Walk(simdjson::dom::element e) {
  using simdjson::dom::element_type;
  switch (e.type()) {
    case element_type::OBJECT: {
      uint64_t d = 1;
      for (auto field : simdjson::dom::object(e)) d += field.key.size() + Walk(field.value);
      return d;
    }
    case element_type::ARRAY: {
      uint64_t d = 1;
      for (auto value : simdjson::dom::array(e)) d += Walk(value);
      return d;
    }
    case element_type::STRING: return std::string_view(e).size();
    case element_type::INT64: return uint64_t(int64_t(e));
    case element_type::UINT64: return uint64_t(e);
    case element_type::DOUBLE: return Number(double(e));
    case element_type::BOOL: return bool(e) ? 1 : 0;
    case element_type::NULL_VALUE: return 0;
  }
  return 0;
}

volatile uint64_t walk_sink;

// One pass: parse and walk every record. Returns the index of a record that did not parse, or -1.
long Pass(simdjson::dom::parser& parser, const Records& r, uint64_t* sum) {
  uint64_t total = 0;
  for (size_t i = 0; i < r.sizes.size(); i++) {
    simdjson::dom::element doc;
    if (parser.parse(r.buffers[i].get(), r.sizes[i], false).get(doc)) return long(i);
    total += Walk(doc);
  }
  walk_sink = total;
  if (sum) *sum = total;
  return -1;
}

double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  double sample_time = 0.2;
  int samples = 5, round_number = 1;
  bool digest = false;
  std::vector<std::string> positional;
  for (int k = 1; k < argc; k++) {
    const std::string a = argv[k];
    auto next = [&]() -> std::string {
      if (k + 1 >= argc) Die(a + " needs a value");
      return argv[++k];
    };
    if (a == "--digest") digest = true;
    else if (a == "--op") { if (next() != kOp) Die("only " + std::string(kOp) + " is timed"); }
    else if (a == "--impl") { if (next() != kImpl) Die("the implementation is " + std::string(kImpl)); }
    else if (a == "--sample-time") sample_time = std::atof(next().c_str());
    else if (a == "--samples") samples = std::atoi(next().c_str());
    else if (a == "--round") round_number = std::atoi(next().c_str());
    else positional.push_back(a);
  }
  if (positional.size() < 2 || sample_time <= 0 || samples < 1) Die("usage: see the head of simdjson_bench.cc");
  simdjson::dom::parser parser;
  for (size_t c = 1; c < positional.size(); c++) {
    const std::string& corpus = positional[c];
    const Records r = ReadRecords(positional[0] + "/" + corpus + ".timrest.msgs");
    uint64_t sum = 0;
    const long bad = Pass(parser, r, &sum);  // also the warm-up pass
    if (bad >= 0) {
      std::printf("error\t%s\t%s\t%s\tparse failed on message %ld\n", kImpl, corpus.c_str(), digest ? "digest" : kOp, bad);
      continue;
    }
    if (digest) {
      std::printf("digest\t%s\t%s\t%zu\t%" PRIu64 "\n", kImpl, corpus.c_str(), r.sizes.size(), sum);
      continue;
    }
    // imwire-bench's method: calibrate passes per sample, then the best of `samples` samples.
    long passes = 1;
    for (;;) {
      const double t0 = Now();
      for (long k = 0; k < passes; k++) Pass(parser, r, nullptr);
      const double elapsed = Now() - t0;
      if (elapsed >= sample_time / 2) {
        const double p = double(passes) * sample_time / elapsed;
        passes = p < 1 ? 1 : long(p + 0.999);
        break;
      }
      double factor = elapsed > 0 ? sample_time / elapsed : 100;
      if (factor > 100) factor = 100;
      if (factor < 2) factor = 2;
      passes = long(double(passes) * factor + 0.999);
    }
    double best = 1e300;
    for (int s = 0; s < samples; s++) {
      const double t0 = Now();
      for (long k = 0; k < passes; k++) Pass(parser, r, nullptr);
      const double elapsed = Now() - t0;
      if (elapsed / double(passes) < best) best = elapsed / double(passes);
      if (elapsed < sample_time / 2) passes *= 2;
    }
    std::printf("result\t%s\t%s\t%s\t%zu\t%zu\t%.9g\t%ld\t%d\t%d\n", kImpl, corpus.c_str(), kOp, r.sizes.size(), r.bytes,
                best, passes, samples, round_number);
    std::fflush(stdout);
  }
  return 0;
}
