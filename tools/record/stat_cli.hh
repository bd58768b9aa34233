// `perfmonger stat [record options] [--json] -- CMD [ARGS...]`: records
// while CMD runs, then summarizes the recording.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "playback/outputs/phase_cost.hh"
#include "tools/option_table.hh"
#include "tools/record/record_args.hh"

namespace pm {

struct StatArgs {
  RecordArgs record;
  bool json = false;
  std::vector<std::string> command;
  NoiseThresholds noise;          // --noisy-cpu, ...
  std::optional<int> noisy_exit;  // --noisy-exit N
};

// The option table: record's recording options, --json, -h.
const Command<StatArgs>& StatCommand();

// Throws UsageError naming the fix (exit 1).
StatArgs ParseStatArgs(int argc, char** argv);

// CMD's exit status (128 + signal when a signal killed it); 2 when CMD
// succeeded but the recording failed; 127 when CMD could not be started;
// 1 for a usage or setup error (CMD not run).
int StatMain(int argc, char** argv);

}  // namespace pm
