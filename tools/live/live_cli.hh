// `perfmonger live [record options] [--table|--json] [--columns LIST]
// [-c|--color[=WHEN]] [--pretty]`: prints a row of a table (on a terminal)
// or a `play` line (into a pipe) as each sample is taken.
#pragma once

#include <optional>

#include "tools/option_table.hh"
#include "tools/record/record_args.hh"
#include "tools/live/table_screen.hh"

namespace pm {

struct LiveArgs {
  RecordArgs record;
  ColorWhen color = ColorWhen::kUnset;
  bool pretty = false;
  bool table = false;   // --table, or a terminal without --json: once parsed, the table
  bool json = false;    // --json: even on a terminal
  std::string columns;  // --columns: the table's (playback/outputs/live_table.hh)
  std::optional<size_t> top;  // --top N: the busiest processes under each row
};

// The option table: record's but the session's, then live's own.
const Command<LiveArgs>& LiveCommand();

// Throws UsageError naming the fix (exit 1).
LiveArgs ParseLiveArgs(int argc, char** argv);

// 0 when stopped (SIGINT, SIGTERM, --timeout, stdout closed); 1 for a
// usage or setup error; 2 for a collection error or a failing stdout.
int LiveMain(int argc, char** argv);

}  // namespace pm
