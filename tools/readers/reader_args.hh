// The command lines of `play` and `summary`.
#pragma once

#include "playback/outputs/phase_cost.hh"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "playback/outputs/csv_keys.hh"
#include "playback/reports/disk_filter.hh"
#include "playback/reading/sample_window.hh"
#include "playback/statistics/use_span.hh"
#include "tools/option_table.hh"
#include "tools/output_mode.hh"

namespace pm {

enum class PlayFormat { kJson, kOpenMetrics, kCsv, kTable, kColumns };

struct PlayArgs {
  bool help = false;
  ColorWhen color = ColorWhen::kUnset;  // --color[=WHEN]
  bool pretty = false;
  bool events = false;  // --events: pause/resume/mark as JSON lines on stdout
  PlayFormat format = PlayFormat::kJson;  // --format
  std::optional<std::string> instance;    // --instance (openmetrics)
  std::optional<std::string> job;         // --job (openmetrics)
  std::vector<std::pair<std::string, std::string>> labels;  // --label, checked (openmetrics)
  std::vector<CsvKey> columns;            // --columns (csv), in the order given
  std::string table_columns;              // --columns (table, playback/outputs/live_table.hh)
  std::optional<std::string> columns_given;  // --columns as written: its format reads it
  std::optional<std::string> run_key;     // --run-key (csv, with the run column)
  bool proctable = false;  // --proctable (csv): the process table, long form
  std::optional<size_t> top;  // --top N (table): the busiest processes per row
  std::optional<DiskFilter> disk_only;
  WindowSpec window;  // --from, --to, --phase
  std::string file;  // "" or "-": stdin
  std::vector<std::string> files;  // every FILE or DIR given: one timeline
};

struct SummaryArgs {
  bool help = false;
  bool json = false;
  bool all = false;
  bool phases = false;  // --phases: one summary per phase (marks split)
  bool stats = false;   // --stats: statistics over every pair of samples
  size_t top = 0;       // --top N: the N busiest processes (--record-procs)
  bool grid = false;    // --stats-grid: --stats on the sampling grid
  bool use = false;     // --use: the USE method per resource (playback/statistics/use_span.hh)
  bool no_pager = false;
  std::optional<DiskFilter> disk_only;
  std::optional<std::string> pager;  // -p CMD, over $PAGER
  WindowSpec window;                 // --from, --to, --phase
  std::string file;                  // "-": stdin
  std::vector<std::string> files;    // every FILE or DIR given: one timeline
  NoiseThresholds noise;             // --noisy-cpu, ... (the verdict's)
  UseThresholds use_thresholds;      // --use-busy, ...
};

// The option tables (data: tools/command_catalog.hh walks them).
const Command<PlayArgs>& PlayCommand();
const Command<SummaryArgs>& SummaryCommand();

// The table's process rows under each row, unless --top says otherwise.
constexpr size_t kTableTop = 5;

// --top N: a count from `least` to 1000; throws UsageError naming the fix.
size_t TopCount(std::string_view text, size_t least);

// Both throw UsageError naming the fix (exit 1).
PlayArgs ParsePlayArgs(int argc, char** argv);
SummaryArgs ParseSummaryArgs(int argc, char** argv);

}  // namespace pm
