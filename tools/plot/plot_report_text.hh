// The summary's text (`summary --all --stats`) made shorter for `plot
// --report`: its main figures for the PDF's header page, and its rows that
// are zero throughout left out of the HTML page. Read from the text as
// printed, so "zero" is zero at the printed resolution.
#pragma once

#include <string>
#include <vector>

namespace pm {

// The lines of the summary a first look wants: CPU busy and its main
// modes, the disks' and interfaces' totals, memory used. Each as printed,
// the section's "* ..." line before its figures.
std::vector<std::string> SummaryMainFigures(const std::string& summary);

struct ZeroRowsLeftOut {
  std::string text;                 // the summary without them
  std::vector<std::string> blocks;  // "disk vda", "interface lo": every figure 0
  size_t stats_rows = 0;            // statistics rows whose min and max are 0
};

// A disk's or interface's "* Average ... usage: NAME" block all 0, and a
// "* Statistics" row whose min and max are 0, left out.
ZeroRowsLeftOut LeaveOutZeroRows(const std::string& summary);

}  // namespace pm
