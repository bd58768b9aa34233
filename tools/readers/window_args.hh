// The time-window options every reader takes (play, summary, cat, plot):
// --from WHEN, --to WHEN, --phase LABEL, into a WindowSpec
// (playback/reading/sample_window.hh).
//
// WHEN is, in this order of trial:
//   mark:LABEL                   the first mark LABEL (for --to: at or
//                                after the start of the window)
//   YYYY-MM-DDTHH:MM:SS[.f]Z     RFC 3339 (or +HH:MM / -HH:MM; ' ' for T;
//                                no offset: local time, as TZ says)
//   today, yesterday             that local midnight
//   HH:MM[:SS[.f]]               that local time of day, on the
//                                recording's day (the next day when the
//                                recording started later in the day);
//                                for --to after a wall-clock --from, the
//                                first such time at or after it (sar -e)
//   30, 1.5, 1m30s, 500ms        elapsed since the recording's first item,
//                                as play's elapsed_time (Go durations)
#pragma once

#include <string_view>
#include <vector>

#include "common/error.hh"
#include "playback/reading/sample_window.hh"
#include "tools/option_table.hh"

namespace pm {

// Throws UsageError naming `--flag` and the forms it takes.
WindowBound ParseWindowBound(std::string_view flag, std::string_view text);

// --last DUR: from DUR before now (the wall clock) to the end.
WindowBound LastBound(std::string_view text);

// After parsing: --phase alone or --from/--to; a --from after its --to.
// A time-of-day --to after a wall-clock --from becomes a wall-clock time.
void CheckWindow(WindowSpec& spec);

// The options' heading in --help.
inline constexpr std::string_view kWindowSection = "Time window (default: the whole recording):";

// --from WHEN, into the Args' WindowSpec at `field`.
template <class Args>
Option<Args> WindowFromOption(WindowSpec Args::*field) {
  return MakeOption<Args>(
      {.name = "from", .value = "WHEN",
       .help = "start at WHEN: elapsed time since the recording's start\n"
               "(30, 1m30s), a wall-clock time (RFC 3339, or HH:MM:SS\n"
               "local time on the recording's day) or mark:LABEL;\n"
               "samples and events at or after it are read",
       .brief = "start at elapsed time, wall-clock time or mark:LABEL",
       .section = kWindowSection},
      [field](Args& a, const Given& g) {
        if ((a.*field).from.given.starts_with("(--last"))
          throw UsageError("--last is a start of its own: not with --from");
        (a.*field).from = ParseWindowBound("from", g.value);
      });
}

// --to WHEN.
template <class Args>
Option<Args> WindowToOption(WindowSpec Args::*field) {
  return MakeOption<Args>(
      {.name = "to", .value = "WHEN",
       .help = "end at WHEN (as --from; mark:LABEL is the first\n"
               "such mark from the start on); samples and events\n"
               "at or before it are read",
       .brief = "end at elapsed time, wall-clock time or mark:LABEL",
       .section = kWindowSection},
      [field](Args& a, const Given& g) { (a.*field).to = ParseWindowBound("to", g.value); });
}

// --last DUR.
template <class Args>
Option<Args> WindowLastOption(WindowSpec Args::*field) {
  return MakeOption<Args>(
      {.name = "last", .value = "DUR",
       .help = "from DUR before now (15m, 2h) to the end: the\n"
               "recent past of a recording still being written",
       .brief = "from DUR before now to the end",
       .section = kWindowSection},
      [field](Args& a, const Given& g) {
        if ((a.*field).from.kind != WindowBound::Kind::kOpen)
          throw UsageError("--last is a start of its own: not with --from");
        (a.*field).from = LastBound(g.value);
      });
}

// --phase LABEL.
template <class Args>
Option<Args> WindowPhaseOption(WindowSpec Args::*field) {
  return MakeOption<Args>(
      {.name = "phase", .value = "LABEL",
       .help = "the phase mark LABEL opens: from that mark to the\n"
               "next mark, or the end",
       .brief = "from mark LABEL to the next mark",
       .section = kWindowSection},
      [field](Args& a, const Given& g) { (a.*field).phase = std::string(g.value); });
}

// The four options for a command whose Args hold a WindowSpec at `field`.
template <class Args>
std::vector<Option<Args>> WindowOptions(WindowSpec Args::*field) {
  return {WindowFromOption(field), WindowToOption(field), WindowLastOption(field),
          WindowPhaseOption(field)};
}

}  // namespace pm
