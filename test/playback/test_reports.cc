// The report list (playback/reports/reports.cc): for every descriptor of
// proto/pgr_collectors.hh, in its order, a report with every output's slot
// filled — play, summary text and JSON, phases, stats, CSV, OpenMetrics
// (families and series), plot (files, lines, charts), and live's table
// (columns that fit their widths) for every collector but intr, whose
// per-CPU counts are not a dstat column.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/reports/reports.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

TEST_SUITE("reports") {

TEST_CASE("every descriptor has a report, in order, and every output slot filled") {
  REQUIRE(Reports().size() == kCollectors.size());
  size_t member = 0;
  for (size_t i = 0; i < kCollectors.size(); ++i) {
    const CollectorSpec& spec = kCollectors[i];
    const ReportEntry& e = Reports()[i];
    CAPTURE(spec.name);
    CHECK(e.first_member == member);
    CHECK(e.members == spec.members.size());
    member += spec.members.size();
    REQUIRE(e.report != nullptr);
    const Report& r = *e.report;
    CHECK(bool(r.play));
    CHECK(bool(r.summary_text));
    CHECK(bool(r.summary_json));
    CHECK(bool(r.phases));
    CHECK(bool(r.stats));
    CHECK(bool(r.csv));
    REQUIRE(r.openmetrics != nullptr);
    CHECK(bool(r.openmetrics->families));
    CHECK(bool(r.openmetrics->series));
    REQUIRE(r.plot != nullptr);
    CHECK_FALSE(r.plot->files.empty());
    CHECK(bool(r.plot->pair));
    CHECK_FALSE(r.plot->charts.empty());
    for (const ChartSpec& chart : r.plot->charts) CHECK(chart.file < r.plot->files.size());
    if (spec.name == "intr") continue;
    REQUIRE(r.live != nullptr);
    CHECK_FALSE(r.live->heading.empty());
    CHECK_FALSE(r.live->columns.empty());
    CHECK(bool(r.live->values));
    for (const LiveColumn& c : r.live->columns) CHECK(c.label.size() <= static_cast<size_t>(c.width));
  }
  CHECK(member == kPgrMemberCount);
}

TEST_CASE("the reports' OpenMetrics families and plot files and charts are distinct") {
  const RecordingInfo info;
  const MetricCatalog catalog(info, "", nullptr);
  std::vector<std::string> files, charts;
  for (const ReportEntry& e : Reports()) {
    for (const PlotFileSpec& f : e.report->plot->files) files.emplace_back(f.name);
    for (const ChartSpec& c : e.report->plot->charts) charts.emplace_back(c.name);
  }
  auto distinct = [](std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    return std::adjacent_find(names.begin(), names.end()) == names.end();
  };
  std::vector<std::string> names;
  for (const MetricFamily& f : catalog.families()) names.push_back(f.name);
  CHECK(distinct(names));
  CHECK(distinct(files));
  CHECK(distinct(charts));
}

}  // TEST_SUITE

}  // namespace
}  // namespace pm
