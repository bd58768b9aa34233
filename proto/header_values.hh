// The values a recording's header and events carry that a reader keeps
// as they are: the metadata list and the clock state (pgr_format.hh writes
// them). Apart from the writer so that what every reader includes
// (playback/reading/raw_sample.hh) does not rebuild when the writer changes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pm {

using MetaList = std::vector<std::pair<std::string, std::string>>;

// The system clock's discipline at an instant (the format's clock state).
struct ClockState {
  bool disciplined = false;  // adjtimex answered: the next four hold
  bool synced = false;
  int64_t offset_ns = 0;
  int64_t maxerror_us = 0;
  int64_t esterror_us = 0;
  std::string source;  // the clocksource; empty: unknown

  bool operator==(const ClockState&) const = default;
};

}  // namespace pm
