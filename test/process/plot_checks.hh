// What the plot tests share: running `perfmonger plot`, and telling a real
// chart file from a stub or a blank page.
#pragma once

#include <string>
#include <vector>

#include "test/process/png_pixels.hh"
#include "test/process/spawn.hh"

namespace pm::test {

// `perfmonger plot ARGS`; gnuplot draws several charts: 120 s, for a
// loaded machine. `cwd` "" is inherited.
ExitResult RunPlot(std::vector<std::string> args, std::vector<std::string> env = {},
                   std::string cwd = "");

// A real chart file of its type ("pdf", "svg", "png"), not a stub: magic
// bytes and some size.
void CheckChartFile(const std::string& path, const std::string& type);

// Decoded: the size gnuplot was asked for, and a drawing (axes, text,
// data) in more than a couple of colours.
PngImage CheckDrawnPng(const std::string& path);

}  // namespace pm::test
