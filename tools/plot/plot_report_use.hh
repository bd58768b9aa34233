// `plot --report`'s USE (issue 51): `summary --use`'s block of the whole
// recording (its resources' U, S and E, and the verdict line) and each
// phase's verdict line, above the charts; the binding resource's charts
// first. The thresholds are summary --use's defaults. Made by
// playback/statistics/use_output.hh, as summary prints them.
//
// The binding resource's charts: CPU (or its busiest core) cpu, allcpu;
// memory mem; a disk, or I/O pressure, the disk charts (every disk on
// each, the disk named); an interface net; TCP tcp, net; a cgroup
// cgroup-cpu, cgroup-io.
#pragma once

#include <string>
#include <vector>

#include "playback/statistics/stats_walk.hh"
#include "tools/plot/plot_scripts.hh"

namespace pm {

struct ReportUse {
  std::string block;    // "* USE: ..." to "USE verdict: ..."; "" without an interval
  std::vector<std::pair<std::string, std::string>> phases;  // label, verdict; 2 phases or more
  std::string binding;  // "CPU", "disk vda"; "" when none is saturated
};

// From a walk with `use` and `split`.
ReportUse ReportUseOf(const StatsWalk& walk);

// `charts` with the binding resource's first, the others in their order.
void BindingChartsFirst(std::vector<ChartScript>& charts, const std::string& binding);

// The HTML page's USE section; "" without a block.
std::string ReportUseHtml(const ReportUse& use);

// A PDF page (gnuplot commands) with the block and the phases' verdicts;
// "" without a block.
std::string ReportUsePdfPage(const ReportUse& use);

}  // namespace pm
