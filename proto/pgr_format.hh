// The native recording format, `.pgr` version 1 (see also man/pgr.5).
// Version 2 differs only in its sample lines: see proto/pgr_delta.hh.
//
// A recording is a stream of JSON lines (NDJSON), compressed according to
// the output name (`.gz` gzip, `.zst` zstd, anything else plain); readers
// detect compression by magic bytes. Every line is one complete JSON object
// ending in "\n", and the writer flushes the compressor after each line, so
// a reader of a live file, or of one cut short by a crash, decodes every
// complete line before the cut and ignores a partial last line.
//
// Line 1, the header:
//   {"format":"perfmonger-pgr","version":1,"host":H,"kernel":K,
//    "start_time":"2026-11-29T08:07:30.123456Z","start_ns":<realtime ns>,
//    "interval_ns":N,"num_core":C,"pid":P,
//    "collectors":{<name>:<description>,...},"meta":{<key>:<value>,...},
//    "clock":<clock state>}
//   `meta` is always present (maybe empty), keys in command-line order;
//   `clock` (below) is the clock's state at the start.
//   Each collector description names the columns of its counter arrays:
//     "cpu":  {"fields":[10 names],"cores":[ids]}      rows: aggregate, cores
//     "proc": {"fields":["ctxt","processes"]}
//     "disk": {"fields":[11 names],"devices":[names]}
//     "net":  {"fields":[16 names],"devices":[names]}
//     "mem":  {"fields":[30 names]}
//     "intr": {"cpus":C,"rows":[{"irq":"24","descr":"..."},...]}
//
// Sample lines (no "event" key): {"t":<realtime ns>,"mono":<monotonic ns>,
//   "cpu":[[...],...],"proc":[...],"disk":[[...],...],"net":[[...],...],
//   "mem":[...],"intr":[[...],...]} — raw cumulative counters (integers) in
//   the order the header declares; a row absent at that instant (a device
//   removed, a CPU offlined) is `null`.
//
// Event lines: {"event":E,"t":...,"mono":...,...}:
//   "pause"   sampling paused (after a closing sample): no rate spans it
//   "resume"  sampling resumed (a fresh baseline sample follows)
//   "mark"    with "label": a phase boundary named by the driver, and
//             "clock": the clock's state then
// The trailer
//   {"event":"end","t":..,"mono":..,"reason":R,"samples":N,"missed_ticks":M,
//    "clock":<clock state>}
//   is the last line of a cleanly closed recording; a file without it was
//   not closed cleanly (killed, or a write error). Readers skip event kinds
//   they do not know.
//
// The clock state: how far `t` can be trusted against another host's,
//   {"synced":B,"offset_ns":N,"maxerror_us":N,"esterror_us":N,"source":S}
//   the first four from adjtimex(2) (synced: neither TIME_ERROR nor
//   STA_UNSYNC; offset in ns whatever STA_NANO says), left out when it
//   fails; `source` the kernel's clocksource (sysfs), left out when it
//   cannot be read. Recordings made before it have no `clock` at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "proto/header_values.hh"

namespace pm {

inline constexpr std::string_view kPgrFormatName = "perfmonger-pgr";
inline constexpr int kPgrVersion = 1;
// Version 2: sample lines as differences with keyframes (proto/pgr_delta.hh).
inline constexpr int kPgrDeltaVersion = 2;

// The object, `{"synced":...}`, appended to `out`.
void AppendClockJson(std::string& out, const ClockState& clock);

struct RecordingHeader {
  int version = kPgrVersion;  // or kPgrDeltaVersion
  std::string host;
  std::string kernel;
  int64_t start_ns = 0;      // CLOCK_REALTIME of the first sample
  int64_t interval_ns = 0;
  int num_core = 0;
  int pid = 0;
  std::string collectors_json;  // a JSON object, rendered by the collectors
  MetaList meta;
  std::optional<ClockState> clock;  // at the start
};

// The header line, "\n" included.
std::string EncodeHeaderLine(const RecordingHeader& header);

// `{"t":T,"mono":M` — the collectors append `,"name":value`, then EndLine.
// Readers tell a sample line by its first bytes (an event line begins
// with its "event").
inline constexpr std::string_view kSampleLineStart = "{\"t\":";
void BeginSampleLine(std::string& out, int64_t t_ns, int64_t mono_ns);
inline void EndLine(std::string& out) { out.append("}\n"); }

// {"event":KIND,"t":T,"mono":M} or, with a label, ...,"label":L}, then
// the clock state if given; "\n" included.
std::string EncodeEventLine(std::string_view kind, int64_t t_ns, int64_t mono_ns,
                            std::string_view label = {}, const ClockState* clock = nullptr);

struct EndEvent {
  int64_t t_ns = 0;
  int64_t mono_ns = 0;
  std::string_view reason;  // "stop-fd", "SIGINT", "SIGTERM", "timeout", ...
  uint64_t samples = 0;
  uint64_t missed_ticks = 0;
  const ClockState* clock = nullptr;  // then, if known
};
std::string EncodeEndLine(const EndEvent& end);

// RFC 3339 UTC with microseconds: "2026-11-29T08:07:30.123456Z".
std::string FormatRfc3339(int64_t realtime_ns);

}  // namespace pm
