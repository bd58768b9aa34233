// The verdict's thresholds (playback/outputs/phase_cost.hh) as options of summary
// and stat: --noisy-cpu, --noisy-io, --noisy-steal, --noisy-pressure, each
// a percentage (summary(1), stat(1)).
#pragma once

#include <vector>

#include "playback/outputs/phase_cost.hh"
#include "tools/option_table.hh"

namespace pm {

const std::vector<Option<NoiseThresholds>>& NoiseOptions();

// "12.5" (or "12.5%") as a percentage, 0 or more; throws UsageError
// naming `option`.
double ParsePercent(std::string_view value, std::string_view option);

}  // namespace pm
