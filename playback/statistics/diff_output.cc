#include "playback/statistics/diff_output.hh"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "playback/outputs/export_csv.hh"
#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

// A number as JSON or CSV: 10 significant digits, or `none` when undefined.
void Number(std::string& out, double v, std::string_view none = "null") {
  if (!std::isfinite(v)) {
    out.append(none);
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  out.append(buf);
}

// The change relative (B/A − 1 in %, "+100.0 %"), absolute when A is 0.
std::string Change(double ratio, double diff) {
  char buf[48];
  if (std::isnan(ratio)) std::snprintf(buf, sizeof buf, "%+.2f", diff);
  else std::snprintf(buf, sizeof buf, "%+.1f %%", (ratio - 1) * 100);
  return buf;
}

std::string Interval(const Comparison& c) {
  const bool absolute = std::isnan(c.ratio);
  std::string out = "[";
  out.append(absolute ? Change(c.ratio, c.diff_low) : Change(c.ratio_low, 0));
  out.append(", ");
  out.append(absolute ? Change(c.ratio, c.diff_high) : Change(c.ratio_high, 0));
  out.push_back(']');
  return out;
}

std::string Cell(double v, int precision) {
  std::string s;
  if (std::isfinite(v)) AppendFixed(s, v, precision);
  else s = "-";
  return s;
}

void Pad(std::string& out, const std::string& cell, size_t width, bool right) {
  const size_t fill = cell.size() < width ? width - cell.size() : 0;
  if (right) out.append(fill, ' ');
  out.append(cell);
  if (!right) out.append(fill, ' ');
}

std::string Heading(const DiffResult& r) {
  char buf[200];
  if (r.within_run)
    std::snprintf(buf, sizeof buf,
                  "within-run (moving-block bootstrap, %zu against %zu run%s): these runs "
                  "differ; whether the code does needs repeated runs\n",
                  r.runs_a, r.runs_b, r.runs_a + r.runs_b > 2 ? "s" : "");
  else
    std::snprintf(buf, sizeof buf, "run-level: %s over %zu against %zu runs\n",
                  r.test == RunTest::kWelch ? "Welch's t" : "Mann-Whitney U", r.runs_a,
                  r.runs_b);
  return buf;
}

size_t CountSignificant(const DiffResult& r) {
  return static_cast<size_t>(std::count_if(r.rows.begin(), r.rows.end(),
                                           [](const DiffRow& x) { return x.significant; }));
}

}  // namespace
namespace {

void AppendFiles(std::string& out, const char* side, const std::vector<std::string>& files) {
  out.append(side);
  for (const std::string& f : files) {
    out.push_back(' ');
    AppendPrintable(out, f);
  }
  out.push_back('\n');
}

// The significant rows as a table, columns sized to their cells.
void AppendTable(std::string& out, const std::vector<const DiffRow*>& rows) {
  std::vector<std::vector<std::string>> cells = {
      {"phase", "series", "unit", "mean A", "mean B", "change", "95 % CI", "q"}};
  for (const DiffRow* r : rows) {
    char q[32];
    std::snprintf(q, sizeof q, "%.2g", r->q);
    cells.push_back({Printable(r->phase), Printable(r->series), r->unit, Cell(r->a.mean, 2),
                     Cell(r->b.mean, 2), Change(r->change.ratio, r->change.diff),
                     Interval(r->change), q});
  }
  std::vector<size_t> width(cells[0].size(), 0);
  for (const auto& line : cells)
    for (size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
  for (const auto& line : cells) {
    out.append(" ");
    for (size_t i = 0; i < line.size(); ++i) {
      out.push_back(' ');
      Pad(out, line[i], width[i], i >= 3);
    }
    out.push_back('\n');
  }
}

// "Not significant: 120 series, the largest change cpu.all.usr +3.2 %".
void AppendQuiet(std::string& out, const DiffResult& r, size_t significant) {
  const size_t quiet = r.rows.size() - significant;
  if (quiet == 0) return;
  const DiffRow& top = r.rows[significant];  // ranked: the largest first
  out.append("Not significant: ");
  out.append(std::to_string(quiet));
  out.append(" series (q > ");
  AppendFixed(out, r.fdr, 2);
  out.append("); the largest change: phase '");
  AppendPrintable(out, top.phase);
  out.append("' ");
  AppendPrintable(out, top.series);
  out.push_back(' ');
  out.append(Change(top.change.ratio, top.change.diff));
  out.push_back(' ');
  out.append(Interval(top.change));
  out.push_back('\n');
}

// "Not compared, only in B: 20 series (net.eth0.rxkbyteps, ... and 14 more)",
// one line per reason.
void AppendMissing(std::string& out, const DiffResult& r) {
  constexpr size_t kNamed = 6;
  for (const char* why : {"only in A", "only in B", "not in every run"}) {
    std::vector<const std::string*> names;
    for (const auto& [name, reason] : r.series_not_compared)
      if (reason == why) names.push_back(&name);
    if (names.empty()) continue;
    out.append("Not compared, ").append(why).append(": ");
    out.append(std::to_string(names.size())).append(" series (");
    for (size_t i = 0; i < names.size() && i < kNamed; ++i) {
      if (i) out.append(", ");
      AppendPrintable(out, *names[i]);
    }
    if (names.size() > kNamed) out.append(" and " + std::to_string(names.size() - kNamed) + " more");
    out.append(")\n");
  }
}

}  // namespace

std::string DiffText(const DiffResult& r, const DiffSides& sides) {
  std::string out;
  AppendFiles(out, "A:", sides.a_files);
  AppendFiles(out, "B:", sides.b_files);
  out.append(Heading(r));
  const size_t significant = CountSignificant(r);
  out.append(std::to_string(r.rows.size()) + " series compared, " +
             std::to_string(significant) + " significant (Benjamini-Hochberg, FDR ");
  AppendFixed(out, r.fdr, 2);
  out.append(")\n");
  std::vector<const DiffRow*> shown;
  for (size_t i = 0; i < significant; ++i) shown.push_back(&r.rows[i]);
  if (!shown.empty()) {
    out.push_back('\n');
    AppendTable(out, shown);
    out.push_back('\n');
  }
  AppendQuiet(out, r, significant);
  for (const std::string& line : r.phases_not_compared) {
    out.append("Not compared: ");
    AppendPrintable(out, line);
    out.push_back('\n');
  }
  AppendMissing(out, r);
  return out;
}

namespace {

void SideJson(std::string& out, const SideFigures& f) {
  JsonObjectWriter o(out);
  Number(o.Key("mean"), f.mean);
  Number(o.Key("p50"), f.p50);
  Number(o.Key("p95"), f.p95);
  Number(o.Key("p99"), f.p99);
  o.Close();
}

void RowJson(std::string& out, const DiffRow& r) {
  JsonObjectWriter o(out);
  o.Str("phase", r.phase).Str("series", r.series).Str("unit", r.unit);
  o.Str("kind", r.level ? "level" : "rate");
  SideJson(o.Key("a"), r.a);
  SideJson(o.Key("b"), r.b);
  const Comparison& c = r.change;
  Number(o.Key("change"), c.diff);
  Number(o.Key("change_low"), c.diff_low);
  Number(o.Key("change_high"), c.diff_high);
  Number(o.Key("ratio"), c.ratio);
  Number(o.Key("ratio_low"), c.ratio_low);
  Number(o.Key("ratio_high"), c.ratio_high);
  Number(o.Key("statistic"), c.statistic);
  Number(o.Key("df"), c.df);
  Number(o.Key("p"), c.p);
  Number(o.Key("q"), r.q);
  o.Bool("significant", r.significant);
  o.Close();
}

void FilesJson(std::string& out, const std::vector<std::string>& files) {
  out.push_back('[');
  for (size_t i = 0; i < files.size(); ++i) {
    if (i) out.push_back(',');
    AppendJsonString(out, files[i]);
  }
  out.push_back(']');
}

}  // namespace

std::string DiffJson(const DiffResult& r, const DiffSides& sides) {
  std::string out;
  JsonObjectWriter o(out);
  o.Str("mode", r.within_run ? "within-run" : "run-level");
  o.Str("test", r.within_run ? "block-bootstrap"
                : r.test == RunTest::kWelch ? "welch" : "mann-whitney");
  Number(o.Key("fdr"), r.fdr);
  FilesJson(o.Key("a"), sides.a_files);
  FilesJson(o.Key("b"), sides.b_files);
  o.Uint("tests", r.rows.size()).Uint("significant", CountSignificant(r));
  std::string& series = o.Key("series");
  series.push_back('[');
  for (size_t i = 0; i < r.rows.size(); ++i) {
    if (i) series.push_back(',');
    RowJson(series, r.rows[i]);
  }
  series.push_back(']');
  FilesJson(o.Key("phases_not_compared"), r.phases_not_compared);
  JsonObjectWriter missing(o.Key("series_not_compared"));
  for (const auto& [name, why] : r.series_not_compared) missing.Str(name, why);
  missing.Close();
  o.Close();
  out.push_back('\n');
  return out;
}

std::string DiffCsv(const DiffResult& r) {
  std::string out =
      "phase,series,unit,kind,mean_a,mean_b,p50_a,p50_b,p95_a,p95_b,p99_a,p99_b,change,"
      "change_low,change_high,ratio,ratio_low,ratio_high,p,q,significant\n";
  for (const DiffRow& x : r.rows) {
    AppendCsvField(out, x.phase);
    out.push_back(',');
    AppendCsvField(out, x.series);
    out.append(",").append(x.unit).append(x.level ? ",level" : ",rate");
    const Comparison& c = x.change;
    for (double v : {x.a.mean, x.b.mean, x.a.p50, x.b.p50, x.a.p95, x.b.p95, x.a.p99, x.b.p99,
                     c.diff, c.diff_low, c.diff_high, c.ratio, c.ratio_low, c.ratio_high, c.p,
                     x.q}) {
      out.push_back(',');
      Number(out, v, "");
    }
    out.append(x.significant ? ",1\n" : ",0\n");
  }
  return out;
}

}  // namespace pm
