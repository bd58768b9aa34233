// live's table as text: a time column, then each group's columns after a
// '|', as dstat lays them out; a two-line header (the groups' headings
// over dashes, then the columns' labels). A row never exceeds the width:
// the columns that do not fit, from the first that does not on, are left
// out, the same ones from the header and every row.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "playback/live_table.hh"

namespace pm {

struct TableStyle {
  size_t width = 0;  // the terminal's columns; 0: no limit
  bool color = false;
};

inline constexpr size_t kTimeWidth = 8;  // "HH:MM:SS"

void AppendTableHeader(std::string& out, std::span<const TableGroup> groups,
                       const TableStyle& style);

// `label` (the time, or "average") and one value per column of `groups`.
void AppendTableRow(std::string& out, std::string_view label, std::span<const TableGroup> groups,
                    std::span<const double> values, const TableStyle& style);

// "HH:MM:SS", the local time of `unix_seconds`.
std::string TimeLabel(double unix_seconds);

}  // namespace pm
