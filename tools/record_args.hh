// `perfmonger record`'s command line: parsed into a RecordConfig plus the
// options that pick another mode (help, background launch, status, kill).
#pragma once

#include <getopt.h>

#include <cstdint>
#include <functional>
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

// `stat` and `live`: record's options through record's table, plus the
// command's own, which take precedence (stat's --json is not --status's).
struct CommandOptions {
  const char* command = "record";         // names the command in messages
  std::string short_options;              // added to record's, e.g. "c"
  std::vector<struct option> long_options;  // vals >= 1000 or a short char
  std::function<void(int opt, const char* arg)> apply;  // one of the above
  bool operands = false;  // options end at the first operand (or `--`)
};
// `first_operand`: the index in argv of the first operand (argc if none).
RecordArgs ParseRecordArgsFor(int argc, char** argv, const CommandOptions& command,
                              int& first_operand);

// The background child's argv[1..] (without its --ready-fd): the same
// recording, every option spelled out, the output made absolute.
std::vector<std::string> ChildArgs(const RecordConfig& config, const std::string& output);

}  // namespace pm
