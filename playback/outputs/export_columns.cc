#include "playback/outputs/export_columns.hh"

#include <bit>
#include <cerrno>
#include <iterator>
#include <stdexcept>

#include "common/error.hh"
#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

constexpr uint64_t kNaN = 0x7ff8000000000000;  // a quiet NaN: an empty cell
constexpr size_t kAlign = 64;  // the header's length: a cache line, a numpy alignment

uint64_t LittleEndian(uint64_t v) {
  if constexpr (std::endian::native == std::endian::big) return __builtin_bswap64(v);
  return v;
}

}  // namespace

// Blocks of 8 MiB: a column is read back in pieces of 8 MiB / columns.
ColumnsExport::ColumnsExport(const std::string& spool_dir) : spool_(spool_dir, 8 << 20) {}

void ColumnsExport::AppendRow(const Pair& pair) {
  if (first_.empty()) {
    JsonObjectWriter first(first_);
    AppendFixed(first.Key("time"), static_cast<double>(pair.prev.time_ns) / 1e9, 3);
    AppendFixed(first.Key("elapsed_time"), pair.origin.Elapsed(pair.prev), 3);
    first.Close();
  }
  row_.clear();
  csv_.AppendValues(row_, pair);
  size_t width = 2 + csv_.names().size();  // time, elapsed_time, ...
  if (row_.size() != width)
    throw std::logic_error("columns: a row has " + std::to_string(row_.size()) +
                           " cells for " + std::to_string(width) + " columns");
  spool_.Append(row_);
}

std::string ColumnsExport::Header(const RecordingInfo& info) {
  spool_.Finish();
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
  std::string& rows = o.Key("event_rows");
  rows.push_back('[');
  for (size_t i = 0; i < event_rows_.size(); ++i)
    (i ? rows.append(",") : rows).append(std::to_string(event_rows_[i]));
  rows.push_back(']');
  if (!first_.empty()) o.Raw("first", first_);
  o.Close();
  // Spaces up to a multiple of kAlign with the newline: the arrays start
  // aligned in a file, where numpy.memmap maps them in place.
  out.append(kAlign - 1 - out.size() % kAlign, ' ');
  out.push_back('\n');
  return out;
}

// The spool holds the doubles' bits: in the file's byte order on a
// little-endian machine, and without a kAbsent when every row was full.
bool ColumnsExport::CopyColumns(int fd) const {
  if (std::endian::native != std::endian::little || !spool_.full()) return false;
  for (size_t c = 0; c < row_.size(); ++c) {
    if (spool_.CopyColumn(c, fd)) continue;
    if (c == 0) return false;
    throw SystemError("copying the columns", EIO);  // the kernel copied the first
  }
  return true;
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
