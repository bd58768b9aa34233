#include "bench/recording.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "bench/stats.hh"
#include "common/unique_fd.hh"
#include "playback/reading/delta_decoder.hh"
#include "playback/reading/line_reader.hh"
#include "proto/codec.hh"

namespace pm::bench {
namespace {

class FdInput final : public InputStream {
 public:
  explicit FdInput(int fd) : fd_(fd) {}
  size_t Read(std::span<char> buf) override {
    for (;;) {
      ssize_t n = ::read(fd_, buf.data(), buf.size());
      if (n >= 0) return static_cast<size_t>(n);
      if (errno != EINTR) throw std::runtime_error(std::string("read: ") + std::strerror(errno));
    }
  }

 private:
  int fd_;
};

// `"key":` (appending, not operator+: GCC 12 warns -Wrestrict on that).
std::string Needle(std::string_view key) {
  std::string needle;
  needle.reserve(key.size() + 4);
  needle.append(1, '"').append(key).append("\":");
  return needle;
}

// The integer after `"key":` in a JSON line, if present.
bool IntField(std::string_view line, std::string_view key, int64_t* out) {
  std::string needle = Needle(key);
  size_t at = line.find(needle);
  if (at == std::string_view::npos) return false;
  *out = std::strtoll(line.data() + at + needle.size(), nullptr, 10);
  return true;
}

std::string StringField(std::string_view line, std::string_view key) {
  std::string needle = Needle(key) + '"';
  size_t at = line.find(needle);
  if (at == std::string_view::npos) return {};
  size_t begin = at + needle.size();
  return std::string(line.substr(begin, line.find('"', begin) - begin));
}

}  // namespace

RecordingInfo ReadRecording(const std::string& path) {
  int raw = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw < 0) throw std::runtime_error(path + ": " + std::strerror(errno));
  UniqueFd fd = UniqueFd::Adopt(raw);
  struct stat st;
  if (fstat(fd.Get(), &st) != 0) throw std::runtime_error(path + ": fstat failed");

  RecordingInfo info;
  info.file_bytes = static_cast<uint64_t>(st.st_size);
  FdInput file(fd.Get());
  std::unique_ptr<DecompressingInput> input = MakeDecompressor(file);
  LineReader lines(*input);
  DeltaDecoder v2;  // v1 lines pass through
  bool header = true;
  while (std::optional<std::string_view> line = lines.Next()) {
    if (header) {  // line 1
      header = false;
      continue;
    }
    if (line->find("\"event\":") != std::string_view::npos) {
      if (StringField(*line, "event") != "end") continue;
      int64_t v = 0;
      info.has_end = true;
      info.end_reason = StringField(*line, "reason");
      if (IntField(*line, "samples", &v)) info.end_samples = static_cast<uint64_t>(v);
      if (IntField(*line, "missed_ticks", &v)) info.end_missed_ticks = static_cast<uint64_t>(v);
      continue;
    }
    int64_t mono = 0;
    if (!IntField(v2.Decode(*line), "mono", &mono))
      throw std::runtime_error(path + ": sample line " + std::to_string(lines.line_number()) +
                               " has no \"mono\"");
    info.mono_ns.push_back(mono);
  }
  info.truncated = input->truncated() || lines.partial_tail();
  return info;
}

Jitter IntervalJitter(const std::vector<int64_t>& mono_ns, int64_t interval_ns) {
  Jitter j;
  if (mono_ns.size() < 3) return j;
  std::vector<double> dev;
  for (size_t k = 1; k + 1 < mono_ns.size(); ++k) {
    int64_t scheduled = mono_ns[0] + static_cast<int64_t>(k) * interval_ns;
    dev.push_back(static_cast<double>(std::llabs(mono_ns[k] - scheduled)));
  }
  j.count = dev.size();
  j.p99_ns = Percentile(dev, 99);
  j.max_ns = Percentile(dev, 100);
  return j;
}

}  // namespace pm::bench
