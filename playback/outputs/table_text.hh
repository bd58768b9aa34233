// live's table as text: a time column, then each group's columns after a
// '|', as dstat lays them out; a two-line header (the groups' headings
// over dashes, then the columns' labels). A row never exceeds the width:
// the columns that do not fit, from the first that does not on, are left
// out, the same ones from the header and every row.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "playback/outputs/live_table.hh"

namespace pm {

struct TableStyle {
  size_t width = 0;  // the terminal's columns; 0: no limit
  bool color = false;
  int time_decimals = 0;  // the time column's: TimeDecimals()
  size_t time_width() const;  // "HH:MM:SS" and ".d..."
};

void AppendTableHeader(std::string& out, std::span<const TableGroup> groups,
                       const TableStyle& style);

// `label` (the time, or "average") and one value per column of `groups`.
void AppendTableRow(std::string& out, std::string_view label, std::span<const TableGroup> groups,
                    std::span<const double> values, const TableStyle& style);

// "HH:MM:SS", the local time of `unix_seconds`, and `decimals` (0 to 3)
// digits of its second after a '.', truncated as a clock's are.
std::string TimeLabel(double unix_seconds, int decimals = 0);

// The decimals that tell samples `interval_ns` apart: 0 for a second or
// more (or unknown: 0), the fewest of 1, 2, 3 that write the interval
// exactly (0.25 s: 2), else 3.
int TimeDecimals(int64_t interval_ns);

}  // namespace pm
