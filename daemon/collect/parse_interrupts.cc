#include "daemon/collect/parse_interrupts.hh"

#include <charconv>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

void ParseHeader(std::string_view line, std::vector<int>& cpus, std::string_view source) {
  cpus.clear();
  for (std::string_view word = scan::NextWord(line); !word.empty();
       word = scan::NextWord(line)) {
    int id = -1;
    const char* end = word.data() + word.size();
    bool ok = word.starts_with("CPU");
    if (ok) {
      auto [ptr, ec] = std::from_chars(word.data() + 3, end, id);
      ok = ec == std::errc() && ptr == end;
    }
    if (!ok) {
      scan::ThrowAt(source, 1, "expected CPU column names like 'CPU0', got '" +
                                   std::string(word) + "'");
    }
    cpus.push_back(id);
  }
  if (cpus.empty()) scan::ThrowAt(source, 1, "no CPU column names in the header line");
}

void ParseRow(std::string_view line, Interrupts& out, std::string_view source, int number) {
  size_t colon = line.find(':');
  std::string_view name = colon == std::string_view::npos
                              ? std::string_view()
                              : scan::TrimBlanks(line.substr(0, colon));
  if (name.empty()) scan::ThrowAt(source, number, "expected 'label: counts'");
  std::string_view rest = line.substr(colon + 1);
  size_t first = out.counts.size();
  out.counts.resize(first + out.cpus.size(), 0);
  for (size_t i = 0; i < out.cpus.size(); ++i) {
    // The first word that is not a number starts the description.
    if (scan::NextU64(rest, out.counts[first + i]) != scan::Num::kOk) break;
  }
  out.rows.push_back(IntrRow{name, scan::TrimBlanks(rest)});
}

}  // namespace

void ParseInterrupts(std::string_view text, Interrupts& out, std::string_view source) {
  out.rows.clear();
  out.counts.clear();
  scan::Lines lines(text);
  std::string_view line;
  if (!lines.Next(line)) scan::ThrowAt(source, 1, "empty file; expected a CPU header line");
  ParseHeader(line, out.cpus, source);
  while (lines.Next(line)) {
    if (scan::TrimBlanks(line).empty()) continue;
    ParseRow(line, out, source, lines.number());
  }
}

std::string CollapseBlanks(std::string_view descr) {
  std::string out;
  out.reserve(descr.size());
  descr = scan::TrimBlanks(descr);
  for (std::string_view word = scan::NextWord(descr); !word.empty();
       word = scan::NextWord(descr)) {
    if (!out.empty()) out.push_back(' ');
    out.append(word);
  }
  return out;
}

}  // namespace pm
