#include "playback/outputs/proc_top_rows.hh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "playback/outputs/proc_table_json.hh"
#include "playback/reports/table_cells.hh"
#include "proto/text.hh"

namespace pm {
namespace {

constexpr std::string_view kHeader = "    PID USER      %CPU  READ/s WRITE/s    RSS COMMAND";
constexpr std::string_view kLabelColor = "\033[1m", kReset = "\033[0m";

// The `n` rows that used the most CPU, busiest first.
std::vector<const ProcTableRow*> Busiest(const ProcTableEvent& e, size_t n) {
  std::vector<const ProcTableRow*> rows;
  for (const ProcTableRow& r : e.rows) rows.push_back(&r);
  auto busier = [](const ProcTableRow* a, const ProcTableRow* b) {
    return a->cpu_ns != b->cpu_ns ? a->cpu_ns > b->cpu_ns : a->pid < b->pid;
  };
  const size_t k = std::min(n, rows.size());
  std::partial_sort(rows.begin(), rows.begin() + static_cast<ptrdiff_t>(k), rows.end(), busier);
  rows.resize(k);
  return rows;
}

// `line` cut to `width` columns (0: no limit), not inside a UTF-8 character.
void AppendCut(std::string& out, std::string_view line, size_t width) {
  if (width != 0 && line.size() > width) {
    size_t cut = width;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    line = line.substr(0, cut);
  }
  out.append(line).push_back('\n');
}

// An 8-column user name; a longer one ends in '+', as top shows it.
std::string UserCell(const UserNames& users, uint32_t uid) {
  std::string name = Printable(users.Name(uid));
  if (name.size() > 8) name = name.substr(0, 7) + "+";
  return name;
}

std::string RowText(const ProcTableRow& r, int64_t interval_ns, const UserNames& users) {
  const ProcRowRates rates = RatesOf(r, interval_ns);
  char head[64];
  std::snprintf(head, sizeof head, "%7u %-8s %6.1f ", r.pid, UserCell(users, r.uid).c_str(),
                rates.cpu);
  std::string line = head;
  AppendCell(line, rates.rkbyteps ? *rates.rkbyteps * 1024 : std::nan(""), LiveUnit::kBytes, 7);
  line.push_back(' ');
  AppendCell(line, rates.wkbyteps ? *rates.wkbyteps * 1024 : std::nan(""), LiveUnit::kBytes, 7);
  line.push_back(' ');
  AppendCell(line, static_cast<double>(r.rss_kb) * 1024, LiveUnit::kBytes, 6);
  line.push_back(' ');
  AppendPrintable(line, r.comm);
  return line;
}

}  // namespace

size_t AppendProcTopRows(std::string& out, const ProcTableEvent& e, int64_t mono_ns, size_t n,
                         const UserNames& users, const TableStyle& style) {
  std::vector<const ProcTableRow*> rows = Busiest(e, n);
  if (rows.empty()) return 0;
  if (style.color) out.append(kLabelColor);
  AppendCut(out, kHeader, style.width);
  if (style.color) out.insert(out.size() - 1, kReset);
  const int64_t interval_ns = mono_ns - e.since_mono_ns;
  for (const ProcTableRow* r : rows) AppendCut(out, RowText(*r, interval_ns, users), style.width);
  return rows.size() + 1;
}

}  // namespace pm
