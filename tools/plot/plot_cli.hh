// `perfmonger plot`: a recording -> PerfMonger's data files (cpu.dat,
// disk.dat, mem.dat; net.dat) and gnuplot scripts -> charts (PDF, PNG or
// SVG) drawn by a gnuplot child process.
#pragma once

namespace pm {

// Returns the exit status: 0 drawn (truncated input too), 1 usage error,
// unreadable input, gnuplot missing or failing, 2 corrupt recording.
int PlotMain(int argc, char** argv);

}  // namespace pm
