#include "tools/reader_args.hh"

#include <getopt.h>

#include <functional>
#include <string_view>
#include <vector>

#include "common/error.hh"

namespace pm {

const char kPlayUsage[] = R"(Usage: perfmonger play [options] [FILE]

Print one JSON line per pair of consecutive samples of a recording (native
.pgr or PerfMonger's legacy format; plain, gzip or zstd): rates in
PerfMonger's schema. FILE '-' or none: standard input. Metadata, marks and
warnings go to standard error; standard output holds only JSON lines.
No line spans a pause: the pair across a pause->resume is never printed.

Options:
  -c, --color            colour keys, strings and numbers (ANSI escapes)
  -p, --pretty           PerfMonger's layout: members wrapped at 80 columns
      --events           interleave pause, resume and mark events, in file
                         order, as JSON lines on standard output:
                         {"event":"mark","label":L,"time":T,"elapsed_time":E}
                         ({"event":"pause"|"resume","time":..,"elapsed_time":..});
                         without it, marks go to standard error as
                         '# mark: LABEL at ELAPSED'
      --disk-only REGEX  show only the disks whose name matches REGEX
      --format FORMAT    json (the default: the lines above), csv (one
                         header row, then one row per line, the same rates;
                         columns named by their JSON paths) or openmetrics
                         (the raw counters under node_exporter's metric
                         names, for promtool tsdb create-blocks-from
                         openmetrics; spools to $TMPDIR, 8 bytes per sample
                         and series)
      --instance NAME    openmetrics: the instance label (default: the
                         recording's host)
  -h, --help             show this help

Exit status: 0 played (a truncated recording too, with a warning), 1 usage
error or unreadable input, 2 corrupt recording.
)";

const char kSummaryUsage[] = R"(Usage: perfmonger summary [options] FILE

Summarize a recording: average CPU, disk (and, with --all, network and
memory) usage between its first and last samples, then its metadata.
FILE '-' is standard input. Alias: summarize.

Pauses: averages cover the active (unpaused) time only, and "Duration" is
that active time; a line "Paused: SECONDS sec" follows it (JSON:
"paused_time") when the recording was paused.

Options:
      --json             one JSON object instead of text
      --phases           one summary per phase: start to the first mark, mark
                         to mark, last mark to the end, each titled by the
                         label of the mark that starts it ("start" for the
                         first); with --json an array of objects, each with
                         a "phase" key; metadata left out
      --all              add network and memory blocks to the text
      --disk-only REGEX  show only the disks whose name matches REGEX
  -p, --pager CMD        page the text through CMD (default $PAGER, else less)
      --no-pager         never page
  -h, --help             show this help

The pager runs only when standard output is a terminal.
Exit status: 0 summarized (a truncated recording too, with a warning), 1
usage error or unreadable input, 2 corrupt recording.
)";

namespace {

enum LongOnly { kDiskOnly = 256, kJson, kAll, kNoPager, kPhases, kEvents, kFormat, kInstance };

const struct option kPlayOptions[] = {
    {"color", no_argument, nullptr, 'c'},
    {"pretty", no_argument, nullptr, 'p'},
    {"events", no_argument, nullptr, kEvents},
    {"disk-only", required_argument, nullptr, kDiskOnly},
    {"format", required_argument, nullptr, kFormat},
    {"instance", required_argument, nullptr, kInstance},
    {"help", no_argument, nullptr, 'h'},
    {nullptr, 0, nullptr, 0},
};

const struct option kSummaryOptions[] = {
    {"json", no_argument, nullptr, kJson},
    {"all", no_argument, nullptr, kAll},
    {"phases", no_argument, nullptr, kPhases},
    {"disk-only", required_argument, nullptr, kDiskOnly},
    {"pager", required_argument, nullptr, 'p'},
    {"no-pager", no_argument, nullptr, kNoPager},
    {"help", no_argument, nullptr, 'h'},
    {nullptr, 0, nullptr, 0},
};

DiskFilter DiskRegex(const char* text) {
  try {
    return DiskFilter(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--disk-only '") + text +
                     "': not a regular expression (" + e.what() + ")");
  }
}

PlayFormat ParseFormat(std::string_view text) {
  if (text == "json") return PlayFormat::kJson;
  if (text == "csv") return PlayFormat::kCsv;
  if (text == "openmetrics") return PlayFormat::kOpenMetrics;
  throw UsageError("--format '" + std::string(text) +
                   "': give json, csv or openmetrics (see perfmonger play --help)");
}

// The options that only make sense with some formats.
void CheckFormatOptions(const PlayArgs& a) {
  if (a.format != PlayFormat::kJson && (a.events || a.pretty || a.color))
    throw UsageError(std::string(a.events ? "--events" : a.pretty ? "--pretty" : "--color") +
                     " shapes JSON lines: not with --format csv or openmetrics");
  if (a.instance && a.format != PlayFormat::kOpenMetrics)
    throw UsageError("--instance labels OpenMetrics series: add --format openmetrics");
}

// getopt_long with record's wording for mistakes; `apply` takes each
// option, the operands are returned.
std::vector<std::string> Parse(int argc, char** argv, const char* shortopts,
                               const struct option* longopts, std::string_view command,
                               const std::function<void(int, const char*)>& apply) {
  std::string see = " (see perfmonger " + std::string(command) + " --help)";
  optind = 0;  // 0: glibc re-reads the "+" (no permutation) of each call
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, shortopts, longopts, nullptr)) != -1) {
    if (opt == '?' || opt == ':') {
      bool short_option = optopt > 0 && optopt < 256;
      std::string name = short_option ? std::string("-") + static_cast<char>(optopt)
                                      : std::string(argv[optind - 1]);
      throw UsageError(std::string(opt == ':' ? "option needs a value: "
                                              : "unknown option: ") + name + see);
    }
    apply(opt, optarg);
  }
  return std::vector<std::string>(argv + optind, argv + argc);
}

}  // namespace

PlayArgs ParsePlayArgs(int argc, char** argv) {
  PlayArgs a;
  std::vector<std::string> files =
      Parse(argc, argv, ":cph", kPlayOptions, "play", [&a](int opt, const char* arg) {
        switch (opt) {
          case 'c': a.color = true; break;
          case 'p': a.pretty = true; break;
          case kEvents: a.events = true; break;
          case 'h': a.help = true; break;
          case kDiskOnly: a.disk_only = DiskRegex(arg); break;
          case kFormat: a.format = ParseFormat(arg); break;
          case kInstance: a.instance = arg; break;
        }
      });
  if (a.help) return a;
  CheckFormatOptions(a);
  if (files.size() > 1)
    throw UsageError("one recording at a time: unexpected '" + files[1] +
                     "' (see perfmonger play --help)");
  if (!files.empty()) a.file = files[0];
  return a;
}

SummaryArgs ParseSummaryArgs(int argc, char** argv) {
  SummaryArgs a;
  std::vector<std::string> files =
      Parse(argc, argv, ":p:h", kSummaryOptions, "summary", [&a](int opt, const char* arg) {
        switch (opt) {
          case 'p': a.pager = arg; break;
          case 'h': a.help = true; break;
          case kJson: a.json = true; break;
          case kAll: a.all = true; break;
          case kPhases: a.phases = true; break;
          case kNoPager: a.no_pager = true; break;
          case kDiskOnly: a.disk_only = DiskRegex(arg); break;
        }
      });
  if (a.help) return a;
  if (files.empty())
    throw UsageError("no recording named: give FILE, or '-' for standard input "
                     "(see perfmonger summary --help)");
  if (files.size() > 1)
    throw UsageError("one recording at a time: unexpected '" + files[1] +
                     "' (see perfmonger summary --help)");
  a.file = files[0];
  return a;
}

}  // namespace pm
