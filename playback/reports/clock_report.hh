// The clock's state as the readers show it (pgr(5)'s `clock`): what
// `summary` says of it over a recording, and its words for one state.
//
// Samples of two hosts line up only as well as their clocks agree, so
// summary warns when a state recorded (at the start, a mark, the end)
// says the clock was not synchronised, or that its maximum error was
// larger than the sampling interval.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "playback/reading/raw_sample.hh"

namespace pm {

// "synchronised, offset 0.012 ms, max error 1.500 ms, est. error 0.100 ms,
// clocksource tsc"; each part only when recorded ("unknown": none was).
std::string DescribeClock(const ClockState& clock);

class ClockHistory {
 public:
  // The header's state; `interval_ns` is what the maximum error is held to.
  explicit ClockHistory(const RecordingInfo& info);
  void OnEvent(const RecordingEvent& event);  // marks' and the end's

  bool empty() const { return !start_ && !end_; }
  const std::optional<ClockState>& start() const { return start_; }
  const std::optional<ClockState>& end() const { return end_; }  // the trailer's
  // At most two lines, without "warning: ": the first state not
  // synchronised, and the largest maximum error of a synchronised one
  // beyond the interval (an unsynchronised clock's is only the kernel's cap).
  std::vector<std::string> Warnings() const;

 private:
  void Note(const ClockState& clock, const std::string& where);

  int64_t interval_ns_ = 0;
  std::optional<ClockState> start_;
  std::optional<ClockState> end_;
  std::optional<std::string> unsynced_at_;
  std::optional<std::string> worst_at_;
  int64_t worst_maxerror_us_ = -1;
};

// Summary's text block ("Clock:", a line for the start and the end, a
// blank line) and JSON object ({"start":STATE,"end":STATE}, pgr(5)'s
// objects); each state only when recorded.
void AppendClockText(std::string& out, const ClockHistory& clocks);
void AppendClockSummaryJson(std::string& out, const ClockHistory& clocks);

}  // namespace pm
