// Command round-trip latency of `perfmonger record --cmd-fd --ack-fd`
// (proto/control_protocol.hh): the time from writing a command line to
// reading its reply line, on a gzip recording at -i 1 so no tick lands in
// the loop. Beside it, interleaved ping by ping, the same round-trip to an
// echo child (bench/floor_echo.cc): the pipe-and-wake-up floor.
#pragma once

#include <vector>

#include "bench/scenarios.hh"

namespace pm::bench {

struct ControlRuns {
  std::vector<double> ping_us, pause_us, resume_us;
  std::vector<double> echo_us;  // the floor, one per measured ping
  int warmup_pings = 0;         // sent first, not measured
  TimedRun run;                 // the recording, decoded after stop
};

// Warm-up pings, then `pairs` times: `pings_per_state` pings (each followed
// by an echo round-trip), pause, as many pings, resume. Every reply is
// checked (seq, cmd, ok, state, changed); a wrong one throws.
ControlRuns CommandLatency(const Env& env, int pairs, int pings_per_state);

}  // namespace pm::bench
