#include "tools/summary_cli.hh"

#include <cstdio>
#include <string>
#include <utility>

#include "common/io.hh"
#include "proto/summary.hh"
#include "tools/pager.hh"
#include "tools/reader_args.hh"
#include "tools/recording_input.hh"

namespace pm {
namespace {

using Item = RecordingReader::Item;

// The first and the last sample; memory stays flat whatever the length.
struct Ends {
  RawSample first;
  RawSample slots[2];  // the last one read, and the one being read
  int last = -1;
  uint64_t count = 0;
};

void ReadEnds(RecordingInput& input, Ends& ends) {
  RecordingEvent event;
  int next = 0;
  for (;;) {
    Item item = input.Next(ends.slots[next], event);
    if (item == Item::kEnd) return;
    if (item != Item::kSample) continue;  // pauses: issue 4 refines the span
    if (ends.count++ == 0) ends.first = ends.slots[next];
    ends.last = next;
    next ^= 1;
  }
}

int Summarize(const SummaryArgs& args) {
  RecordingInput input(args.file);
  if (!input.Open()) {
    Note("summary", input.name() + " is empty: nothing to summarize");
    return 0;
  }
  Ends ends;
  ReadEnds(input, ends);
  input.WarnIfTruncated();
  if (ends.count == 0) {
    Note("summary", input.name() + " has no samples: nothing to summarize");
    return 0;
  }
  if (ends.count == 1)
    Note("summary", input.name() + " has a single sample: no rates to average");

  SummaryInput in;
  in.title_file = args.file;
  in.first = &ends.first;
  in.last = &ends.slots[ends.last];
  in.meta = input.info().meta;
  in.all = args.all;
  in.disk_only = args.disk_only ? &*args.disk_only : nullptr;
  if (args.json) {
    WriteAll(1, SummaryJson(in));
    return 0;
  }
  std::string pager =
      args.no_pager ? std::string() : PagerCommand(args.pager ? &*args.pager : nullptr);
  ShowPaged(SummaryText(in), pager);
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
