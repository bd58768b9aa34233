// `play`'s JSON line for a pair of samples: PerfMonger's schema, key order
// and number formats (compat §4) for PerfMonger's collectors, each
// report's object after (playback/reports/report.hh). No newline.
#pragma once

#include <string>

#include "playback/reports/report.hh"

namespace pm {

void AppendPlayJson(std::string& out, const Pair& pair);

}  // namespace pm
