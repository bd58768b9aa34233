// `perfmonger cat FILE`: a native recording of any version printed as v1
// lines (absolute counters), decompressed, so `jq` reads v2 as it read v1.
#pragma once

namespace pm {

// Returns the exit status: 0 printed (a truncated input too), 1 usage or
// unreadable input, 2 not a native recording or a corrupt v1 line.
int CatMain(int argc, char** argv);

}  // namespace pm
