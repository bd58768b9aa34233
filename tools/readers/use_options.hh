// summary --use's thresholds (playback/statistics/use_span.hh) as options:
// --use-busy, --use-psi, --use-queue, --use-share, --use-gap (summary(1)).
#pragma once

#include <vector>

#include "playback/statistics/use_span.hh"
#include "tools/option_table.hh"

namespace pm {

const std::vector<Option<UseThresholds>>& UseOptions();

}  // namespace pm
