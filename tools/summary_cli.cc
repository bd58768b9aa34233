#include "tools/summary_cli.hh"

#include <cstdio>
#include <string>
#include <utility>

#include "common/io.hh"
#include "playback/phases.hh"
#include "playback/summary.hh"
#include "tools/pager.hh"
#include "tools/reader_args.hh"
#include "tools/recording_input.hh"

namespace pm {
namespace {

using Item = RecordingReader::Item;

// Every item through the walk: memory stays flat whatever the length (one
// span per phase with --phases).
void Walk(RecordingInput& input, PhaseWalk& walk) {
  RawSample sample;
  RecordingEvent event;
  for (;;) {
    Item item = input.Next(sample, event);
    if (item == Item::kEnd) return;
    if (item == Item::kSample) walk.OnSample(sample);
    else walk.OnEvent(event);
  }
}

// One summary of `span`; `end` holds its active end.
SummaryInput InputFor(const SummaryArgs& args, const ActiveSpan& span,
                      const RawSample& end) {
  SummaryInput in;
  in.title_file = args.file;
  in.first = &span.first();
  in.last = &end;
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

std::string WholeReport(const SummaryArgs& args, const RecordingInput& input,
                        const ActiveSpan& whole) {
  RawSample end = whole.ActiveEnd();
  SummaryInput in = InputFor(args, whole, end);
  in.meta = input.info().meta;
  SummaryPauses p = PausesOf(whole);
  return args.json ? SummaryJson(in, p) : SummaryText(in, p);
}

// Text: the phases' blocks one after another; JSON: one array. A phase
// without a sample (two marks in one pause) is a zero-length one.
std::string PhaseReport(const SummaryArgs& args, const std::vector<Phase>& phases) {
  std::string out = args.json ? "[" : "";
  for (const Phase& phase : phases) {
    RawSample end = phase.span.empty() ? RawSample() : phase.span.ActiveEnd();
    SummaryInput in = InputFor(args, phase.span, end);
    SummaryPauses p = PausesOf(phase.span);
    p.phase = phase.label;
    if (!args.json) {
      out += SummaryText(in, p);
      continue;
    }
    std::string object = SummaryJson(in, p);
    object.pop_back();  // the newline
    if (out.size() > 1) out.push_back(',');
    out += object;
  }
  if (args.json) out.append("]\n");
  return out;
}

int Summarize(const SummaryArgs& args) {
  RecordingInput input(args.file);
  if (!input.Open()) {
    Note("summary", input.name() + " is empty: nothing to summarize");
    return 0;
  }
  PhaseWalk walk(args.phases);
  Walk(input, walk);
  input.WarnIfTruncated();
  if (walk.whole().empty()) {
    Note("summary", input.name() + " has no samples: nothing to summarize");
    return 0;
  }
  if (input.samples_read() == 1)
    Note("summary", input.name() + " has a single sample: no rates to average");
  std::string report = args.phases ? PhaseReport(args, walk.phases())
                                   : WholeReport(args, input, walk.whole());
  if (args.json) {
    WriteAll(1, report);
    return 0;
  }
  std::string pager =
      args.no_pager ? std::string() : PagerCommand(args.pager ? &*args.pager : nullptr);
  ShowPaged(report, pager);
  return 0;
}

}  // namespace

int SummaryMain(int argc, char** argv) {
  return RunReaderCommand("summary", [&]() {
    SummaryArgs args = ParseSummaryArgs(argc, argv);
    if (args.help) {
      std::fputs(kSummaryUsage, stdout);
      return 0;
    }
    return Summarize(args);
  });
}

}  // namespace pm
