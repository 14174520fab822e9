// IMWire conformance testee on Google's C++ protobuf runtime (libprotobuf 3.21).
//
// Speaks the conformance protocol (Schemas/imwire/conformance/v1/conformance.proto, Docs/conformance.md) on
// stdin/stdout: 4-byte little-endian length, then a ConformanceRequest; one framed
// ConformanceResponse per request; exit 0 at end of input. It is a plain use of the library, the C++
// counterpart of Tests/Conformance/testees/python/testee.py: binary input and output through the generated
// imwire::v1::Message (ParseFromCodedStream / SerializeToCodedStream), proto3 JSON through
// google::protobuf::util (JsonStringToMessage / MessageToJsonString) with default options.
// Validation and tim-rest are answered `skipped`: the runtime has neither. Two settings differ from
// the defaults, both documented API and both explained where they are made: a higher recursion
// limit for binary input (kBinaryRecursionLimit) and deterministic binary output (SerializeBinary).
//
// It never looks at test_name: every case is handled the same way, so a failure is the runtime's.
//
// Build with ./build, regenerate generated/ with ./generate; README.md has the details.

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/common.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/util/json_util.h>

#include "imwire/conformance/v1/conformance.pb.h"
#include "imwire/v1/message.pb.h"

namespace {

using imwire::conformance::v1::ConformanceRequest;
using imwire::conformance::v1::ConformanceResponse;
using imwire::conformance::v1::WireFormat;
using imwire::v1::Message;

// The one decoder option. CodedInputStream's default recursion limit is 100 nested messages, but
// the IMWire contract admits Tencent's 100 nested merger layers (the Reliability article (IMWire.docc)), and each layer costs
// three message levels (Message -> Elem -> MergerElem -> Message), about 303 in all. 320 leaves a
// little headroom while still refusing the pathological depths the limit is there for.
// SetRecursionLimit is the runtime's documented knob for exactly this (io/coded_stream.h).
constexpr int kBinaryRecursionLimit = 320;

// Replaces every ill-formed sequence in `text` by U+FFFD, so that it can go into a proto3 `string`
// (the protocol's error strings must be valid UTF-8). The runtime's JSON errors quote the raw
// input, which may be anything. Each maximal subpart of an ill-formed sequence becomes one U+FFFD
// (Unicode §3.9, "U+FFFD Substitution of Maximal Subparts"), as browsers and ICU do.
std::string ToValidUtf8(const std::string& text) {
  static const char kReplacement[] = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(text.size());
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  size_t i = 0;
  while (i < size) {
    const unsigned char lead = bytes[i];
    if (lead < 0x80) {
      out.push_back(static_cast<char>(lead));
      ++i;
      continue;
    }
    // The sequence length and the range of the second byte, which excludes overlong forms,
    // surrogates and code points above U+10FFFF (Unicode Table 3-7).
    size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    }
    if (length == 0) {  // a continuation byte or a byte that never appears in UTF-8
      out += kReplacement;
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < i + length && end < size) {
      const unsigned char next = bytes[end];
      const bool fits = end == i + 1 ? (next >= low && next <= high) : (next >= 0x80 && next <= 0xBF);
      if (!fits) break;
      ++end;
    }
    if (end == i + length) {
      out.append(text, i, length);
    } else {
      out += kReplacement;
    }
    i = end;
  }
  return out;
}

// What the runtime logged at ERROR level while handling the current request. Binary parsing
// returns only false; the one reason it gives, for a string field that is not valid UTF-8, goes to
// the log, so it is collected here and appended to the parse_error.
std::string g_logged_errors;

// The runtime's default log handler writes "[libprotobuf LEVEL file:line] message"; one shorter line
// per record keeps the stderr the runner attaches to each case readable. stdout is never touched: it
// carries the frames.
void LogToStderr(google::protobuf::LogLevel level, const char* /*filename*/, int /*line*/,
                 const std::string& message) {
  static const char* const kLevels[] = {"INFO", "WARNING", "ERROR", "FATAL"};
  const char* name = level >= 0 && level <= 3 ? kLevels[level] : "LOG";
  std::fprintf(stderr, "libprotobuf %s: %s\n", name, message.c_str());
  if (level >= google::protobuf::LOGLEVEL_ERROR) {
    if (!g_logged_errors.empty()) g_logged_errors += "; ";
    g_logged_errors += message;
  }
}

// Decodes binary input the way ParseFromString does, but through a CodedInputStream so that the
// recursion limit can be raised. ParseFromCodedStream stops without error at an END_GROUP tag it
// did not open; ParseFromString then fails because the input was not consumed, and so does this.
bool ParseBinary(const std::string& payload, Message* message) {
  google::protobuf::io::ArrayInputStream stream(payload.data(), static_cast<int>(payload.size()));
  google::protobuf::io::CodedInputStream input(&stream);
  input.SetRecursionLimit(kBinaryRecursionLimit);
  return message->ParseFromCodedStream(&input) && input.ConsumedEntireMessage();
}

// SerializeToString with deterministic serialization, the C++ spelling of Python's
// SerializeToString(deterministic=True) in Tests/Conformance/testees/python/testee.py. Without it the runtime writes
// map entries in the iteration order of its hash map, which is seeded per map instance (from the
// map's address and, on x86-64, rdtsc: google/protobuf/map.h, InnerMap::Seed), so the same input
// gives a different byte order from run to run and the suite's results would not be reproducible.
// Deterministic mode sorts map entries by key (std::string order, i.e. by UTF-8 bytes) and changes
// nothing else.
bool SerializeBinary(const Message& message, std::string* out) {
  google::protobuf::io::StringOutputStream stream(out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  // The destructors of `coded` and `stream` trim `out` to the bytes written.
  return message.SerializeToCodedStream(&coded) && !coded.HadError();
}

ConformanceResponse Handle(const ConformanceRequest& request) {
  ConformanceResponse response;
  if (request.payload_case() == ConformanceRequest::kTimRestPayload ||
      request.requested_output_format() == imwire::conformance::v1::WIRE_FORMAT_TIM_REST) {
    response.set_skipped("the C++ protobuf runtime has no tim-rest dialect");
    return response;
  }
  if (!request.validation_profile().empty()) {
    response.set_skipped("the C++ protobuf runtime has no IMWire validation profiles");
    return response;
  }

  const WireFormat output = request.requested_output_format();
  if (output != imwire::conformance::v1::WIRE_FORMAT_BINARY && output != imwire::conformance::v1::WIRE_FORMAT_JSON) {
    response.set_runtime_error("unsupported requested_output_format " + std::to_string(output));
    return response;
  }

  Message message;
  switch (request.payload_case()) {
    case ConformanceRequest::kBinaryPayload:
      g_logged_errors.clear();
      if (!ParseBinary(request.binary_payload(), &message)) {
        std::string error = "unclassified: ParseFromCodedStream failed to parse imwire.v1.Message";
        if (!g_logged_errors.empty()) error += ": " + g_logged_errors;
        response.set_parse_error(ToValidUtf8(error));
        return response;
      }
      break;
    case ConformanceRequest::kJsonPayload: {
      // Default options, but for the one the request carries: ignoring unknown fields.
      google::protobuf::util::JsonParseOptions options;
      options.ignore_unknown_fields = request.json_ignore_unknown_fields();
      const auto status = google::protobuf::util::JsonStringToMessage(request.json_payload(), &message, options);
      if (!status.ok()) {
        response.set_parse_error("unclassified: " + ToValidUtf8(status.ToString()));
        return response;
      }
      break;
    }
    default:
      response.set_runtime_error("the request has no payload");
      return response;
  }

  if (output == imwire::conformance::v1::WIRE_FORMAT_BINARY) {
    std::string out;
    if (SerializeBinary(message, &out)) {
      response.set_binary_payload(std::move(out));
    } else {
      response.set_serialize_error("unclassified: SerializeToCodedStream failed");
    }
  } else {
    std::string out;
    const auto status = google::protobuf::util::MessageToJsonString(message, &out);
    if (status.ok()) {
      response.set_json_payload(std::move(out));
    } else {
      response.set_serialize_error("unclassified: " + ToValidUtf8(status.ToString()));
    }
  }
  return response;
}

// Reads exactly `count` bytes; returns how many it got before end of input.
size_t ReadExactly(char* buffer, size_t count) {
  size_t got = 0;
  while (got < count) {
    const size_t n = std::fread(buffer + got, 1, count - got, stdin);
    if (n == 0) break;
    got += n;
  }
  return got;
}

bool WriteFrame(const ConformanceResponse& response) {
  std::string body;
  if (!response.SerializeToString(&body)) return false;
  const uint32_t length = static_cast<uint32_t>(body.size());
  const unsigned char prefix[4] = {
      static_cast<unsigned char>(length), static_cast<unsigned char>(length >> 8),
      static_cast<unsigned char>(length >> 16), static_cast<unsigned char>(length >> 24)};
  return std::fwrite(prefix, 1, 4, stdout) == 4 &&
         std::fwrite(body.data(), 1, body.size(), stdout) == body.size() && std::fflush(stdout) == 0;
}

}  // namespace

int main() {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  google::protobuf::SetLogHandler(&LogToStderr);

  while (true) {
    unsigned char prefix[4];
    const size_t got = ReadExactly(reinterpret_cast<char*>(prefix), 4);
    if (got == 0) return 0;
    if (got < 4) {
      std::fprintf(stderr, "imwire-testee-cpp: end of input inside a length prefix\n");
      return 1;
    }
    const uint32_t length = static_cast<uint32_t>(prefix[0]) | static_cast<uint32_t>(prefix[1]) << 8 |
                            static_cast<uint32_t>(prefix[2]) << 16 | static_cast<uint32_t>(prefix[3]) << 24;
    std::string frame(length, '\0');
    if (ReadExactly(&frame[0], length) < length) {
      std::fprintf(stderr, "imwire-testee-cpp: end of input inside a request frame\n");
      return 1;
    }

    ConformanceResponse response;
    ConformanceRequest request;
    if (!request.ParseFromString(frame)) {
      response.set_runtime_error("the request frame is not a ConformanceRequest");
    } else {
      try {
        response = Handle(request);
      } catch (const std::exception& error) {  // a bug here must not end the session: report it, go on
        response.Clear();
        response.set_runtime_error("imwire-testee-cpp: " + ToValidUtf8(error.what()));
      }
    }
    if (!WriteFrame(response)) {
      std::fprintf(stderr, "imwire-testee-cpp: cannot write a response to stdout\n");
      return 1;
    }
  }
}
