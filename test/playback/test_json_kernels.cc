// The executable is built for any x86-64 and simdjson picks its kernel at
// run time: every kernel this CPU can run (fallback included, what a CPU
// without AVX2 gets) must read a recording the same, and refuse the same
// corrupt lines.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/native_reader.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/damage.hh"

using namespace pm;
using namespace pm::test;

namespace {

// Every item of `text` dumped, or the error.
std::string ReadAll(const std::string& text) {
  MemoryInputStream in(text);
  std::string out;
  try {
    NativeReader reader(in);
    RawSample sample;
    RecordingEvent event;
    for (RecordingReader::Item item; (item = reader.Next(sample, event)) != RecordingReader::Item::kEnd;)
      out += item == RecordingReader::Item::kSample ? Dump(sample) : Dump(event);
    if (!reader.warnings().empty()) out += "error: " + FirstDamage(reader.warnings());
  } catch (const FormatError& e) {
    out += std::string("error: ") + e.what();
  }
  return out;
}

// Sets simdjson's kernel for the parsers created in this scope.
class Kernel {
 public:
  explicit Kernel(const simdjson::implementation* k)
      : saved_(simdjson::get_active_implementation()) {
    simdjson::get_active_implementation() = k;
  }
  ~Kernel() { simdjson::get_active_implementation() = saved_; }

 private:
  const simdjson::implementation* saved_;
};

}  // namespace

TEST_SUITE("json reader") {

TEST_CASE("every kernel this CPU runs reads the same and refuses the same") {
  Shape shape;
  std::string good = EncodeHeaderLine(Header(shape, {{"k\xc3\xa9y", "v\\\"al"}}));
  for (uint64_t k = 0; k < 3; ++k) good += SampleLine(MakeSample(shape, k));
  good += "{\"event\":\"mark\",\"t\":9,\"label\":\"\\u00e9\\ud83d\\ude00\"}\n";
  const std::vector<std::string> texts = {
      good,
      good + "{\"t\":1,\"cpu\":[[1,2]]}\n",
      good + "{\"t\":01}\n",
      good + "{\"t\":1,\"x\":\"\xff\"}\n",
      good + "{\"t\":1,,}\n",
      good + std::string(70, '[') + std::string(70, ']') + "\n",
  };
  std::vector<std::string> want;
  for (const std::string& t : texts) want.push_back(ReadAll(t));
  CHECK(want[0].find("error") == std::string::npos);
  for (size_t i = 1; i < want.size(); ++i) CHECK(want[i].find("error: pgr line 6") != std::string::npos);
  int kernels = 0;
  for (const simdjson::implementation* k : simdjson::get_available_implementations()) {
    if (!k->supported_by_runtime_system()) continue;
    CAPTURE(k->name());
    Kernel use(k);
    ++kernels;
    for (size_t i = 0; i < texts.size(); ++i) CHECK(ReadAll(texts[i]) == want[i]);
  }
  CHECK(kernels >= 2);  // fallback and at least one SIMD kernel on x86-64
}

}  // TEST_SUITE
