#include "playback/reading/joined_input.hh"

#include <fcntl.h>

#include <algorithm>
#include <optional>
#include <charconv>
#include <filesystem>
#include <utility>

#include "common/error.hh"
#include "common/io.hh"
#include "playback/reading/line_reader.hh"
#include "proto/codec.hh"
#include "proto/pgr_format.hh"

namespace pm {
namespace {

// The integer after `"key":` (its first occurrence), if any.
std::optional<int64_t> FieldInt(std::string_view line, std::string_view key) {
  std::string pattern(1, '"');
  pattern.append(key).append("\":");
  size_t at = line.find(pattern);
  if (at == std::string_view::npos) return std::nullopt;
  const char* begin = line.data() + at + pattern.size();
  int64_t value = 0;
  auto [end, ec] = std::from_chars(begin, line.data() + line.size(), value);
  if (ec != std::errc()) return std::nullopt;
  return value;
}

// `text` without the figures of its "resolution_ns" keys.
std::string WithoutResolutions(std::string text) {
  static constexpr std::string_view kKey = "\"resolution_ns\":";
  for (size_t at = text.find(kKey); at != std::string::npos; at = text.find(kKey, at + 1)) {
    size_t digits = at + kKey.size();
    text.erase(digits, text.find_first_not_of("0123456789", digits) - digits);
  }
  return text;
}

// What two headers must share to join: host, version, collectors. Not a
// source's resolution: older recorders inferred cpu.stat's tick
// from its values at the start, and two files of one host may say 4 ms
// and 10 ms.
std::string HeaderShape(std::string_view header) {
  auto part = [&](std::string_view from, std::string_view to) {
    size_t a = header.find(from);
    size_t b = header.find(to, a == std::string_view::npos ? 0 : a);
    return a == std::string_view::npos ? std::string()
                                       : std::string(header.substr(a, b - a));
  };
  return WithoutResolutions(part("\"version\"", ",\"start_time\"") +
                            part("\"collectors\"", ",\"meta\""));
}

// `line` with its first "mono" moved on by `shift`.
std::string ShiftMono(std::string_view line, int64_t shift) {
  std::optional<int64_t> mono = FieldInt(line, "mono");
  if (!mono || shift == 0) return std::string(line);
  size_t at = line.find("\"mono\":") + 7;
  size_t end = line.find_first_not_of("-0123456789", at);
  return std::string(line.substr(0, at)) + std::to_string(*mono + shift) +
         std::string(line.substr(end));
}

bool IsRecordingName(const std::string& name) {
  return name.ends_with(".pgr") || name.ends_with(".pgr.gz") || name.ends_with(".pgr.zst");
}

}  // namespace

struct JoinedFile {
  explicit JoinedFile(const std::string& p)
      : path(p), fd(OpenAt(AT_FDCWD, p, O_RDONLY)), raw(fd.Get()),
        decompressed(MakeDecompressor(raw)), lines(*decompressed) {}
  std::string path;
  UniqueFd fd;
  FdInputStream raw;
  std::unique_ptr<DecompressingInput> decompressed;
  LineReader lines;
};

std::vector<std::string> OrderRecordings(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    if (!std::filesystem::is_directory(p)) {
      files.push_back(p);
      continue;
    }
    for (const auto& e : std::filesystem::directory_iterator(p))
      if (e.is_regular_file() && IsRecordingName(e.path().filename().string()))
        files.push_back(e.path().string());
  }
  std::vector<std::pair<int64_t, std::string>> started;
  for (const std::string& f : files) {
    JoinedFile file(f);
    std::optional<std::string_view> header = file.lines.Next();
    if (!header) continue;  // nothing flushed yet
    if (!header->starts_with("{"))
      throw FormatError(f + ": a PerfMonger 1.0 recording joins no other; read it alone");
    started.emplace_back(FieldInt(*header, "start_ns").value_or(0), f);
  }
  std::sort(started.begin(), started.end());
  std::vector<std::string> ordered;
  for (auto& [start, f] : started) ordered.push_back(std::move(f));
  return ordered;
}

JoinedInput::JoinedInput(std::vector<std::string> paths) : paths_(std::move(paths)) {}
JoinedInput::~JoinedInput() = default;

int JoinedInput::last_fd() const { return file_ ? file_->fd.Get() : -1; }

size_t JoinedInput::Read(std::span<char> buf) {
  while (out_at_ == out_.size()) {
    out_.clear();
    out_at_ = 0;
    if (!Produce()) return 0;
  }
  size_t n = std::min(buf.size(), out_.size() - out_at_);
  std::copy_n(out_.data() + out_at_, n, buf.data());
  out_at_ += n;
  return n;
}

bool JoinedInput::Produce() {
  for (;;) {
    if (file_) {
      if (std::optional<std::string_view> line = file_->lines.Next()) {
        TakeLine(*line);
        if (!out_.empty()) return true;
        continue;
      }
      // The last file's cut is the stream's: its partial line goes on.
      if (next_ == paths_.size()) return false;
    }
    if (next_ == paths_.size()) return false;
    OpenNext();
  }
}

void JoinedInput::OpenNext() {
  file_ = std::make_unique<JoinedFile>(paths_[next_++]);
  first_in_file_ = true;
  line_in_file_ = 0;
}

void JoinedInput::TakeLine(std::string_view line) {
  ++line_in_file_;
  bool first_file = next_ == 1, last_file = next_ == paths_.size();
  if (line_in_file_ == 1) {  // the header
    if (first_file) {
      first_header_shape_ = HeaderShape(line);
      out_.append(line).push_back('\n');
    } else if (HeaderShape(line) != first_header_shape_) {
      throw FormatError(file_->path + " records another host, format or set of collectors "
                        "and devices than " + paths_[0] + ": read them apart");
    }
    return;
  }
  if (line.starts_with("{\"event\":\"end\"")) {
    end_t_ = FieldInt(line, "t").value_or(0);
    end_mono_ = FieldInt(line, "mono").value_or(0);
    chained_ = line.find("\"reason\":\"rotate\"") != std::string_view::npos ||
               line.find("\"reason\":\"reopen\"") != std::string_view::npos;
    if (last_file) out_.append(ShiftMono(line, mono_shift_)).push_back('\n');
    return;
  }
  bool keyframe = line.starts_with("{\"t\":");
  if (keyframe && first_in_file_ && !first_file) return JoinFirstSample(line);
  if (keyframe || line.starts_with("{\"d\":1,")) {
    int64_t t = FieldInt(line, "t").value_or(0), mono = FieldInt(line, "mono").value_or(0);
    last_t_ = keyframe ? t : last_t_ + t;
    last_mono_ = keyframe ? mono + mono_shift_ : last_mono_ + mono;
    have_sample_ = true;
    first_in_file_ = false;
  }
  out_.append(keyframe || line.starts_with("{\"event\"") ? ShiftMono(line, mono_shift_)
                                                         : std::string(line));
  out_.push_back('\n');
}

// A rotation's sample is given once; anything else is a gap, paused over.
void JoinedInput::JoinFirstSample(std::string_view line) {
  int64_t t = FieldInt(line, "t").value_or(0), mono = FieldInt(line, "mono").value_or(0);
  first_in_file_ = false;
  bool same = chained_ && t == end_t_ && mono == end_mono_ && t == last_t_;
  chained_ = false;
  if (same) return;
  if (have_sample_ && mono + mono_shift_ <= last_mono_)  // a reboot: go on from the wall gap
    mono_shift_ = last_mono_ + std::max<int64_t>(t - last_t_, 1) - mono;
  if (have_sample_) {
    out_ += EncodeEventLine("pause", last_t_, last_mono_);
    out_ += EncodeEventLine("resume", t, mono + mono_shift_);
    gaps_.push_back("no data from " + FormatRfc3339(last_t_) + " to " + FormatRfc3339(t) +
                    " (before " + file_->path + "): no rate spans the gap");
  }
  last_t_ = t;
  last_mono_ = mono + mono_shift_;
  have_sample_ = true;
  out_.append(ShiftMono(line, mono_shift_)).push_back('\n');
}

}  // namespace pm
