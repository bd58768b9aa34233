#include "tools/readers/reader_args.hh"

#include "tools/readers/noise_options.hh"
#include "tools/readers/use_options.hh"

#include <charconv>
#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "common/error.hh"
#include "playback/outputs/live_table.hh"
#include "playback/outputs/export_openmetrics.hh"
#include "tools/readers/recording_input.hh"
#include "tools/readers/window_args.hh"

namespace pm {
namespace {

constexpr char kPlayAbout[] =
    R"(Print one JSON line per pair of consecutive samples of a recording (native
.pgr or PerfMonger's legacy format; plain, gzip or zstd): rates in
PerfMonger's schema. FILE '-' or none: standard input; several FILEs or a
DIR: one timeline, ordered by start, never rated across a gap. Metadata, marks and
warnings go to standard error; standard output holds only JSON lines.
No line spans a pause: the pair across a pause->resume is never printed.
)";

constexpr char kPlayFooter[] =
    R"(Exit status: 0 played (a truncated recording too, with a warning), 1 usage
error or unreadable input, 2 corrupt recording.
)";

constexpr char kSummaryAbout[] =
    R"(Summarize a recording: average CPU, disk (and, with --all, network and
memory) usage between its first and last samples, then its metadata.
FILE '-' is standard input; several FILEs or a DIR: one timeline, ordered
by start, never rated across a gap. Alias: summarize.

Pauses: averages cover the active (unpaused) time only, and "Duration" is
that active time; a line "Paused: SECONDS sec" follows it (JSON:
"paused_time") when the recording was paused.
)";

constexpr char kSummaryFooter[] =
    R"(The pager runs only when standard output is a terminal.
Exit status: 0 summarized (a truncated recording too, with a warning), 1
usage error or unreadable input, 2 corrupt recording.
)";

DiskFilter DiskRegex(std::string_view text) {
  try {
    return DiskFilter(std::string(text));
  } catch (const std::invalid_argument& e) {
    throw UsageError("--disk-only '" + std::string(text) +
                     "': not a regular expression (" + e.what() + ")");
  }
}

template <class Args>
Option<Args> Opt(OptionInfo info, std::function<void(Args&, const Given&)> apply) {
  return MakeOption<Args>(std::move(info), std::move(apply));
}

PlayFormat ParseFormat(std::string_view text) {
  if (text == "json") return PlayFormat::kJson;
  if (text == "csv") return PlayFormat::kCsv;
  if (text == "openmetrics") return PlayFormat::kOpenMetrics;
  if (text == "table") return PlayFormat::kTable;
  if (text == "columns") return PlayFormat::kColumns;
  throw UsageError("--format '" + std::string(text) +
                   "': give json, csv, openmetrics, table or columns (see perfmonger play --help)");
}

// --label KEY=VALUE: a name every series can take, once, with a value.
std::pair<std::string, std::string> ParseLabel(std::string_view text, const PlayArgs& a) {
  size_t eq = text.find('=');
  std::string name(text.substr(0, eq));
  std::string at = "--label '" + std::string(text) + "': ";
  if (eq == std::string_view::npos) throw UsageError(at + "give KEY=VALUE");
  if (std::string why = LabelNameProblem(name); !why.empty())
    throw UsageError(at + name + ": " + why);
  if (eq + 1 == text.size()) throw UsageError(at + "give a value (an empty one is no label)");
  for (const auto& given : a.labels)
    if (given.first == name) throw UsageError(at + name + " is given twice");
  return {name, std::string(text.substr(eq + 1))};
}

// --columns host,run,phase: each known, each once.
std::vector<CsvKey> ParseColumns(std::string_view text) {
  std::vector<CsvKey> out;
  for (size_t start = 0;;) {
    size_t comma = text.find(',', start);
    std::string_view name = text.substr(start, comma - start);
    std::optional<CsvKey> key = CsvKeyNamed(name);
    if (!key)
      throw UsageError("--columns '" + std::string(text) + "': '" + std::string(name) +
                       "' is none of host, run, phase");
    if (std::find(out.begin(), out.end(), *key) != out.end())
      throw UsageError("--columns '" + std::string(text) + "': " + std::string(name) +
                       " is given twice");
    out.push_back(*key);
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

// --columns: csv's leading columns, or the table's groups.
void ReadColumns(PlayArgs& a) {
  if (!a.columns_given) return;
  if (a.format == PlayFormat::kCsv) {
    a.columns = ParseColumns(*a.columns_given);
  } else if (a.format == PlayFormat::kTable) {
    a.table_columns = *a.columns_given;
    LiveTable check(a.table_columns);  // throws naming the fix
  } else {
    throw UsageError("--columns adds CSV columns or chooses the table's: add --format csv or --table");
  }
}

// The options that only make sense with some formats.
void CheckFormatOptions(PlayArgs& a) {
  const bool json = a.format == PlayFormat::kJson, table = a.format == PlayFormat::kTable;
  if (!json && (a.events || a.pretty))
    throw UsageError(std::string(a.events ? "--events" : "--pretty") +
                     " shapes JSON lines: not with --format csv, openmetrics or table");
  if (!json && !table && a.color != ColorWhen::kUnset)
    throw UsageError("--color colours JSON lines or the table: not with --format csv or openmetrics");
  ReadColumns(a);
  if (a.format != PlayFormat::kOpenMetrics && (a.instance || a.job || !a.labels.empty()))
    throw UsageError(std::string(a.instance ? "--instance" : a.job ? "--job" : "--label") +
                     " labels OpenMetrics series: add --format openmetrics");
  if (a.top && !table)
    throw UsageError("--top lists the busiest processes under the table's rows: add --table "
                     "(summary --top: over the whole recording)");
  if (a.proctable && a.format != PlayFormat::kCsv)
    throw UsageError("--proctable writes the process table as CSV: add --format csv");
  if (a.proctable && a.columns_given)
    throw UsageError("--columns adds columns to the samples' CSV: not with --proctable");
  if (a.run_key &&
      std::find(a.columns.begin(), a.columns.end(), CsvKey::kRun) == a.columns.end())
    throw UsageError("--run-key names the run column's meta key: add --columns with run");
}

template <class Args>
Option<Args> DiskOnly() {
  return Opt<Args>({.name = "disk-only", .value = "REGEX",
                    .help = "show only the disks whose name matches REGEX"},
                   [](Args& a, const Given& g) { a.disk_only = DiskRegex(g.value); });
}

template <class Args>
Option<Args> Help() {
  return Opt<Args>({.name = "help", .short_name = 'h', .help = "show this help"},
                   [](Args& a, const Given& g) { a.help = g.on; });
}

// play: colour, the table, PerfMonger's layout and the events.
std::vector<Option<PlayArgs>> PlayLookOptions() {
  return {
    Opt<PlayArgs>({.name = "color", .short_name = 'c',
                   .help = "colour (ANSI escapes): always (-c alone), auto or\n"
                           "never; JSON lines are plain unless asked, the\n"
                           "table is coloured on a terminal unless NO_COLOR is\n"
                           "set",
                   .brief = "colour: always (alone), auto or never",
                   .choices = "always auto never"},
                  [](PlayArgs& a, const Given& g) { a.color = ParseColorWhen(g.value, g.on); }),
    Opt<PlayArgs>({.name = "table",
                   .help = "the recording as live's table (--format table): a\n"
                           "row per interval, the header every screenful, an\n"
                           "average row at the end",
                   .brief = "the recording as live's table (--format table)"},
                  [](PlayArgs& a, const Given& g) {
                    if (g.on) a.format = PlayFormat::kTable;
                  }),
    Opt<PlayArgs>({.name = "pretty", .short_name = 'p',
                   .help = "PerfMonger's layout: members wrapped at 80 columns"},
                  [](PlayArgs& a, const Given& g) { a.pretty = g.on; }),
    Opt<PlayArgs>(
        {.name = "events",
         .help = "interleave pause, resume and mark events, in file\n"
                 "order, as JSON lines on standard output:\n"
                 "{\"event\":\"mark\",\"label\":L,\"time\":T,\"elapsed_time\":E}\n"
                 "({\"event\":\"pause\"|\"resume\",\"time\":..,\"elapsed_time\":..});\n"
                 "a recording with the clock's state adds it to the\n"
                 "marks (\"clock\":{...}) and a start and an end line;\n"
                 "without --events, marks go to standard error as\n"
                 "'# mark: LABEL at ELAPSED'",
         .brief = "interleave pause, resume and mark events as JSON"},
        [](PlayArgs& a, const Given& g) { a.events = g.on; })
  };
}

// play --format and the OpenMetrics labels.
std::vector<Option<PlayArgs>> PlayFormatOptions() {
  return {
    Opt<PlayArgs>({.name = "format", .value = "FORMAT",
                   .help = "json (the default: the lines above), csv (one\n"
                           "header row, then one row per line, the same rates;\n"
                           "columns named by their JSON paths) or openmetrics\n"
                           "(the raw counters under node_exporter's metric\n"
                           "names, for promtool tsdb create-blocks-from\n"
                           "openmetrics; spools to $TMPDIR, 8 bytes per sample\n"
                           "and series), table (as --table) or columns (the\n"
                           "CSV's columns as binary float64 arrays behind a\n"
                           "JSON header line, for numpy; spools to $TMPDIR)",
                   .brief = "json (the default), csv, openmetrics, table or columns",
                   .choices = "json csv openmetrics table columns"},
                  [](PlayArgs& a, const Given& g) { a.format = ParseFormat(g.value); }),
    Opt<PlayArgs>({.name = "instance", .value = "NAME",
                   .help = "openmetrics: the instance label (default: the\n"
                           "recording's host)",
                   .brief = "openmetrics: the instance label (default: the host)"},
                  [](PlayArgs& a, const Given& g) { a.instance = g.value; }),
    Opt<PlayArgs>({.name = "job", .value = "NAME",
                   .help = "openmetrics: a job label on every series"},
                  [](PlayArgs& a, const Given& g) { a.job = g.value; }),
    Opt<PlayArgs>({.name = "label", .value = "KEY=VALUE",
                   .help = "openmetrics: a label on every series (repeatable;\n"
                           "a --meta key of that name becomes meta_KEY)",
                   .brief = "openmetrics: a label on every series (repeatable)"},
                  [](PlayArgs& a, const Given& g) {
                    a.labels.push_back(ParseLabel(g.value, a));
                  })
  };
}

// play --format csv's leading columns and its process table.
std::vector<Option<PlayArgs>> PlayCsvOptions() {
  return {
    Opt<PlayArgs>({.name = "columns", .value = "LIST",
                   .help = "csv: leading columns, any of host,run,phase (the\n"
                           "recording's host; the --run-key meta value; the\n"
                           "last mark's label), so that recordings of many\n"
                           "hosts read as one table; table: its groups, as\n"
                           "perfmonger live --columns takes them",
                   .brief = "csv: leading columns from host,run,phase; table: its groups"},
                  [](PlayArgs& a, const Given& g) { a.columns_given = std::string(g.value); }),
    Opt<PlayArgs>({.name = "run-key", .value = "KEY",
                   .help = "csv: the meta key the run column shows (default run)"},
                  [](PlayArgs& a, const Given& g) { a.run_key = g.value; }),
    Opt<PlayArgs>({.name = "proctable",
                   .help = "csv: the process table (record --record-procs)\n"
                           "instead, one row per process and interval:\n"
                           "time,elapsed_time,pid,comm,cpu,usr,sys,rkbyteps,\n"
                           "wkbyteps,rss_kb (play's proctable values)",
                   .brief = "csv: the process table, one row per process and interval"},
                  [](PlayArgs& a, const Given& g) { a.proctable = g.on; }),
    Opt<PlayArgs>({.name = "top", .value = "N",
                   .help = "table: under each row, the N processes that used\n"
                           "the most CPU in its interval, as top lists them\n"
                           "(a recording made with --record-procs; default 5,\n"
                           "0 none)",
                   .brief = "table: the N busiest processes under each row"},
                  [](PlayArgs& a, const Given& g) { a.top = TopCount(g.value, 0); })
  };
}

template <class T>
void Append(std::vector<T>& to, std::vector<T> from) {
  for (T& item : from) to.push_back(std::move(item));
}

Command<PlayArgs> BuildPlay() {
  Command<PlayArgs> c{{"play", "[options] [FILE...|DIR]", kPlayAbout, kPlayFooter},
                      PlayLookOptions()};
  c.options.push_back(DiskOnly<PlayArgs>());
  Append(c.options, PlayFormatOptions());
  Append(c.options, PlayCsvOptions());
  c.options.push_back(Help<PlayArgs>());
  Append(c.options, WindowOptions(&PlayArgs::window));
  return c;
}

// summary's flag `name`, setting `field`.
Option<SummaryArgs> SummaryFlag(std::string_view name, std::string help, std::string_view brief,
                                bool SummaryArgs::*field) {
  return Opt<SummaryArgs>({.name = name, .help = std::move(help), .brief = brief},
                          [field](SummaryArgs& a, const Given& g) { a.*field = g.on; });
}

// summary: its form (JSON, phases) and the blocks it adds.
std::vector<Option<SummaryArgs>> SummaryBlockOptions() {
  return {
    SummaryFlag("json", "one JSON object instead of text", "", &SummaryArgs::json),
    SummaryFlag("phases",
                "one summary per phase: start to the first mark, mark\n"
                "to mark, last mark to the end, each titled by the\n"
                "label of the mark that starts it (\"start\" for the\n"
                "first); with --json an array of objects, each with\n"
                "a \"phase\" key; metadata left out",
                "one summary per phase, phases split at the marks",
                &SummaryArgs::phases),
    SummaryFlag("all", "add network and memory blocks to the text", "", &SummaryArgs::all),
    SummaryFlag("stats",
                "add statistics over every pair of consecutive samples:\n"
                "per series (CPU modes and the busiest core, each\n"
                "disk's IOPS, MiB/s, await, %util and queue, each\n"
                "interface's KiB/s, memory in MiB, pressure, load,\n"
                "processes, cgroups) its mean, min, max and when (play's\n"
                "elapsed_time), p50, p95 and p99 (nearest rank; a\n"
                "rate's mean and ranks weighted by time); per phase\n"
                "with --phases; with --json a \"stats\" member",
                "statistics per series: mean, min, max and when, p50/p95/p99",
                &SummaryArgs::stats),
    Opt<SummaryArgs>({.name = "top", .value = "N",
                      .help = "the N busiest processes by CPU and by I/O, from a\n"
                              "recording made with --record-procs (per phase\n"
                              "with --phases; with --json a \"top\" member)",
                      .brief = "the N busiest processes by CPU and by I/O"},
                     [](SummaryArgs& a, const Given& g) { a.top = TopCount(g.value, 1); })
  };
}

// summary: --stats-grid, --use, --disk-only and the pager.
std::vector<Option<SummaryArgs>> SummaryMoreOptions() {
  return {
    Opt<SummaryArgs>(
        {.name = "stats-grid",
         .help = "--stats on the recording's sampling grid: the samples\n"
                 "marks, pauses and the stop took between two ticks\n"
                 "left out, so every interval is one tick, as sar's\n"
                 "are (a peak then compares with sar's at the same\n"
                 "interval)",
         .brief = "--stats with every interval one tick, as sar's"},
        [](SummaryArgs& a, const Given& g) { a.stats = a.grid = g.on; }),
    SummaryFlag("use",
                "the USE method per resource (CPU and its busiest core,\n"
                "memory, each disk and interface, TCP, each cgroup):\n"
                "utilisation, saturation and errors over every\n"
                "interval, saturated bursts (count, longest, shortest)\n"
                "and a verdict naming the binding resource; per phase\n"
                "with --phases; with --json a \"use\" member",
                "utilisation, saturation, errors and the binding resource",
                &SummaryArgs::use),
    DiskOnly<SummaryArgs>(),
    Opt<SummaryArgs>({.name = "pager", .short_name = 'p', .value = "CMD",
                      .help = "page the text through CMD (default $PAGER, else less)",
                      .completes = Completes::kCommand},
                     [](SummaryArgs& a, const Given& g) { a.pager = g.value; }),
    SummaryFlag("no-pager", "never page", "", &SummaryArgs::no_pager),
    Help<SummaryArgs>()
  };
}

Command<SummaryArgs> BuildSummary() {
  Command<SummaryArgs> c{{"summary", "[options] FILE...|DIR", kSummaryAbout, kSummaryFooter},
                         SummaryBlockOptions()};
  Append(c.options, SummaryMoreOptions());
  Append(c.options, WindowOptions(&SummaryArgs::window));
  for (const Option<NoiseThresholds>& o : NoiseOptions())
    c.options.push_back(Lifted(o, &SummaryArgs::noise));
  for (const Option<UseThresholds>& o : UseOptions())
    c.options.push_back(Lifted(o, &SummaryArgs::use_thresholds));
  return c;
}

}  // namespace

size_t TopCount(std::string_view text, size_t least) {
  size_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < least || n > 1000)
    throw UsageError("--top '" + std::string(text) + "': write a count from " +
                     std::to_string(least) + " to 1000 (e.g. --top 5)");
  return n;
}

const Command<PlayArgs>& PlayCommand() {
  static const Command<PlayArgs> command = BuildPlay();
  return command;
}

const Command<SummaryArgs>& SummaryCommand() {
  static const Command<SummaryArgs> command = BuildSummary();
  return command;
}

PlayArgs ParsePlayArgs(int argc, char** argv) {
  PlayArgs a;
  std::vector<std::string> files = PlayCommand().Parse(argc, argv, a);
  if (a.help) return a;
  CheckFormatOptions(a);
  CheckWindow(a.window);
  CheckJoinable(files, "play");
  if (!files.empty()) a.file = files[0];
  a.files = files;
  return a;
}

SummaryArgs ParseSummaryArgs(int argc, char** argv) {
  SummaryArgs a;
  std::vector<std::string> files = SummaryCommand().Parse(argc, argv, a);
  if (a.help) return a;
  if (files.empty())
    throw UsageError("no recording named: give FILE, or '-' for standard input "
                     "(see perfmonger summary --help)");
  CheckWindow(a.window);
  CheckJoinable(files, "summary");
  a.file = files[0];
  a.files = files;
  return a;
}

}  // namespace pm
