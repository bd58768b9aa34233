#include "daemon/collect/parse_process.hh"

#include <string>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

// Field `n` (proc(5) numbering) of the words after comm, which are fields
// 3, 4, ...: reads words up to it. Returns false if the line ends first.
struct StatFields {
  std::string_view rest;
  int at = 2;  // the field last read

  bool Word(int n, std::string_view& word) {
    while (at < n) {
      word = scan::NextWord(rest);
      if (word.empty()) return false;
      ++at;
    }
    return true;
  }
};

uint64_t Number(std::string_view word, std::string_view source, int field, bool is_signed) {
  if (is_signed && word.starts_with('-')) return 0;
  uint64_t v = 0;
  if (scan::NextU64(word, v) != scan::Num::kOk || !word.empty())
    scan::ThrowAt(source, 1, "field " + std::to_string(field) + " is not a number");
  return v;
}

// The fields after comm: from its last ')' to the end of that line. comm
// is bytes the process chose (prctl(PR_SET_NAME)), newlines included, so
// the line ends only after it.
std::string_view AfterComm(std::string_view text) {
  size_t paren = text.rfind(')');
  if (paren == std::string_view::npos) return {};
  std::string_view rest = text.substr(paren + 1);
  return rest.substr(0, rest.find('\n'));
}

}  // namespace

void ParseProcStat(std::string_view text, ProcStat& out, std::string_view source) {
  if (text.rfind(')') == std::string_view::npos) scan::ThrowAt(source, 1, "no '(comm)'");
  StatFields f{AfterComm(text)};
  struct Want { int field; uint64_t ProcStat::*to; bool is_signed; };
  static constexpr Want kWanted[] = {
      {4, &ProcStat::ppid, false}, {10, &ProcStat::minflt, false}, {12, &ProcStat::majflt, false},
      {14, &ProcStat::utime, false},  {15, &ProcStat::stime, false},
      {16, &ProcStat::cutime, true},  {17, &ProcStat::cstime, true},
      {20, &ProcStat::num_threads, false},
      {22, &ProcStat::start_ticks, false}, {24, &ProcStat::rss_pages, true},
  };
  for (const Want& w : kWanted) {
    std::string_view word;
    if (!f.Word(w.field, word))
      scan::ThrowAt(source, 1, "fewer than " + std::to_string(w.field) + " fields");
    out.*w.to = Number(word, source, w.field, w.is_signed);
  }
}

std::string_view ProcStatComm(std::string_view text) {
  size_t open = text.find('('), close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return {};
  return text.substr(open + 1, close - open - 1);
}

void ParseProcIo(std::string_view text, ProcIo& out, std::string_view source) {
  struct Key { std::string_view name; uint64_t ProcIo::*to; };
  static constexpr Key kKeys[] = {
      {"rchar:", &ProcIo::rchar}, {"wchar:", &ProcIo::wchar},
      {"syscr:", &ProcIo::syscr}, {"syscw:", &ProcIo::syscw},
      {"read_bytes:", &ProcIo::read_bytes}, {"write_bytes:", &ProcIo::write_bytes},
  };
  out = ProcIo{};
  scan::Lines lines(text);
  for (std::string_view line; lines.Next(line);) {
    std::string_view key = scan::NextWord(line);
    for (const Key& k : kKeys) {
      if (k.name != key) continue;
      uint64_t v = 0;
      if (scan::NextU64(line, v) != scan::Num::kOk)
        scan::ThrowAt(source, lines.number(),
                      "expected an unsigned integer after '" + std::string(key) + "'");
      out.*k.to = v;
    }
  }
}

void ParseSchedstat(std::string_view text, Schedstat& out, std::string_view source) {
  text = text.substr(0, text.find('\n'));
  uint64_t v[3] = {};
  if (scan::ReadNumbers(text, v) < 2)
    scan::ThrowAt(source, 1, "expected two numbers (run and wait ns)");
  out.run_ns = v[0];
  out.wait_ns = v[1];
  out.slices = v[2];
}

}  // namespace pm
