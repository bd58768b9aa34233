// Replies to --cmd-fd commands, written to --ack-fd (DESIGN.md §5): one
// JSON line per non-empty command line, in order, at most kMaxReply bytes
// so one write() carries it whole.
//   {"seq":7,"cmd":"pause","ok":true,"state":"paused","samples":123,
//    "changed":false,"t":..,"mono":..,"missed_ticks":..,"bytes_out":..}\n
//   {"seq":8,"cmd":"paus","ok":false,"error":"unknown_command"}\n
// mark and stop add the closed phase's cost of the system under test
// (its --pid rows and `stat`'s command, summed over those running at both
// ends of the phase; pgr(5), docs/phase-cost.md), after "mono":
//   "cost":{"cpu_ns":N,"run_wait_ns":N,"read_bytes":N,"write_bytes":N,
//           "minflt":N,"majflt":N,"ctxsw":N,"processes":N}
// Success fields appear in that order and only when set; "t" is
// CLOCK_REALTIME and "mono" CLOCK_MONOTONIC, both in ns, of the moment the
// effect happened. To keep the bound whatever the caller passes, cmd and
// state are cut to kMaxEchoedVerb bytes and error to kMaxReplyError bytes
// before escaping.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pm {

inline constexpr size_t kMaxReply = 1024;
inline constexpr size_t kMaxReplyError = 64;

// What the system under test used over a phase (ns, bytes, counts).
struct SutCost {
  uint64_t cpu_ns = 0, run_wait_ns = 0, read_bytes = 0, write_bytes = 0;
  uint64_t minflt = 0, majflt = 0, ctxsw = 0;
  uint64_t processes = 0;  // rows counted (running at both ends)
};

struct ReplyFields {  // success fields, all optional
  std::string_view state;  // "recording" | "paused" (omitted if empty)
  std::optional<uint64_t> samples;
  std::optional<bool> changed;  // repeated pause/resume: false
  std::optional<int64_t> t_ns, mono_ns;  // when the effect happened
  std::optional<SutCost> cost;  // mark, stop: the closed phase's
  std::optional<uint64_t> missed_ticks, bytes_out;  // status
};

std::string EncodeOkReply(uint64_t seq, std::string_view cmd,
                          const ReplyFields& f);
std::string EncodeErrorReply(uint64_t seq, std::string_view cmd,
                             std::string_view error);

}  // namespace pm
