// `perfmonger cat FILE`: a native recording of any version printed as v1
// lines (absolute counters), decompressed, so `jq` reads v2 as it read v1.
#pragma once

#include <string>

#include "tools/option_table.hh"

namespace pm {

struct CatArgs {
  bool help = false;
  std::string file;  // "" or "-": stdin
};

// The option table (data: tools/command_catalog.hh walks it): -h only.
const Command<CatArgs>& CatCommand();

// Throws UsageError naming the fix (exit 1).
CatArgs ParseCatArgs(int argc, char** argv);

// Returns the exit status: 0 printed (a truncated input too), 1 usage or
// unreadable input, 2 not a native recording or a corrupt v1 line.
int CatMain(int argc, char** argv);

}  // namespace pm
