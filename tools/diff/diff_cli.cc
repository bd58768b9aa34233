#include "tools/diff/diff_cli.hh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "common/error.hh"
#include "common/io.hh"
#include "playback/statistics/diff_output.hh"
#include "tools/diff/diff_report.hh"
#include "tools/diff/diff_runs.hh"
#include "proto/text.hh"
#include "tools/plot/plot_gnuplot.hh"
#include "tools/plot/plot_stop.hh"
#include "tools/readers/recording_input.hh"

namespace pm {
namespace {

constexpr char kDiffAbout[] =
    R"(Compare recordings, phase by phase: for every series summary --stats keeps
(CPU modes, each disk's and interface's rates, memory, pressure, load,
paging, TCP, processes, cgroups; a rate per second also as its total over
the phase, NAME.total), each side's mean, p50, p95 and p99, the change
absolute and relative with its 95 % confidence interval, and whether it is
significant. Phases are matched by mark label (the k-th phase of a label
with the k-th), or with --align time by the first run's marks' times.

With two or more runs a side (A1 A2 A3 -- B1 B2 B3) the unit is the run:
one aggregate per run and phase, compared by Welch's t (or Mann-Whitney U).
With one run on a side the test is within-run, a moving-block bootstrap
over the series: it says whether these runs differ, not whether the code
does. Benjamini-Hochberg controls the false discovery rate across every
series and phase. What one side recorded and the other did not (another
collector set, another host's devices) is listed as not compared.
)";

constexpr char kDiffFooter[] =
    R"(Exit status: 0 compared, 1 usage error or unreadable input, 2 a corrupt
recording (lines lost to damage: after the output), 3 a significant change
passed a --fail-on rule.
)";

double ParseFdr(std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  const double q = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !(q > 0 && q < 1))
    throw UsageError("--fdr '" + s + "': a rate between 0 and 1, e.g. --fdr 0.05");
  return q;
}

// The position of `value` among `choices` (space-separated); throws
// UsageError naming them.
size_t Choice(std::string_view option, std::string_view value, std::string_view choices) {
  size_t index = 0;
  for (size_t at = 0; at <= choices.size(); ++index) {
    const size_t end = std::min(choices.find(' ', at), choices.size());
    if (choices.substr(at, end - at) == value) return index;
    at = end + 1;
  }
  throw UsageError("--" + std::string(option) + " '" + std::string(value) + "': one of " +
                   std::string(choices));
}

void Add(Command<DiffArgs>& c, OptionInfo info,
         std::function<void(DiffArgs&, const Given&)> apply) {
  c.options.push_back(MakeOption<DiffArgs>(std::move(info), std::move(apply)));
}

// How the runs are matched, tested and printed.
void AddComparisonOptions(Command<DiffArgs>& c) {
  Add(c, {.name = "align", .value = "HOW",
          .help = "match phases by mark 'label' (default), or by 'time':\n"
                  "every run cut where the first run's marks were",
          .brief = "match phases by mark label or by the first run's times",
          .choices = "label time"},
         [](DiffArgs& a, const Given& g) {
           a.align_time = Choice("align", g.value, "label time");
         });
  Add(c, {.name = "format", .value = "FMT", .help = "text (default), json or csv",
          .choices = "text json csv"},
         [](DiffArgs& a, const Given& g) {
           a.format = static_cast<DiffFormat>(Choice("format", g.value, "text json csv"));
         });
  Add(c, {.name = "json", .help = "one JSON object (--format json)"},
         [](DiffArgs& a, const Given& g) { if (g.on) a.format = DiffFormat::kJson; });
  Add(c, {.name = "test", .value = "TEST",
          .help = "run-level test: welch (Welch's t, default) or mwu\n"
                  "(Mann-Whitney U); one run a side: the block bootstrap",
          .brief = "run-level test: Welch's t or Mann-Whitney U",
          .choices = "welch mwu"},
         [](DiffArgs& a, const Given& g) {
           a.test = static_cast<RunTest>(Choice("test", g.value, "welch mwu"));
         });
}

// Which series count, and when diff fails.
void AddSelectionOptions(Command<DiffArgs>& c) {
  Add(c, {.name = "fdr", .value = "Q", .help = "false discovery rate (default 0.05)"},
         [](DiffArgs& a, const Given& g) { a.fdr = ParseFdr(g.value); });
  Add(c, {.name = "series", .value = "GLOB",
          .help = "compare only the series matching GLOB (repeatable):\n"
                  "fewer tests, more power for the ones that matter",
          .brief = "compare only the series matching GLOB (repeatable)"},
         [](DiffArgs& a, const Given& g) { a.series.emplace_back(g.value); });
  Add(c, {.name = "fail-on", .value = "RULE",
          .help = "exit 3 when a significant change passes RULE, e.g.\n"
                  "'disk.*.wmibps>+10%' or 'cpu.all.usr<-5' (repeatable)",
          .brief = "exit 3 when a significant change passes RULE"},
         [](DiffArgs& a, const Given& g) { a.fail_on.push_back(ParseFailOn(g.value)); });
  Add(c, {.name = "report", .value = "FILE",
          .help = "also write an HTML page: the changes, then a chart per\n"
                  "family with B's first run overlaid on A's first",
          .brief = "an HTML page: the changes and the runs' charts overlaid"},
         [](DiffArgs& a, const Given& g) { a.report = std::string(g.value); });
  Add(c, {.name = "help", .short_name = 'h', .help = "show this help"},
         [](DiffArgs& a, const Given& g) { a.help = g.on; });
}

Command<DiffArgs> BuildDiffCommand() {
  Command<DiffArgs> c{{"diff", "[options] A.pgr B.pgr | A1 A2 ... -- B1 B2 ...", kDiffAbout,
                       kDiffFooter},
                      {}};
  AddComparisonOptions(c);
  AddSelectionOptions(c);
  return c;
}

// Options parse on either side of "--": the files before are A, after B.
std::vector<std::string> ParseHalf(const std::vector<char*>& argv, DiffArgs& a) {
  std::vector<char*> args = argv;
  args.push_back(nullptr);
  return DiffCommand().Parse(static_cast<int>(argv.size()), args.data(), a);
}

}  // namespace

const Command<DiffArgs>& DiffCommand() {
  static const Command<DiffArgs> command = BuildDiffCommand();
  return command;
}

DiffArgs ParseDiffArgs(int argc, char** argv) {
  DiffArgs a;
  std::vector<char*> before(argv, argv + argc), after;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") != 0) continue;
    before.assign(argv, argv + i);
    after.assign(argv + i + 1, argv + argc);
    after.insert(after.begin(), argv[0]);
    break;
  }
  a.a = ParseHalf(before, a);
  if (!after.empty()) a.b = ParseHalf(after, a);
  if (a.help) return a;
  if (after.empty() && a.a.size() == 2) a.b = {a.a[1]}, a.a.resize(1);
  if (a.a.empty() || a.b.empty())
    throw UsageError("two sides to compare: A.pgr B.pgr, or A1 A2 ... -- B1 B2 ... "
                     "(see perfmonger diff --help)");
  return a;
}

namespace {

// Every run, A's then B's, on a thread per core; with --align time the
// first run is read first, as its marks cut the others.
std::vector<RunStats> ReadSides(const DiffArgs& args, const RunReading& first,
                                const RunReading& rest, bool& damaged) {
  std::vector<std::string> files = args.a;
  files.insert(files.end(), args.b.begin(), args.b.end());
  const unsigned threads = std::thread::hardware_concurrency();
  if (!args.align_time) return ReadRuns(files, rest, damaged, threads);
  std::vector<RunStats> out;
  out.push_back(ReadRun(files.front(), first, damaged));
  files.erase(files.begin());
  for (RunStats& run : ReadRuns(files, rest, damaged, threads)) out.push_back(std::move(run));
  return out;
}

// Every run of both sides; with --align time the first run of A is cut at
// its own marks, and gives their times to cut the others at.
int Compare(const DiffArgs& args) {
  if (!args.report.empty()) CheckReport(args.report, args.a.front(), args.b.front());
  const bool keep = args.a.size() < 2 || args.b.size() < 2;
  std::vector<TimeCut> cuts;
  const RunReading first{keep, nullptr, args.align_time ? &cuts : nullptr};
  const RunReading rest{keep, args.align_time ? &cuts : nullptr, nullptr};
  bool damaged = false;
  std::vector<RunStats> a, b;
  for (RunStats& run : ReadSides(args, first, rest, damaged))
    (a.size() < args.a.size() ? a : b).push_back(std::move(run));
  const DiffResult result = Diff(a, b, {args.test, args.fdr, args.series});
  const DiffSides sides{args.a, args.b};
  switch (args.format) {
    case DiffFormat::kText: WriteAll(1, DiffText(result, sides)); break;
    case DiffFormat::kJson: WriteAll(1, DiffJson(result, sides)); break;
    case DiffFormat::kCsv: WriteAll(1, DiffCsv(result)); break;
  }
  if (!args.report.empty())
    WriteDiffReport({args.report, args.a.front(), args.b.front(), args.align_time,
                     DiffText(result, sides)});
  const std::vector<std::string> failed = FailedRules(result, args.fail_on);
  for (const std::string& line : failed) Note("diff", "fail: " + line);
  if (damaged) return 2;
  return failed.empty() ? 0 : 3;
}

}  // namespace

int DiffMain(int argc, char** argv) {
  return RunReaderCommand("diff", [&] {
    DiffArgs args = ParseDiffArgs(argc, argv);
    if (args.help) {
      std::fputs(DiffCommand().Usage().c_str(), stdout);
      return 0;
    }
    try {
      return Compare(args);
    } catch (const ChartError& e) {  // gnuplot's own message: escaped whole
      std::fprintf(stderr, "perfmonger diff: error: %s\n", Printable(e.what()).c_str());
      return 1;
    } catch (const PlotStopped& e) {
      DieBy(e.signo());  // the scratch directory is gone
    }
  });
}

}  // namespace pm
