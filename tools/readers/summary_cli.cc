#include "tools/readers/summary_cli.hh"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "common/error.hh"
#include "common/io.hh"
#include "playback/reports/cpu_brief.hh"
#include "playback/outputs/phase_cost.hh"
#include "playback/outputs/phases.hh"
#include "playback/outputs/proc_top.hh"
#include "playback/statistics/stats_walk.hh"
#include "playback/outputs/summary.hh"
#include "proto/text.hh"
#include "tools/readers/clock_warning.hh"
#include "tools/readers/pager.hh"
#include "tools/readers/reader_args.hh"
#include "proto/text.hh"
#include "tools/readers/recording_input.hh"

namespace pm {
namespace {

using Item = RecordingReader::Item;

// Every item through the walk: memory stays flat whatever the length (one
// span per phase with --phases); with --stats, through the statistics too.
// Data corrupt beyond a line (one bad byte in a gzip or zstd stream) ends
// the walk with its error, returned: what was read before it is still
// summarized, as play prints it (DESIGN §9).
std::optional<std::string> Walk(RecordingInput& input, PhaseWalk& walk, ClockHistory& clocks,
                                StatsWalk* stats, ProcTop* top) {
  RawSample sample;
  RecordingEvent event;
  try {
    for (bool first = true;; first = false) {
      Item item = input.Next(sample, event);
      if (item == Item::kEnd) return std::nullopt;
      if (first && stats) stats->SetOrigin(TimeOrigin::Of(*input.origin()));  // also a window's
      if (item == Item::kSample) {
        walk.OnSample(sample);
        if (stats) stats->OnSample(sample);
      } else {
        walk.OnEvent(event);
        clocks.OnEvent(event);
        if (stats) stats->OnEvent(event);
        if (top) top->OnEvent(event);
      }
    }
  } catch (const FormatError& e) {
    return e.what();  // named after the input already
  }
}

// The end of a walk cut by corrupt data: one warning instead of the end's
// checks (no trailer was there to read; a window's mark may lie beyond).
void WarnOfCorruption(const RecordingInput& input, const std::string& error) {
  uint64_t n = input.samples_read();
  std::fprintf(stderr, "warning: %s; the summary is of the %llu %s read before it\n",
               Printable(error).c_str(), static_cast<unsigned long long>(n),
               n == 1 ? "sample" : "samples");
}

// What the statistics' reports see of the options (summary's own, as
// playback/outputs/summary.cc gives its reports).
ReportOptions StatsOptions(const SummaryArgs& args, const RecordingInput& input) {
  ReportOptions o;
  o.disk_only = args.disk_only ? &*args.disk_only : nullptr;
  o.all = args.all;
  o.legacy = input.info().legacy();
  o.recorded = &input.info().recorded;
  o.info = &input.info();
  return o;
}

// A native span (or phase) shorter than its CPU time's resolution has CPU
// figures at most that precise (playback/reports/cpu_report.hh): the text says so
// in its CPU block, --json on stderr, once per span.
void NoteShortSpan(const SummaryArgs& args, const RecordingInput& input, const ActiveSpan& span,
                   const RawSample& end, const std::string& what) {
  if (!args.json || input.info().legacy() || span.empty()) return;
  const int64_t ns = IntervalNs(span.first(), end);
  const int64_t resolution = CpuResolutionNs(&input.info());
  if (ns <= 0 || ns >= resolution) return;
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "is shorter than the CPU time's resolution (%.3f ms; it spans %.3f ms): "
                "its CPU figures are at most that precise",
                static_cast<double>(resolution) / 1e6, static_cast<double>(ns) / 1e6);
  Note("summary", input.name() + ": " + what + " " + buf);
}

// One summary of `span`; `end` holds its active end.
SummaryInput InputFor(const SummaryArgs& args, const RecordingInput& input,
                      const ActiveSpan& span, const RawSample& end,
                      const std::string& what = "the recording") {
  SummaryInput in;
  in.title_file = args.file;
  in.recorded = input.info().recorded;
  in.info = &input.info();
  in.legacy = input.info().legacy();
  in.first = &span.first();
  in.last = &end;
  NoteShortSpan(args, input, span, end, what);
  in.all = args.all;
  in.disk_only = args.disk_only ? &*args.disk_only : nullptr;
  return in;
}

SummaryPauses PausesOf(const ActiveSpan& span) {
  SummaryPauses p;
  p.has_pauses = span.has_pauses();
  p.paused_ns = span.paused_ns();
  return p;
}

// summary --top N's block after a summary's text, or its member at the
// end of a summary's JSON object ("}\n").
std::string WithTop(std::string summary, const SummaryArgs& args, const ProcTable* table) {
  if (!table) return summary;
  if (!args.json) return summary + ProcTopText(*table, args.top);
  summary.resize(summary.size() - 2);
  return summary.append(",").append(ProcTopJson(*table, args.top)).append("}\n");
}

std::string WholeReport(const SummaryArgs& args, const RecordingInput& input,
                        const PhaseWalk& walk, const ClockHistory& clocks,
                        const StatsWalk* stats, const ProcTop* top) {
  const ActiveSpan& whole = walk.whole();
  RawSample end = whole.ActiveEnd();
  SummaryInput in = InputFor(args, input, whole, end);
  std::optional<SpanVerdict> verdict;
  if (args.window.whole())  // the scans bracket the recording, not a window
    verdict = JudgeSpan(whole.first(), end, walk.whole_scans(), input.info(), args.noise);
  if (verdict) in.verdict = &*verdict;
  in.meta = input.info().meta;
  // The text's Clock: block with --all only (tools/readers/clock_warning.hh);
  // --json keeps its "clock" object, for the programs that compare hosts.
  if (args.all || args.json) in.clock = &clocks;
  if (stats && args.stats) in.stats = &stats->whole();
  if (stats && args.use) in.use = &stats->use().front();
  SummaryPauses p = PausesOf(whole);
  return WithTop(args.json ? SummaryJson(in, p) : SummaryText(in, p), args,
                 top ? &top->whole() : nullptr);
}

// "Run verdict: NOISY (phases 'a', 'b')"; a run of clean phases says
// nothing more than its phases do.
std::string RunVerdictLine(const std::vector<std::string>& noisy) {
  std::string out = "Run verdict: NOISY (phase";
  out.append(noisy.size() > 1 ? "s " : " ");
  for (size_t i = 0; i < noisy.size(); ++i) {
    out.append(i ? ", '" : "'");
    AppendPrintable(out, noisy[i]);
    out.push_back('\'');
  }
  return out.append(")\n");
}

// Text: the phases' blocks one after another; JSON: one array. A phase
// without a sample (two marks in one pause) is a zero-length one.
std::string PhaseReport(const SummaryArgs& args, const RecordingInput& input,
                        const std::vector<Phase>& phases, const StatsWalk* stats,
                        const ProcTop* top) {
  std::string out = args.json ? "[" : "";
  std::vector<std::string> noisy;  // the phases judged NOISY
  for (size_t i = 0; i < phases.size(); ++i) {
    const Phase& phase = phases[i];
    RawSample end = phase.span.empty() ? RawSample() : phase.span.ActiveEnd();
    SummaryInput in =
        InputFor(args, input, phase.span, end, "phase '" + Printable(phase.label) + "'");
    std::optional<SpanVerdict> verdict;
    if (!phase.span.empty() && args.window.whole())
      verdict = JudgeSpan(phase.span.first(), end, phase.scans, input.info(), args.noise);
    if (verdict) in.verdict = &*verdict;
    if (verdict && verdict->verdict.noisy) noisy.push_back(phase.label);
    if (stats && args.stats) in.stats = &stats->phases()[i];
    if (stats && args.use) in.use = &stats->use_phases()[i];
    SummaryPauses p = PausesOf(phase.span);
    p.phase = phase.label;
    const ProcTable* table = top && i < top->phases().size() ? &top->phases()[i] : nullptr;
    if (!args.json) {
      out += WithTop(SummaryText(in, p), args, table);
      continue;
    }
    std::string object = WithTop(SummaryJson(in, p), args, table);
    object.pop_back();  // the newline
    if (out.size() > 1) out.push_back(',');
    out += object;
  }
  if (args.json) out.append("]\n");
  else if (!noisy.empty()) out += RunVerdictLine(noisy);
  return out;
}

// --json without a sample: still one valid JSON value for the scripts
// that parse it (the reason went to stderr): an object with a zero
// exectime (and the metadata), or no phase at all.
int NothingToSummarize(const SummaryArgs& args, const MetaList& meta,
                       const std::string& why) {
  Note("summary", why);
  if (!args.json) return 0;
  if (args.phases) {
    WriteAll(1, "[]\n");
    return 0;
  }
  RawSample none;
  SummaryInput in;
  in.first = in.last = &none;
  in.meta = meta;
  WriteAll(1, SummaryJson(in));
  return 0;
}

// --stats' and --use's walk over every pair.
void StartStats(std::optional<StatsWalk>& stats, const SummaryArgs& args,
                const RecordingInput& input, const ReportOptions& options) {
  stats.emplace(StatsWalkOptions{.split = args.phases, .grid = args.grid,
                                 .use = args.use ? &args.use_thresholds : nullptr,
                                 .num_core = input.info().num_core},
                options);
}

// The report on standard output: JSON as is, text through the pager.
void Show(const SummaryArgs& args, const std::string& report) {
  if (args.json) {
    WriteAll(1, report);
    return;
  }
  std::string pager =
      args.no_pager ? std::string() : PagerCommand(args.pager ? &*args.pager : nullptr);
  if (std::optional<std::string> why = ShowPaged(report, pager)) Note("summary", *why);
}

int Summarize(const SummaryArgs& args) {
  RecordingInput input(args.files, {args.window});
  if (!input.Open())
    return NothingToSummarize(args, {}, input.name() + " is empty: nothing to summarize");
  // Without --stats or --use the walk needs each span's first and last
  // sample only.
  const bool every_pair = args.stats || args.use;
  if (!every_pair) input.SkimSamples();
  PhaseWalk walk(args.phases);
  ClockHistory clocks(input.info());
  const ReportOptions options = StatsOptions(args, input);
  std::optional<StatsWalk> stats;
  if (every_pair) StartStats(stats, args, input, options);
  std::optional<ProcTop> top;
  if (args.top) top.emplace(args.phases);
  std::optional<std::string> corrupt =
      Walk(input, walk, clocks, stats ? &*stats : nullptr, top ? &*top : nullptr);
  if (stats) stats->Finish();
  if (corrupt) WarnOfCorruption(input, *corrupt);
  else input.Finish();
  const int status = corrupt ? 2 : input.ExitStatus();
  if (args.all) WarnOfClock(input.name(), clocks);  // a lone recording meets no host
  if (walk.whole().empty()) {
    NothingToSummarize(args, input.info().meta,
                       input.name() + " has no samples: nothing to summarize");
    return status;
  }
  if (input.samples() == 1)
    Note("summary", input.name() + " has a single sample: no rates to average");
  const StatsWalk* with = stats ? &*stats : nullptr;
  const ProcTop* tops = top ? &*top : nullptr;
  std::string report = args.phases ? PhaseReport(args, input, walk.phases(), with, tops)
                                   : WholeReport(args, input, walk, clocks, with, tops);
  Show(args, report);
  return status;
}

}  // namespace

int SummaryMain(int argc, char** argv) {
  return RunReaderCommand("summary", [&]() {
    SummaryArgs args = ParseSummaryArgs(argc, argv);
    if (args.help) {
      std::fputs(SummaryCommand().Usage().c_str(), stdout);
      return 0;
    }
    return Summarize(args);
  });
}

}  // namespace pm
