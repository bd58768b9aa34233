#include "daemon/collect/parse_schedstat.hh"

#include <array>
#include <charconv>
#include <string>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

// A cpuN line's numbers up to run_delay and pcount (every version has 9).
constexpr int kCpuColumns = 9;
constexpr int kRunColumn = 6, kWaitColumn = 7;  // 0-based: the 7th and 8th

int ParseVersion(std::string_view line, std::string_view source) {
  std::string_view rest = line;
  uint64_t v = 0;
  if (scan::NextWord(rest) != "version" || scan::NextU64(rest, v) != scan::Num::kOk)
    scan::ThrowAt(source, 1, "expected \"version N\" as the first line");
  if (v < kSchedstatMinVersion || v > kSchedstatMaxVersion)
    scan::ThrowAt(source, 1, "schedstat version " + std::to_string(v) +
                                 " is not one this perfmonger reads (15 to 17)");
  return static_cast<int>(v);
}

int ParseCpuId(std::string_view word, std::string_view source, int line) {
  int id = 0;
  const char* end = word.data() + word.size();
  auto [ptr, ec] = std::from_chars(word.data() + 3, end, id);
  if (ec != std::errc() || ptr != end)
    scan::ThrowAt(source, line, "bad cpu name '" + std::string(word) + "'");
  return id;
}

void ParseCpuLine(std::string_view word, std::string_view rest, SchedstatSnapshot& out,
                  std::string_view source, int line) {
  std::array<uint64_t, kCpuColumns> numbers{};
  int n = scan::ReadNumbers(rest, numbers);
  if (n < 0) scan::ThrowAt(source, line, "cpu counters must be unsigned integers");
  if (n < kCpuColumns)
    scan::ThrowAt(source, line, "cpu line has " + std::to_string(n) +
                                    " numbers; expected at least 9");
  SchedstatCpu& cpu = out.cpus.emplace_back();
  cpu.id = ParseCpuId(word, source, line);
  cpu.run_ns = numbers[kRunColumn];
  cpu.wait_ns = numbers[kWaitColumn];
}

}  // namespace

void ParseSchedstat(std::string_view text, SchedstatSnapshot& out, std::string_view source) {
  out.version = 0;
  out.cpus.clear();
  scan::Lines lines(text);
  std::string_view line;
  if (!lines.Next(line)) scan::ThrowAt(source, 1, "empty; expected \"version N\"");
  out.version = ParseVersion(line, source);
  while (lines.Next(line)) {
    std::string_view rest = line;
    std::string_view word = scan::NextWord(rest);
    if (word.size() > 3 && word.starts_with("cpu") && scan::IsDigit(word[3]))
      ParseCpuLine(word, rest, out, source, lines.number());
  }
}

}  // namespace pm
