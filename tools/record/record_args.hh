// `perfmonger record`'s command line: parsed into a RecordConfig plus the
// options that pick another mode (help, background launch, status, kill).
// Its option table (tools/record/record_options.cc) is also where stat and live
// take the recording options from.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/record_config.hh"
#include "tools/option_table.hh"

namespace pm {

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
  // The recording options as given, `--name[=value]`, for the background
  // child (OptionInfo::to_child); -l is left to ChildArgs.
  std::vector<std::string> child_options;
};

// The option table (data: tools/command_catalog.hh walks it).
const Command<RecordArgs>& RecordCommand();

// Entries of record's table by name, in the order named (stat and live
// list the ones they take), and the collectors' --no-X/--record-X flags.
std::vector<Option<RecordArgs>> RecordOptions(std::initializer_list<std::string_view> names);
std::vector<Option<RecordArgs>> CollectorOptions();

// Throws UsageError naming the fix (exit 1).
RecordArgs ParseRecordArgs(int argc, char** argv);

// After record's options were applied (by record's table or one that lifts
// them): defaults that depend on other options, the combinations that make
// no sense, the child's options. Throws UsageError.
void FinishRecordArgs(RecordArgs& args, const std::vector<Occurrence>& given);

// The background child's argv[1..] (without its --ready-fd): the user's
// recording options as given, the output made absolute.
std::vector<std::string> ChildArgs(const RecordArgs& args, const std::string& output);

}  // namespace pm
