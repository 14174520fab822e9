// cpp_bench: the C++ side of Scripts/bench: Google's C++ protobuf runtime (libprotobuf 3.21, Debian's
// libprotobuf-dev) with the generated code the C++ conformance testee commits
// (Tests/Conformance/testees/cpp/generated, made by Tests/Conformance/testees/cpp/generate from
// Schemas/imwire/v1/message.proto). What one message costs:
//
//   C++        binary-decode = new Message + ParseFromArray + delete;
//              binary-encode = ByteSizeLong + malloc(size) + SerializeWithCachedSizesToArray + free, on
//              messages parsed untimed (one sizing pass, as SerializeToString makes; SerializeToArray
//              would size the message a second time);
//              json-decode = new Message + util::JsonStringToMessage (default JsonParseOptions) + delete;
//              json-encode = util::MessageToJsonString into a fresh std::string (default JsonPrintOptions:
//              no whitespace, fields with default values left out, enums by name, lowerCamelCase names);
//              binary-decode-read, json-decode-read = binary-decode, json-decode with a walk of the message
//              before the delete; binary-read = the walk alone, on messages parsed untimed. The walk reads
//              every field of every message type once through the generated accessors and folds it into a
//              digest (see namespace walk).
//   C++ arena  binary-decode and binary-decode-read only: a google::protobuf::Arena constructed for the
//              message (default ArenaOptions: no initial block), Arena::CreateMessage + ParseFromArray (+ the
//              walk), and the arena destroyed, which frees the message's blocks at once.
//
// Build (Scripts/bench and Scripts/profile do this, through Benchmarks/Harness/cpp_bench.mk):
//   g++ -std=c++17 -O2 -I Tests/Conformance/testees/cpp/generated Benchmarks/Harness/cpp_bench.cc
//       Tests/Conformance/testees/cpp/generated/imwire/v1/message.pb.cc $(pkg-config --cflags --libs protobuf)
// The generated header refuses to compile against headers of another protobuf release, and
// GOOGLE_PROTOBUF_VERIFY_VERSION stops the program when the library it loads is not the one it was built for.
//
// Usage, the protocol of pbc_bench and upb_bench.py:
//   cpp_bench [--impl 'C++'|'C++ arena']... [--op OP]... [--sample-time S] [--samples N] [--round R]
//             DIR CORPUS...
//       For each corpus, implementation and operation, in the order given (default: C++ then C++ arena;
//       every operation), one measurement as imwire-bench makes it: one warm-up pass, calibration, best of
//       N samples of >= S seconds (CLOCK_MONOTONIC). Pairs that do not exist (C++ arena with anything but
//       binary-decode and binary-decode-read) are skipped.
//   cpp_bench --verify DIR CORPUS...
//       The byte-identity checks (see Verify below).
//   cpp_bench --digest DIR CORPUS...
//       Per corpus, "digest C++ CORPUS MESSAGES SUM" (the wrapping uint64 sum of the walk's digest over the
//       binary records) and the same for "C++ json" over the JSON records: equal, and equal to pbc_bench's.
//   cpp_bench --memory DIR CORPUS COUNT
//       Parses COUNT heap Messages (record k % n), keeps them all, and prints "memory C++ CORPUS message
//       COUNT BYTES": the heap in use per message (glibc mallinfo2 uordblks, after - before).
//   cpp_bench --profile IMPL CORPUS OP [--passes N] DIR
//       One warm-up pass, then N passes (default 10) in cpp_profile_region and nothing else, for
//       callgrind --toggle-collect=cpp_profile_region (Scripts/profile --impl C++).
// Output lines are those of imwire-bench (see its --help): result lines (ending in ROUND, default 1),
// error and verify lines, and the profile line "profiled N passes of M messages (B B each pass)"; the
// digest and memory lines; and "skip IMPL CORPUS OP REASON" for an operation the runtime cannot run on
// every fixture (see Report).

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/common.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/util/json_util.h>

#include <malloc.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "imwire/v1/message.pb.h"

namespace {

using imwire::v1::Message;
namespace pb = google::protobuf;

[[noreturn]] void Die(const std::string& what, const std::string& detail = "") {
  std::fprintf(stderr, "cpp_bench: %s%s%s\n", what.c_str(), detail.empty() ? "" : " ", detail.c_str());
  std::exit(2);
}

struct Records {
  std::vector<std::string> data;
  size_t bytes = 0;
  size_t count() const { return data.size(); }
};

// NAME.msgs / NAME.json.msgs: records of [4-byte little-endian length][bytes].
Records ReadRecords(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) Die("cannot open", path);
  Records r;
  unsigned char header[4];
  while (std::fread(header, 1, 4, f) == 4) {
    const size_t n = size_t{header[0]} | size_t{header[1]} << 8 | size_t{header[2]} << 16 | size_t{header[3]} << 24;
    std::string record(n, '\0');
    if (n && std::fread(&record[0], 1, n, f) != n) Die("truncated record in", path);
    r.bytes += n;
    r.data.push_back(std::move(record));
  }
  std::fclose(f);
  return r;
}

double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Tells the compiler that the pointed-to memory is used, so that no allocation or write is elided.
inline void Escape(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

// The walker: reads every field of every message type once, through the generated accessors, as a reader
// of the decoded message does, and folds what it read into a digest that independent implementations can
// be compared by (pbc_bench computes the same). W(message) = 1 + the sum of its fields' F, uint64,
// wrapping: string = size(), bytes = size(), uint64/uint32 = value, int32/enum = value sign-extended,
// bool = 0/1, double = bit pattern, message = W (0 when absent: has_x()), repeated = sum over elements,
// map<string, bytes> = sum of key + value sizes, oneof = F of the member set (0 if none). Unknown fields
// are ignored.
namespace walk {

using namespace imwire::v1;

inline uint64_t Int32(int32_t v) { return uint64_t(int64_t(v)); }
inline uint64_t Double(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}
template <typename Map>
uint64_t StringBytesMap(const Map& map) {
  uint64_t d = 0;
  for (const auto& entry : map) d += entry.first.size() + entry.second.size();
  return d;
}

uint64_t Walk(const Message& m);

uint64_t Walk(const RecallNotice& m) { return 1 + m.msg_id().size() + m.recalled_by().size() + m.reason().size(); }

uint64_t Walk(const GroupReadReceipt& m) { return 1 + m.msg_id().size() + m.read_count() + m.unread_count(); }

uint64_t Walk(const C2CReadReceipt& m) { return 1 + m.user_id().size() + m.read_timestamp_ms(); }

uint64_t Walk(const OfflinePushInfo& m) {
  return 1 + m.title().size() + m.desc().size() + m.ext().size() + m.disable_push() + m.ios_sound().size() +
         m.android_sound().size() + m.ignore_ios_badge() + Int32(m.ios_push_type()) + m.ios_title().size() +
         m.ios_subtitle().size() + m.ios_image().size() + m.ios_mutable_content();
}

uint64_t Walk(const TextElem& m) { return 1 + m.text().size(); }

uint64_t Walk(const CustomElem& m) {
  return 1 + m.data().size() + m.desc().size() + m.ext().size() + m.sound().size();
}

uint64_t Walk(const Image& m) {
  return 1 + Int32(m.type()) + m.uuid().size() + m.size() + m.width() + m.height() + m.url().size();
}

uint64_t Walk(const ImageElem& m) {
  uint64_t d = 1 + Int32(m.format());
  for (const Image& image : m.images()) d += Walk(image);
  return d;
}

uint64_t Walk(const SoundElem& m) {
  return 1 + m.uuid().size() + m.url().size() + m.data_size() + m.duration() + m.format().size();
}

uint64_t Walk(const VideoElem& m) {
  return 1 + m.video_uuid().size() + m.video_url().size() + m.video_size() + m.video_format().size() +
         m.duration() + m.snapshot_uuid().size() + m.snapshot_url().size() + m.snapshot_size() +
         m.snapshot_width() + m.snapshot_height() + m.snapshot_format().size();
}

uint64_t Walk(const FileElem& m) { return 1 + m.uuid().size() + m.url().size() + m.file_name().size() + m.file_size(); }

uint64_t Walk(const LocationElem& m) { return 1 + m.desc().size() + Double(m.longitude()) + Double(m.latitude()); }

uint64_t Walk(const FaceElem& m) { return 1 + Int32(m.index()) + m.data().size(); }

uint64_t Walk(const MergerElem& m) {
  uint64_t d = 1 + m.title().size();
  for (const std::string& s : m.abstract_list()) d += s.size();
  d += m.compatible_text().size() + m.layers_over_limit();
  for (const Message& message : m.messages()) d += Walk(message);
  return d + m.json_msg_key().size() + m.msg_num();
}

uint64_t Walk(const GroupMemberInfo& m) {
  return 1 + m.user_id().size() + m.nick_name().size() + m.friend_remark().size() + m.name_card().size() +
         m.face_url().size() + Int32(m.role()) + m.join_time() + m.mute_until() + StringBytesMap(m.custom_info());
}

uint64_t Walk(const GroupChangeInfo& m) {
  return 1 + Int32(m.type()) + m.value().size() + m.key().size() + m.bool_value() + m.int_value() + m.uint64_value();
}

uint64_t Walk(const UserProfile& m) {
  return 1 + m.user_id().size() + m.nick_name().size() + m.face_url().size() + m.self_signature().size() +
         StringBytesMap(m.custom_info());
}

uint64_t Walk(const MemberChangeInfo& m) { return 1 + m.user_id().size() + m.mute_time(); }

uint64_t Walk(const GroupTipsElem& m) {
  uint64_t d = 1 + m.group_id().size() + Int32(m.type());
  if (m.has_op_member()) d += Walk(m.op_member());
  for (const GroupMemberInfo& info : m.member_list()) d += Walk(info);
  for (const GroupChangeInfo& change : m.group_change_list()) d += Walk(change);
  for (const MemberChangeInfo& change : m.member_change_list()) d += Walk(change);
  d += m.member_count() + m.group_name().size() + m.platform().size();
  if (m.has_op_user_info()) d += Walk(m.op_user_info());
  for (const UserProfile& profile : m.changed_user_info_list()) d += Walk(profile);
  for (const GroupMemberInfo& info : m.changed_group_member_info_list()) d += Walk(info);
  return d;
}

uint64_t Walk(const GroupSystemElem& m) {
  uint64_t d = 1 + Int32(m.type()) + m.group_id().size() + m.op_user().size() + m.reason().size() + m.msg_key() +
               m.auth_key().size() + m.user_data().size();
  if (m.has_op_member()) d += Walk(m.op_member());
  d += m.platform().size();
  if (m.has_op_user_info()) d += Walk(m.op_user_info());
  return d;
}

uint64_t Walk(const Elem& m) {
  switch (m.content_case()) {
    case Elem::kText: return 1 + Walk(m.text());
    case Elem::kCustom: return 1 + Walk(m.custom());
    case Elem::kImage: return 1 + Walk(m.image());
    case Elem::kSound: return 1 + Walk(m.sound());
    case Elem::kVideo: return 1 + Walk(m.video());
    case Elem::kFile: return 1 + Walk(m.file());
    case Elem::kLocation: return 1 + Walk(m.location());
    case Elem::kFace: return 1 + Walk(m.face());
    case Elem::kGroupTips: return 1 + Walk(m.group_tips());
    case Elem::kMerger: return 1 + Walk(m.merger());
    case Elem::kGroupSystem: return 1 + Walk(m.group_system());
    case Elem::CONTENT_NOT_SET: break;
  }
  return 1;
}

uint64_t Walk(const Message& m) {
  uint64_t d = 1 + m.msg_id().size() + m.sender().size();
  switch (m.target_case()) {
    case Message::kReceiver: d += m.receiver().size(); break;
    case Message::kGroupId: d += m.group_id().size(); break;
    case Message::kRoomId: d += m.room_id().size(); break;
    case Message::TARGET_NOT_SET: break;
  }
  d += m.timestamp_ms() + m.seq() + m.random() + Int32(m.priority());
  for (const Elem& elem : m.elems()) d += Walk(elem);
  for (const std::string& s : m.at_user_list()) d += s.size();
  for (const std::string& s : m.targeted_receivers()) d += s.size();
  d += m.cloud_custom_data().size();
  if (m.has_offline_push_info()) d += Walk(m.offline_push_info());
  d += m.need_read_receipt() + m.excluded_from_unread_count() + m.excluded_from_last_message() +
       m.online_user_only() + m.support_message_extension() + m.topic_id().size() + m.barrage();
  switch (m.signal_case()) {
    case Message::kRecallNotice: d += Walk(m.recall_notice()); break;
    case Message::kGroupReadReceipt: d += Walk(m.group_read_receipt()); break;
    case Message::kC2CReadReceipt: d += Walk(m.c2c_read_receipt()); break;
    case Message::SIGNAL_NOT_SET: break;
  }
  return d;
}

}  // namespace walk

// Each walk's digest is stored here, so that no walk can be left out.
volatile uint64_t walk_sink;

struct Work {
  const Records* records = nullptr;
  std::vector<std::unique_ptr<Message>> messages;  // parsed untimed, for the encodes and binary-read
  std::string failure;  // set by a pass that met a message it could not handle: what and which
};

// Records the first failure of a pass (off the hot path: only called when a message fails).
__attribute__((noinline, cold)) void Fail(Work& w, const char* what, size_t index, const std::string& detail = "") {
  if (w.failure.empty())
    w.failure = std::string(what) + " on message " + std::to_string(index) + (detail.empty() ? "" : ": " + detail);
}

using PassFn = void (*)(Work&);

// Parses one record into `m`, then walks it (kRead) or only keeps it from being optimised away.
template <bool kRead>
inline void ParseAndUse(Work& w, Message* m, const std::string& r, size_t i) {
  if (!m->ParseFromArray(r.data(), int(r.size()))) Fail(w, "ParseFromArray failed", i);
  if constexpr (kRead) {
    walk_sink = walk::Walk(*m);
  } else {
    Escape(m);
  }
}

// Decode (kRead: and walk) every record: on the heap (new + delete), or (kArena) in an arena made for
// the message and destroyed after it.
template <bool kArena, bool kRead>
void PassDecodeWith(Work& w) {
  for (size_t i = 0; i < w.records->count(); i++) {
    const std::string& r = w.records->data[i];
    if constexpr (kArena) {
      pb::Arena arena;
      ParseAndUse<kRead>(w, pb::Arena::CreateMessage<Message>(&arena), r, i);
    } else {
      Message* m = new Message;
      ParseAndUse<kRead>(w, m, r, i);
      delete m;
    }
  }
}

void PassRead(Work& w) {
  for (const auto& m : w.messages) walk_sink = walk::Walk(*m);
}

void PassEncode(Work& w) {
  for (const auto& m : w.messages) {
    const size_t size = m->ByteSizeLong();
    auto* buffer = static_cast<uint8_t*>(std::malloc(size ? size : 1));
    m->SerializeWithCachedSizesToArray(buffer);
    Escape(buffer);
    std::free(buffer);
  }
}

void PassJsonDecode(Work& w) {
  const pb::util::JsonParseOptions options;
  for (size_t i = 0; i < w.records->count(); i++) {
    const std::string& r = w.records->data[i];
    Message* m = new Message;
    const auto status = pb::util::JsonStringToMessage(pb::StringPiece(r.data(), r.size()), m, options);
    if (!status.ok()) Fail(w, "JsonStringToMessage failed", i, status.ToString());
    Escape(m);
    delete m;
  }
}

void PassJsonDecodeRead(Work& w) {
  const pb::util::JsonParseOptions options;
  for (size_t i = 0; i < w.records->count(); i++) {
    const std::string& r = w.records->data[i];
    Message* m = new Message;
    const auto status = pb::util::JsonStringToMessage(pb::StringPiece(r.data(), r.size()), m, options);
    if (!status.ok()) Fail(w, "JsonStringToMessage failed", i, status.ToString());
    walk_sink = walk::Walk(*m);
    delete m;
  }
}

void PassJsonEncode(Work& w) {
  const pb::util::JsonPrintOptions options;
  for (size_t i = 0; i < w.messages.size(); i++) {
    std::string out;
    const auto status = pb::util::MessageToJsonString(*w.messages[i], &out, options);
    if (!status.ok()) Fail(w, "MessageToJsonString failed", i, status.ToString());
    Escape(out.data());
  }
}

double sample_time = 0.2;
int samples = 5;
int round_number = 1;

// Same method as imwire-bench: warm-up, calibrate passes per sample, best of `samples`. A pass that
// failed in the warm-up is not timed.
double Measure(PassFn fn, Work& w, long* passes_out) {
  long passes = 1;
  fn(w);
  if (!w.failure.empty()) return 0;
  for (;;) {
    const double t0 = Now();
    for (long k = 0; k < passes; k++) fn(w);
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
    for (long k = 0; k < passes; k++) fn(w);
    const double elapsed = Now() - t0;
    if (elapsed / double(passes) < best) best = elapsed / double(passes);
    if (elapsed < sample_time / 2) passes *= 2;  // calibrated on an outlier: keep samples long enough
  }
  *passes_out = passes;
  return best;
}

const char* const kOps[] = {"binary-decode",      "binary-encode", "json-decode",     "json-encode",
                            "binary-decode-read", "binary-read",   "json-decode-read"};
enum Op { kDecode, kEncode, kJsonDecode, kJsonEncode, kDecodeRead, kRead, kJsonDecodeRead, kOpCount };

bool IsJson(int op) { return op == kJsonDecode || op == kJsonEncode || op == kJsonDecodeRead; }
const char* const kImpls[] = {"C++", "C++ arena"};

int OpIndex(const std::string& name) {
  for (int k = 0; k < kOpCount; k++)
    if (name == kOps[k]) return k;
  Die("unknown operation", name);
}

bool IsImpl(const std::string& name) { return name == kImpls[0] || name == kImpls[1]; }

// Parses every binary record (untimed) for the encode and read passes; false if the runtime refused one.
bool ParseAll(const Records& binary, Work& w) {
  for (const std::string& r : binary.data) {
    auto m = std::make_unique<Message>();
    if (!m->ParseFromArray(r.data(), int(r.size()))) return false;
    w.messages.push_back(std::move(m));
  }
  return true;
}

// One operation of one implementation over a corpus: fills `w` and returns the pass, or nullptr for a
// pair that does not exist (why stays null) or could not be prepared (why says so).
PassFn Prepare(const std::string& impl, int op, const Records& binary, const Records& json, Work& w,
               const char** why) {
  w = Work();
  w.records = IsJson(op) ? &json : &binary;
  *why = nullptr;
  if (impl == "C++ arena") {
    return op == kDecode ? PassDecodeWith<true, false> : op == kDecodeRead ? PassDecodeWith<true, true> : nullptr;
  }
  switch (op) {
    case kDecode: return PassDecodeWith<false, false>;
    case kDecodeRead: return PassDecodeWith<false, true>;
    case kJsonDecode: return PassJsonDecode;
    case kJsonDecodeRead: return PassJsonDecodeRead;
    default:
      if (!ParseAll(binary, w)) {
        *why = "ParseFromArray refused a message";
        return nullptr;
      }
      return op == kEncode ? PassEncode : op == kRead ? PassRead : PassJsonEncode;
  }
}

void Report(const std::string& impl, const std::string& corpus, int op, PassFn fn, Work& w) {
  long passes = 0;
  const double seconds = Measure(fn, w, &passes);
  if (!w.failure.empty()) {
    // The fixtures corpus holds edge cases at the runtime's fixed limits: MessageToJsonString refuses
    // merger_nested_32_layers (3.21 prints at most 64 message levels, with no option to raise it). A
    // timing over fewer messages would not be comparable, so the operation is left out, with a note
    // (a `skip` line); on the other corpora a refusal is an error.
    const char* kind = corpus == "fixtures" ? "skip" : "error";
    std::printf("%s\t%s\t%s\t%s\t%s\n", kind, impl.c_str(), corpus.c_str(), kOps[op], w.failure.c_str());
    return;
  }
  std::printf("result\t%s\t%s\t%s\t%zu\t%zu\t%.9g\t%ld\t%d\t%d\n", impl.c_str(), corpus.c_str(), kOps[op],
              w.records->count(), w.records->bytes, seconds, passes, samples, round_number);
  std::fflush(stdout);
}

std::string Hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  const size_t shown = bytes.size() <= 96 ? bytes.size() : 64;
  std::string out = std::to_string(bytes.size()) + " B ";
  for (size_t i = 0; i < shown; i++) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  if (shown < bytes.size()) out += "...";
  return out;
}

// The C++ spelling of Python's SerializeToString(deterministic=True): map entries sorted by key.
std::string Deterministic(const Message& m) {
  std::string out;
  {
    pb::io::StringOutputStream stream(&out);
    pb::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&coded);
  }  // the destructors trim `out` to the bytes written
  return out;
}

// One verify line: `produce(i, &out)` makes the bytes that must equal expected.data[i], or returns the
// reason it could not.
template <typename Produce>
void Check(const std::string& corpus, const std::string& name, bool informational, const Records& expected,
           Produce produce) {
  size_t mismatches = 0;
  std::string first = "-";
  for (size_t i = 0; i < expected.count(); i++) {
    std::string out;
    const char* refused = produce(i, &out);
    if (!refused && out == expected.data[i]) continue;
    if (!mismatches++) {
      first = "message " + std::to_string(i) + ": " +
              (refused ? std::string(refused) : "expected " + Hex(expected.data[i]) + ", got " + Hex(out));
    }
  }
  std::printf("verify\t%s\t%s\t%zu\t%zu\t%d\t%s\n", corpus.c_str(), name.c_str(), expected.count(), mismatches,
              informational ? 1 : 0, first.c_str());
}

// The corpus bytes must come back: every timed decode (heap and arena ParseFromArray, JsonStringToMessage)
// must give the message of the corpus binary, compared through deterministic serialization, and so strictly
// on every corpus: unlike the other peers, the C++ runtime reproduces the fixtures too, so it gets no
// allowance there. The JSON printer's output is compared with the canonical JSON for information only, as
// swift-protobuf's is: MessageToJsonString has its own escaping ('<', '>', DEL and Unicode format
// characters such as U+200D and U+2028 as \uXXXX), its own number form (180 for 180.0, -0 for -0.0,
// 4.94065645841247e-324 for 5e-324), prints map entries in hash order, and gives up on the fixture nested
// 32 mergers deep (see Report).
void Verify(const std::string& corpus, const Records& binary, const Records& json) {
  Check(corpus, "C++ ParseFromArray + serialize (deterministic) = corpus binary", false, binary,
        [&](size_t i, std::string* out) -> const char* {
          Message m;
          if (!m.ParseFromArray(binary.data[i].data(), int(binary.data[i].size()))) return "ParseFromArray failed";
          *out = Deterministic(m);
          return nullptr;
        });
  Check(corpus, "C++ arena ParseFromArray + serialize (deterministic) = corpus binary", false, binary,
        [&](size_t i, std::string* out) -> const char* {
          pb::Arena arena;
          Message* m = pb::Arena::CreateMessage<Message>(&arena);
          if (!m->ParseFromArray(binary.data[i].data(), int(binary.data[i].size()))) return "ParseFromArray failed";
          *out = Deterministic(*m);
          return nullptr;
        });
  Check(corpus, "C++ JsonStringToMessage, serialize (deterministic) = corpus binary", false, binary,
        [&](size_t i, std::string* out) -> const char* {
          Message m;
          if (!pb::util::JsonStringToMessage(json.data[i], &m).ok()) return "JsonStringToMessage failed";
          *out = Deterministic(m);
          return nullptr;
        });
  Check(corpus, "C++ MessageToJsonString = corpus JSON (its own style: informational)", true, json,
        [&](size_t i, std::string* out) -> const char* {
          Message m;
          if (!m.ParseFromArray(binary.data[i].data(), int(binary.data[i].size()))) return "ParseFromArray failed";
          return pb::util::MessageToJsonString(m, out).ok() ? nullptr : "MessageToJsonString failed";
        });
}

// The digest lines: the wrapping sum of W over the corpus's messages, parsed from the binary records
// (C++) and from the JSON records (C++ json); the two must agree. A record the runtime refuses gives a
// skip line on the fixtures and an error line elsewhere, as in Report.
void Digest(const std::string& corpus, const Records& binary, const Records& json) {
  const char* kind = corpus == "fixtures" ? "skip" : "error";
  uint64_t sum = 0;
  size_t i = 0;
  for (; i < binary.count(); i++) {
    Message m;
    if (!m.ParseFromArray(binary.data[i].data(), int(binary.data[i].size()))) break;
    sum += walk::Walk(m);
  }
  if (i < binary.count()) {
    std::printf("%s\tC++\t%s\tdigest\tParseFromArray failed on message %zu\n", kind, corpus.c_str(), i);
  } else {
    std::printf("digest\tC++\t%s\t%zu\t%" PRIu64 "\n", corpus.c_str(), binary.count(), sum);
  }
  sum = 0;
  for (i = 0; i < json.count(); i++) {
    Message m;
    const auto status = pb::util::JsonStringToMessage(json.data[i], &m);
    if (!status.ok()) {
      std::printf("%s\tC++ json\t%s\tdigest\tJsonStringToMessage failed on message %zu: %s\n", kind,
                  corpus.c_str(), i, status.ToString().c_str());
      return;
    }
    sum += walk::Walk(m);
  }
  std::printf("digest\tC++ json\t%s\t%zu\t%" PRIu64 "\n", corpus.c_str(), json.count(), sum);
}

// The memory line: heap in use (mallinfo2 uordblks) per message, with `count` messages parsed (record
// k % n) into heap Messages (no arena) and all kept alive, plus the pointer each is held by. The "before"
// reading comes after the corpus is loaded, the vector's capacity is reserved and one message has been
// parsed and deleted (a warm-up, for any allocation the runtime makes once), so that only the messages
// count.
void Memory(const std::string& corpus, const Records& binary, long count) {
  if (binary.count() == 0) Die("no records in", corpus);
  std::vector<std::unique_ptr<Message>> kept;
  kept.reserve(size_t(count));
  {
    Message warm;
    if (!warm.ParseFromArray(binary.data[0].data(), int(binary.data[0].size()))) Die("ParseFromArray failed", corpus);
  }
  const struct mallinfo2 before = mallinfo2();
  for (long k = 0; k < count; k++) {
    const std::string& r = binary.data[size_t(k) % binary.count()];
    auto m = std::make_unique<Message>();
    if (!m->ParseFromArray(r.data(), int(r.size()))) Die("ParseFromArray failed", corpus);
    kept.push_back(std::move(m));
  }
  const struct mallinfo2 after = mallinfo2();
  if (after.hblkhd != before.hblkhd)  // an mmapped block is not in uordblks: the number would be short
    std::fprintf(stderr, "cpp_bench: warning: %zu B of mmapped blocks appeared, not counted\n",
                 after.hblkhd - before.hblkhd);
  // Plus the pointer that holds each message: the Swift harness counts its array's storage too.
  std::printf("memory\tC++\t%s\tmessage\t%ld\t%.1f\n", corpus.c_str(), count,
              (double(after.uordblks) - double(before.uordblks)) / double(count) + double(sizeof(kept[0])));
  kept.clear();
}

void Load(const std::string& dir, const std::string& corpus, Records* binary, Records* json) {
  *binary = ReadRecords(dir + "/" + corpus + ".msgs");
  *json = ReadRecords(dir + "/" + corpus + ".json.msgs");
}

const char kUsage[] =
    "usage: cpp_bench [--impl 'C++'|'C++ arena']... [--op OP]... [--sample-time S] [--samples N] [--round R] "
    "DIR CORPUS...\n"
    "       cpp_bench --verify DIR CORPUS...\n"
    "       cpp_bench --digest DIR CORPUS...\n"
    "       cpp_bench --memory DIR CORPUS COUNT\n"
    "       cpp_bench --profile IMPL CORPUS OP [--passes N] DIR";

}  // namespace

// Callgrind counts only inside this function (Scripts/profile: --toggle-collect=cpp_profile_region), so
// it must stay a call of its own, under its C name.
extern "C" __attribute__((noinline)) void cpp_profile_region(PassFn fn, Work* w, long passes) {
  for (long k = 0; k < passes; k++) fn(*w);
  Escape(w);
}

// The runtime logs a warning for each message MessageToJsonString gives up on ("JsonObjectWriter was not
// fully closed"); the failure itself is reported, so only errors reach stderr.
void LogErrors(pb::LogLevel level, const char* /*filename*/, int /*line*/, const std::string& message) {
  if (level >= pb::LOGLEVEL_ERROR) std::fprintf(stderr, "cpp_bench: libprotobuf: %s\n", message.c_str());
}

int main(int argc, char** argv) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  pb::SetLogHandler(&LogErrors);
  std::vector<std::string> impls;
  std::vector<int> ops;
  bool verify = false, digest = false, memory = false;
  std::string profile_impl, profile_corpus;
  int profile_op = -1;
  long passes_wanted = 10;
  int i = 1;
  for (; i < argc && std::strncmp(argv[i], "--", 2) == 0; i++) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--impl" && has_value) {
      impls.push_back(argv[++i]);
      if (!IsImpl(impls.back())) Die("unknown implementation", impls.back());
    } else if (arg == "--op" && has_value) {
      ops.push_back(OpIndex(argv[++i]));
    } else if (arg == "--sample-time" && has_value) {
      sample_time = std::atof(argv[++i]);
    } else if (arg == "--samples" && has_value) {
      samples = std::atoi(argv[++i]);
    } else if (arg == "--round" && has_value) {
      round_number = std::atoi(argv[++i]);
    } else if (arg == "--verify") {
      verify = true;
    } else if (arg == "--digest") {
      digest = true;
    } else if (arg == "--memory") {
      memory = true;
    } else if (arg == "--profile" && i + 3 < argc) {
      profile_impl = argv[++i];
      profile_corpus = argv[++i];
      profile_op = OpIndex(argv[++i]);
      if (!IsImpl(profile_impl)) Die("unknown implementation", profile_impl);
    } else if (arg == "--passes" && has_value) {
      passes_wanted = std::atol(argv[++i]);
    } else {
      Die("unknown option", arg);
    }
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);

  if (!profile_impl.empty()) {
    if (argc - i != 1 || passes_wanted <= 0) Die(kUsage);
    Records binary, json;
    Load(argv[i], profile_corpus, &binary, &json);
    Work w;
    const char* why;
    PassFn fn = Prepare(profile_impl, profile_op, binary, json, w, &why);
    if (!fn) Die(why ? why : "no such operation for", profile_impl);
    fn(w);  // warm-up, outside the region
    cpp_profile_region(fn, &w, passes_wanted);
    if (!w.failure.empty()) Die(w.failure);
    std::printf("profiled %ld passes of %zu messages (%zu B each pass)\n", passes_wanted, w.records->count(),
                w.records->bytes);
    return 0;
  }

  if (memory) {
    if (argc - i != 3) Die(kUsage);
    char* end;
    const long count = std::strtol(argv[i + 2], &end, 10);
    if (count <= 0 || *end) Die(kUsage);
    Records binary, json;
    Load(argv[i], argv[i + 1], &binary, &json);
    Memory(argv[i + 1], binary, count);
    return 0;
  }

  if (impls.empty()) impls.assign(std::begin(kImpls), std::end(kImpls));
  if (ops.empty())
    for (int k = 0; k < kOpCount; k++) ops.push_back(k);
  if (argc - i < 2 || sample_time <= 0 || samples <= 0) Die(kUsage);
  const std::string dir = argv[i++];
  for (; i < argc; i++) {
    const std::string corpus = argv[i];
    Records binary, json;
    Load(dir, corpus, &binary, &json);
    if (verify) {
      Verify(corpus, binary, json);
      continue;
    }
    if (digest) {
      Digest(corpus, binary, json);
      continue;
    }
    for (const std::string& impl : impls) {
      for (int op : ops) {
        Work w;
        const char* why;
        if (PassFn fn = Prepare(impl, op, binary, json, w, &why)) {
          Report(impl, corpus, op, fn, w);
        } else if (why) {
          std::printf("error\t%s\t%s\t%s\t%s\n", impl.c_str(), corpus.c_str(), kOps[op], why);
        }
      }
    }
  }
  return 0;
}
