// Everything `perfmonger record` was asked to do, as parsed from its
// command line (tools/record/record_cli.cc) and before any check of the system.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/collect/collector_set.hh"
#include "daemon/rotation.hh"

namespace pm {

struct RecordConfig {
  std::string output = "perfmonger.pgr.gz";
  bool no_gzip = false;            // plain output whatever the name
  bool no_file = false;            // `live` without -l: no output file at all
  int format_version = 2;          // differences with keyframes; 1: absolute (pgr(5))
  int64_t interval_ns = 1'000'000'000;
  int64_t start_delay_ns = 0;
  int64_t timeout_ns = 0;          // 0 = until stopped
  CollectorOptions collectors;
  bool process_table = false;     // --record-procs: every active process (process_table.hh)
  std::vector<std::string> meta_args;  // raw `key=value`, decoded at setup
  std::optional<int> ready_fd;
  std::optional<int> stop_fd;
  std::optional<int> cmd_fd;       // commands in (DESIGN §5)
  std::optional<int> ack_fd;       // one reply per command out
  bool start_paused = false;       // header and ready line; samples from `resume`
  RotatePolicy rotate;             // --rotate/--keep: `output` is a directory
  std::string root = "/";          // proc/ and sys/ are read below it
  bool session = false;            // the child of --background: holds the
                                   // session lock and pidfile while it runs
};

}  // namespace pm
