#include "daemon/collect/parse_loadavg.hh"

#include <string>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

// "12.34" -> 1234: the integer part, then at most two decimals (a third
// would be dropped; the kernel prints two).
bool ParseHundredths(std::string_view word, uint64_t& out) {
  size_t dot = word.find('.');
  std::string_view whole = word.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? "" : word.substr(dot + 1);
  uint64_t units = 0;
  if (scan::NextU64(whole, units) != scan::Num::kOk || !whole.empty() || units > UINT64_MAX / 100)
    return false;
  uint64_t cents = 0;
  for (size_t i = 0; i < 2; ++i) {
    if (i < frac.size() && !scan::IsDigit(frac[i])) return false;
    cents = cents * 10 + (i < frac.size() ? static_cast<uint64_t>(frac[i] - '0') : 0);
  }
  for (char c : frac)
    if (!scan::IsDigit(c)) return false;
  out = units * 100 + cents;
  return true;
}

}  // namespace

void ParseLoadavg(std::string_view text, LoadValues& out, std::string_view source) {
  std::string_view rest = text;
  for (size_t i = 0; i < 3; ++i)
    if (!ParseHundredths(scan::NextWord(rest), out[i]))
      scan::ThrowAt(source, 1, "expected three load averages such as 0.52");
  std::string_view queue = scan::NextWord(rest);
  size_t slash = queue.find('/');
  std::string_view runnable = queue.substr(0, slash);
  std::string_view threads = slash == std::string_view::npos ? "" : queue.substr(slash + 1);
  if (scan::NextU64(runnable, out[3]) != scan::Num::kOk || !runnable.empty() ||
      scan::NextU64(threads, out[4]) != scan::Num::kOk || !threads.empty())
    scan::ThrowAt(source, 1, "expected runnable/threads such as 2/1234 after the averages");
}

void ParseProcsLines(std::string_view text, LoadValues& out, std::string_view source) {
  out[5] = out[6] = 0;
  scan::Lines lines(text);
  for (std::string_view line; lines.Next(line);) {
    if (!line.starts_with("procs_")) continue;
    std::string_view rest = line;
    std::string_view key = scan::NextWord(rest);
    size_t field = key == "procs_running" ? 5 : key == "procs_blocked" ? 6 : 0;
    if (field == 0) continue;
    if (scan::NextU64(rest, out[field]) != scan::Num::kOk)
      scan::ThrowAt(source, lines.number(), "expected a number after " + std::string(key));
  }
}

}  // namespace pm
