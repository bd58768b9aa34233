// What summary prints for a recording, read in full or skimmed
// (test_skimmed_reading.cc, test_skimmed_deltas.cc).
#pragma once

#include <string>

#include "playback/outputs/phases.hh"
#include "playback/reading/recording_reader.hh"
#include "playback/outputs/summary.hh"
#include "proto/stream.hh"

namespace pm::test {

// What summary prints, for the whole recording and each phase (as
// tools/readers/summary_cli.cc assembles it), read one way or the other.
inline std::string Summaries(const std::string& bytes, bool skim) {
  MemoryInputStream in(bytes);
  RecordingReader reader(in);
  if (skim) reader.SkimSamples();
  PhaseWalk walk(true);
  RawSample s;
  RecordingEvent e;
  for (RecordingReader::Item item; (item = reader.Next(s, e)) != RecordingReader::Item::kEnd;)
    item == RecordingReader::Item::kSample ? walk.OnSample(s) : walk.OnEvent(e);
  std::string out = std::to_string(reader.samples_read()) + " samples\n";
  auto report = [&out](const ActiveSpan& span, const char* phase) {
    RawSample end = span.empty() ? RawSample() : span.ActiveEnd();
    SummaryInput in;
    in.first = &span.first();
    in.last = &end;
    in.all = true;
    SummaryPauses p{span.has_pauses(), span.paused_ns(), {}};
    if (phase) p.phase = phase;
    out += SummaryText(in, p) + SummaryJson(in, p);
  };
  report(walk.whole(), nullptr);
  for (const Phase& phase : walk.phases()) report(phase.span, phase.label.c_str());
  return out;
}

}  // namespace pm::test
