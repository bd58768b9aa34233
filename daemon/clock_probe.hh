// The clock's state for the recording (proto/pgr_format.hh): adjtimex(2)
// and the kernel's clocksource, read at the start, at each mark and at the
// end, never per tick. An answer that cannot be had is left out of the
// state; it never fails a recording.
//
// The clocksource is read below the root directory fd (--root: a fake
// tree names its own), from a file opened once and re-read from offset 0.
#pragma once

#include <sys/timex.h>

#include <optional>
#include <string_view>

#include "daemon/collect/proc_file.hh"
#include "proto/pgr_format.hh"

namespace pm {

inline constexpr std::string_view kClocksourcePath =
    "sys/devices/system/clocksource/clocksource0/current_clocksource";

// adjtimex's answer (its return value, the struct it filled) as the state's
// first four fields: synced unless TIME_ERROR or STA_UNSYNC; the offset in
// nanoseconds whether or not STA_NANO is set.
void FillDiscipline(int state, const struct timex& tx, ClockState& out);
// The sysfs file's text as a name: its first line, "" when none.
std::string_view ClocksourceName(std::string_view text);

class ClockProbe {
 public:
  // Opens the clocksource file if there is one.
  explicit ClockProbe(int root_dirfd);
  ClockState Read() noexcept;

 private:
  std::optional<ProcFile> clocksource_;
};

}  // namespace pm
