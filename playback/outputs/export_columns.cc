#include "playback/outputs/export_columns.hh"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "proto/json.hh"

namespace pm {
namespace {

constexpr uint64_t kNaN = 0x7ff8000000000000;  // a quiet NaN: an empty cell

// A cell of play's fixed-point form (-?D+(.D{1,15})?, at most 15 digits in
// all) as the double nearest its decimal value, as from_chars gives it:
// the digits make an integer m < 10^15, exact in a double, and m / 10^d
// is one correctly rounded division of two exact doubles. nullopt for
// any other form.
std::optional<double> FixedCell(std::string_view cell) {
  static constexpr double kPow10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const char* p = cell.data();
  const char* end = p + cell.size();
  bool negative = p != end && *p == '-';
  p += negative;
  uint64_t m = 0;
  int digits = 0, decimals = -1;
  for (; p != end; ++p) {
    if (*p == '.' && decimals < 0) {
      decimals = 0;
      continue;
    }
    unsigned d = static_cast<unsigned>(*p - '0');
    if (d > 9 || ++digits > 15) return std::nullopt;
    m = m * 10 + d;
    decimals += decimals >= 0;
  }
  if (digits == 0 || decimals == 0) return std::nullopt;
  double v = static_cast<double>(m) / kPow10[decimals < 0 ? 0 : decimals];
  return negative ? -v : v;
}

}  // namespace

uint64_t ColumnCellBits(std::string_view cell) {
  if (cell.empty()) return kNaN;
  if (std::optional<double> fixed = FixedCell(cell)) return std::bit_cast<uint64_t>(*fixed);
  if (cell.front() == '+') cell.remove_prefix(1);  // "+Inf": from_chars takes no '+'
  double v = 0;
  auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
  if (ec != std::errc() || end != cell.data() + cell.size())
    throw std::logic_error("columns: a CSV cell is not a number: " + std::string(cell));
  return std::bit_cast<uint64_t>(v);
}

namespace {

uint64_t LittleEndian(uint64_t v) {
  if constexpr (std::endian::native == std::endian::big) return __builtin_bswap64(v);
  return v;
}

}  // namespace

// Blocks of 8 MiB: a column is read back in pieces of 8 MiB / columns.
ColumnsExport::ColumnsExport(const std::string& spool_dir) : spool_(spool_dir, 8 << 20) {}

void ColumnsExport::AppendRow(const Pair& pair) {
  text_.clear();
  csv_.AppendRow(text_, pair);
  // The row is the last CRLF-ended line (the first call writes the header
  // before it); its cells are numbers, never quoted.
  std::string_view all(text_);
  all.remove_suffix(2);
  size_t start = all.rfind("\r\n");
  ParseRow(start == std::string_view::npos ? all : all.substr(start + 2));
}

void ColumnsExport::ParseRow(std::string_view row) {
  size_t width = 2 + csv_.names().size();  // time, elapsed_time, ...
  row_.clear();
  for (;;) {
    size_t comma = row.find(',');
    row_.push_back(ColumnCellBits(row.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    row.remove_prefix(comma + 1);
  }
  if (row_.size() != width)
    throw std::logic_error("columns: a CSV row has " + std::to_string(row_.size()) +
                           " cells for " + std::to_string(width) + " columns");
  spool_.Append(row_);
}

std::string ColumnsExport::Header(const RecordingInfo& info) const {
  std::string out;
  JsonObjectWriter o(out);
  o.Str("format", "perfmonger-columns").Int("version", 1).Str("dtype", "<f8");
  o.Uint("rows", spool_.rows());
  std::string& names = o.Key("columns");
  names.push_back('[');
  if (spool_.rows() > 0) {
    names.append("\"time\",\"elapsed_time\"");
    for (const std::string& name : csv_.names()) AppendJsonString(names.append(","), name);
  }
  names.push_back(']');
  o.Str("host", info.host);
  JsonObjectWriter meta(o.Key("meta"));
  for (const auto& [key, value] : info.meta) meta.Str(key, value);
  meta.Close();
  std::string& events = o.Key("events");
  events.push_back('[');
  for (size_t i = 0; i < events_.size(); ++i) (i ? events.append(",") : events).append(events_[i]);
  events.push_back(']');
  o.Close();
  out.push_back('\n');
  return out;
}

bool ColumnsExport::AppendColumn(ColumnSpool::Cursor& cursor, std::string& out,
                                 size_t max) const {
  uint64_t piece[4096];
  bool more = true;
  while (more && out.size() < max) {
    size_t n = 0;
    for (; n < std::size(piece); ++n) {
      uint64_t v = 0;
      if (!cursor.Next(v)) {
        more = false;
        break;
      }
      piece[n] = LittleEndian(v == ColumnSpool::kAbsent ? kNaN : v);
    }
    out.append(reinterpret_cast<const char*>(piece), n * 8);
  }
  return more;
}

}  // namespace pm
