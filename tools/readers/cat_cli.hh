// `perfmonger cat FILE...|DIR`: a native recording of any version printed
// as v1 lines (absolute counters), decompressed, so `jq` reads v2 as it
// read v1; several (a rotated directory) as one timeline
// (playback/reading/joined_input.hh).
#pragma once

#include <string>
#include <vector>

#include "playback/reading/sample_window.hh"
#include "tools/option_table.hh"

namespace pm {

struct CatArgs {
  bool help = false;
  std::vector<std::string> files;  // none or "-": stdin; several or a DIR: joined
  WindowSpec window; // --from, --to, --phase
};

// The option table (data: tools/command_catalog.hh walks it).
const Command<CatArgs>& CatCommand();

// Throws UsageError naming the fix (exit 1).
CatArgs ParseCatArgs(int argc, char** argv);

// Returns the exit status: 0 printed (a truncated input too), 1 usage or
// unreadable input, 2 not a native recording, or lines lost to damage
// (after every line that could be read was printed).
int CatMain(int argc, char** argv);

}  // namespace pm
