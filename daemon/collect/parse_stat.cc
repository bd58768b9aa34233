#include "daemon/collect/parse_stat.hh"

#include <charconv>
#include <string>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

// Linux has printed user, nice, system and idle since the beginning.
constexpr int kMinCpuColumns = 4;

void ParseCpuTimes(std::string_view rest, CpuTimes& times, std::string_view source,
                   int line) {
  times.fill(0);
  int n = scan::ReadNumbers(rest, times);
  if (n < 0) scan::ThrowAt(source, line, "cpu times must be unsigned integers");
  if (n < kMinCpuColumns) {
    scan::ThrowAt(source, line, "cpu line has " + std::to_string(n) +
                                    " numbers; expected at least 4");
  }
}

uint64_t ParseSingle(std::string_view rest, std::string_view source, int line) {
  uint64_t v = 0;
  if (scan::NextU64(rest, v) != scan::Num::kOk) {
    scan::ThrowAt(source, line, "expected an unsigned integer");
  }
  return v;
}

// "cpu12 ..." -> 12; the word is known to start with "cpu" and a digit.
int ParseCoreId(std::string_view word, std::string_view source, int line) {
  int id = 0;
  const char* end = word.data() + word.size();
  auto [ptr, ec] = std::from_chars(word.data() + 3, end, id);
  if (ec != std::errc() || ptr != end) {
    scan::ThrowAt(source, line, "bad cpu name '" + std::string(word) + "'");
  }
  return id;
}

}  // namespace

void ParseStat(std::string_view text, StatSnapshot& out, std::string_view source) {
  out.has_total = false;
  out.total.fill(0);
  out.cores.clear();
  out.ctxt = 0;
  out.processes = 0;
  scan::Lines lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view rest = line;
    std::string_view key = scan::NextWord(rest);
    if (key.starts_with("cpu")) {
      if (key.size() == 3) {
        ParseCpuTimes(rest, out.total, source, lines.number());
        out.has_total = true;
      } else if (scan::IsDigit(key[3])) {
        CoreTimes& core = out.cores.emplace_back();
        core.id = ParseCoreId(key, source, lines.number());
        ParseCpuTimes(rest, core.times, source, lines.number());
      }
    } else if (key == "ctxt") {
      out.ctxt = ParseSingle(rest, source, lines.number());
    } else if (key == "processes") {
      out.processes = ParseSingle(rest, source, lines.number());
    }
  }
}

}  // namespace pm
