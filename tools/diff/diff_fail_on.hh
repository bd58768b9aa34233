// `diff --fail-on RULE`: CI's threshold. RULE is GLOB OP VALUE, e.g.
// 'disk.*.wmibps>+10%' or 'cpu.all.usr<-5' or 'mem.used>+100':
//   GLOB   a series name, fnmatch(3) (`*` matches dots too)
//   OP     '>' the change is above VALUE, '<' below it
//   VALUE  signed; with '%' relative to A's mean (B/A − 1), else absolute
//          in the series' unit
// A significant change that passes a rule makes diff exit 3.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "playback/statistics/diff_table.hh"

namespace pm {

struct FailOn {
  std::string text;  // as given
  std::string glob;
  bool above = true;
  double value = 0;
  bool relative = false;
};

// Throws UsageError naming the fix.
FailOn ParseFailOn(std::string_view text);

// One line per significant change that passes a rule:
// "phase 'write' disk.vda.wmibps.total +98.2 % passes 'disk.*>+10%'".
std::vector<std::string> FailedRules(const DiffResult& result, const std::vector<FailOn>& rules);

}  // namespace pm
