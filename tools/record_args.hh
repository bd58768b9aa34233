// `perfmonger record`'s command line: parsed into a RecordConfig plus the
// options that pick another mode (help, background launch, status, kill).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/record_config.hh"

namespace pm {

extern const char kRecordUsage[];

struct RecordArgs {
  RecordConfig config;
  bool help = false;
  bool background = false;
  bool status = false;
  bool kill = false;
  bool json = false;
  bool output_given = false;
  int64_t ready_timeout_ns = 5'000'000'000;
  int64_t kill_timeout_ns = 10'000'000'000;
  std::string log_path;
};

// Throws UsageError naming the fix (exit 1).
RecordArgs ParseRecordArgs(int argc, char** argv);

// The background child's argv[1..] (without its --ready-fd): the same
// recording, every option spelled out, the output made absolute.
std::vector<std::string> ChildArgs(const RecordConfig& config, const std::string& output);

}  // namespace pm
