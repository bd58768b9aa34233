// The --cmd-fd decoder (proto/control_protocol.hh) on arbitrary bytes: the
// lines it decodes must not depend on how the bytes arrive (the whole input
// at once, split at points drawn from the input's hash, one byte at a
// time), and each line must keep the header's promises.
#include <cstddef>
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

#include "proto/control_protocol.hh"
#include "test/fuzz/fuzz_check.hh"

using pm::fuzz::Require;

namespace {

std::vector<pm::ParsedLine> Decode(std::string_view bytes, const std::vector<size_t>& cuts) {
  pm::CommandDecoder decoder;
  std::vector<pm::ParsedLine> out;
  size_t at = 0;
  for (size_t cut : cuts) {
    decoder.Feed(bytes.substr(at, cut - at), out);
    at = cut;
  }
  decoder.Feed(bytes.substr(at), out);
  decoder.Finish(out);
  return out;
}

// Split points in order, reproducible from the input alone.
std::vector<size_t> RandomCuts(std::string_view bytes) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  std::mt19937_64 rng(hash);
  std::vector<size_t> cuts;
  for (size_t at = 0; bytes.size() > 0;) {
    at += 1 + rng() % 17;
    if (at >= bytes.size()) break;
    cuts.push_back(at);
  }
  return cuts;
}

bool Printable(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c > 0x7e) return false;
  return true;
}

void CheckLine(const pm::ParsedLine& line, uint64_t seq) {
  Require(line.seq == seq, "sequence numbers count 1, 2, 3, ...");
  Require(line.cmd.size() <= pm::kMaxEchoedVerb, "the echoed verb is bounded");
  Require(Printable(line.cmd) && Printable(line.arg), "no bad byte is echoed");
  if (!line.error.empty()) {
    Require(line.error == "unknown_command" || line.error == "bad_argument" ||
                line.error == "bad_byte" || line.error == "line_too_long",
            "errors are the documented ones");
    Require(line.verb == pm::Verb::kNone && line.arg.empty(), "an error has no verb");
    return;
  }
  Require(line.verb != pm::Verb::kNone, "a command has a verb");
  bool mark = line.verb == pm::Verb::kMark;
  Require(mark ? !line.arg.empty() && line.arg.size() <= pm::kMaxLabel : line.arg.empty(),
          "only mark has an argument, 1..kMaxLabel bytes");
}

bool Same(const pm::ParsedLine& a, const pm::ParsedLine& b) {
  return a.seq == b.seq && a.cmd == b.cmd && a.verb == b.verb && a.arg == b.arg &&
         a.error == b.error;
}

bool Same(const std::vector<pm::ParsedLine>& a, const std::vector<pm::ParsedLine>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!Same(a[i], b[i])) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::vector<pm::ParsedLine> whole = Decode(bytes, {});
  for (size_t i = 0; i < whole.size(); ++i) CheckLine(whole[i], i + 1);
  Require(Same(whole, Decode(bytes, RandomCuts(bytes))), "split input decodes the same");
  std::vector<size_t> every;
  for (size_t at = 1; at < size && size <= 4096; ++at) every.push_back(at);
  Require(Same(whole, Decode(bytes, every)), "byte-by-byte input decodes the same");
  return 0;
}
