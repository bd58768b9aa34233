#include "tools/diff/diff_fail_on.hh"

#include <fnmatch.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/error.hh"
#include "proto/text.hh"

namespace pm {

FailOn ParseFailOn(std::string_view text) {
  FailOn r;
  r.text = std::string(text);
  const size_t op = text.find_first_of("<>");
  const std::string fix = "--fail-on '" + r.text +
                          "': write GLOB>+N% or GLOB<-N (e.g. 'disk.*.wmibps>+10%')";
  if (op == std::string_view::npos || op == 0) throw UsageError(fix);
  r.glob = std::string(text.substr(0, op));
  r.above = text[op] == '>';
  std::string value(text.substr(op + 1));
  if (!value.empty() && value.back() == '%') {
    r.relative = true;
    value.pop_back();
  }
  char* end = nullptr;
  r.value = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !std::isfinite(r.value)) throw UsageError(fix);
  if (r.relative) r.value /= 100;
  return r;
}

namespace {

bool Passes(const DiffRow& row, const FailOn& rule) {
  if (fnmatch(rule.glob.c_str(), row.series.c_str(), 0) != 0) return false;
  const double change = rule.relative ? row.change.ratio - 1 : row.change.diff;
  if (std::isnan(change)) return false;  // relative to a zero mean
  return rule.above ? change > rule.value : change < rule.value;
}

std::string Line(const DiffRow& row, const FailOn& rule) {
  char change[48];
  if (rule.relative) std::snprintf(change, sizeof change, "%+.1f %%", (row.change.ratio - 1) * 100);
  else std::snprintf(change, sizeof change, "%+.2f %s", row.change.diff, row.unit.c_str());
  std::string out = "phase '";
  AppendPrintable(out, row.phase);
  out.append("' ");
  AppendPrintable(out, row.series);
  out.push_back(' ');
  out.append(change);
  out.append(" passes '");
  AppendPrintable(out, rule.text);
  out.push_back('\'');
  return out;
}

}  // namespace

std::vector<std::string> FailedRules(const DiffResult& result, const std::vector<FailOn>& rules) {
  std::vector<std::string> out;
  for (const DiffRow& row : result.rows) {
    if (!row.significant) continue;
    for (const FailOn& rule : rules)
      if (Passes(row, rule)) out.push_back(Line(row, rule));
  }
  return out;
}

}  // namespace pm
