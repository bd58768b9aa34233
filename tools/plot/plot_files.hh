// The files gnuplot draws, on their way out of plot's scratch directory.
// gnuplot writes only there (a private directory plot made with mkdtemp),
// never into -o, which may be a shared directory such as /tmp: there it
// would follow a link or FIFO another user planted. Each chart is checked
// there, then written to -o by common/output_file.hh's WriteOutputFile,
// which refuses what OpenOutputFile refuses and leaves no empty or cut
// file behind.
//
// gnuplot reports no failed write: on a full disk it leaves an empty or
// cut-short file and exits 0. So a chart counts only when it is complete:
// a PNG ends with its IEND chunk, an SVG with </svg>, a PDF with %%EOF.
#pragma once

#include <string>
#include <string_view>

#include "tools/plot/plot_args.hh"

namespace pm {

// `bytes` end as a complete file of `type` does (trailing white space
// allowed after an SVG's or a PDF's last token).
bool ChartComplete(std::string_view bytes, ChartType type);

// The chart gnuplot wrote at `path`, in the scratch directory. When it is
// incomplete, throws ChartError naming it and, when that file system has
// (almost) no room left, that the disk holding the scratch directory's
// parent ($TMPDIR) is full.
std::string ReadChart(const std::string& path, ChartType type);

}  // namespace pm
