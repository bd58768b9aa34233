// live's table on its way to a terminal (or, with --table, a pipe): the
// header when due (first, every screen height, after a resize), a row per
// pair, the average row at the end. The size is the terminal's
// (TIOCGWINSZ); a resize is seen through SIGWINCH, blocked and collected
// before each row (sigtimedwait), so no work is done in a handler and the
// recorder's loop needs no watcher: the next row is where a new layout
// shows anyway.
//
// With a process table (record --record-procs) and `top` above 0, each
// row is followed by its interval's busiest processes
// (playback/outputs/proc_top_rows.hh), counted in the screenful.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/user_names.hh"
#include "playback/outputs/live_table.hh"
#include "playback/outputs/table_text.hh"
#include "playback/reading/proc_table_event.hh"
#include "tools/output_mode.hh"

namespace pm {

struct ProcBlock {
  size_t top = 0;   // rows under each table row: --top (0: none)
  UserNames users;  // USER's names (none: uids)
};

class TableScreen {
 public:
  // `spec`: --columns. Blocks SIGWINCH when `fd` is a terminal.
  // `interval_ns`: the sampling interval; below a second the time column
  // has the decimals that tell its rows apart (TimeDecimals()).
  TableScreen(std::string_view spec, bool color, int fd, int64_t interval_ns = 0,
              ProcBlock procs = {});

  // `procs`: the "procs" line written with the pair's second sample, or
  // null.
  void OnPair(const Pair& p, const ProcTableEvent* procs, std::string& out);
  // The average row (nothing before a row was written).
  void Finish(std::string& out);

 private:
  void Measure();

  LiveTable table_;
  ProcBlock procs_;
  TableStyle style_;
  int fd_;
  bool terminal_;
  size_t height_ = 0;      // 0: no screen (a pipe): one header
  size_t since_header_ = 0;
  bool header_due_ = true;
};

}  // namespace pm
