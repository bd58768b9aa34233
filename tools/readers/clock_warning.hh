// The clock warning ("its times may not line up with another host's"),
// printed only where times of different hosts meet: an export labelled
// for a store of many hosts (play --instance, --label, the CSV's host
// column), or when asked for everything (summary --all). A lone
// recording read alone lines up with nothing, so on it the warning is
// noise: a VM's clock is rarely synchronised.
#pragma once

#include <string>

#include "playback/reports/clock_report.hh"
#include "tools/readers/reader_args.hh"

namespace pm {

// play's outputs that another host's rows or series will meet.
bool HostsMeet(const PlayArgs& args);

// "warning: NAME: WHY" on stderr for each of the history's warnings.
void WarnOfClock(const std::string& name, const ClockHistory& clocks);

}  // namespace pm
