// `perfmonger live [record options] [-c|--color] [--pretty]`: prints `play`
// lines as the samples are taken.
#pragma once

#include "tools/option_table.hh"
#include "tools/record_args.hh"

namespace pm {

struct LiveArgs {
  RecordArgs record;
  bool color = false;
  bool pretty = false;
};

// The option table: record's but the session's, -c, --pretty.
const Command<LiveArgs>& LiveCommand();

// Throws UsageError naming the fix (exit 1).
LiveArgs ParseLiveArgs(int argc, char** argv);

// 0 when stopped (SIGINT, SIGTERM, --timeout, stdout closed); 1 for a
// usage or setup error; 2 for a collection error or a failing stdout.
int LiveMain(int argc, char** argv);

}  // namespace pm
