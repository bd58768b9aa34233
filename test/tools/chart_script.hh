// The script of the chart named `name` among `charts` (plot's scripts),
// failing the test when there is none: shared by the plot script tests.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tools/plot/plot_scripts.hh"

namespace pm::test {

inline std::string Script(const std::vector<ChartScript>& charts, const std::string& name) {
  for (const ChartScript& c : charts)
    if (c.name == name) return c.script;
  FAIL("no chart " << name);
  return "";
}

}  // namespace pm::test
