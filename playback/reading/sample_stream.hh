// What every reader consumes: a recording's items (recording_reader.hh)
// through its time window (sample_window.hh) — one implementation for play
// (JSON, CSV, OpenMetrics, --events), summary (and --phases), cat and
// plot, whatever the recording's format. No sample is left out for being
// close to the one before: a rate an interval cannot define is its
// collector's to leave undefined (null), the others' stand.
//
// Items come in file order, as from the reader, less those outside the
// window. Every reader's elapsed times count from one origin(), window or
// not: the recording's first item, whether the window keeps it or not
// (or the origin a cut's header keeps, sample_window.hh). The one exception
// to order-preserving pass-through: while the window waits for a mark, the
// latest sample is held back and, once the mark opens the window at that
// sample's instant (a mark's own sample), given just before the mark.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "playback/reading/raw_sample.hh"
#include "playback/reading/recording_reader.hh"
#include "playback/reading/sample_window.hh"

namespace pm {

class SampleStream {
 public:
  using Item = RecordingReader::Item;

  struct Options {
    WindowSpec window;   // whole(): every item
    bool texts = false;  // line_text() asked for (cat): a held sample keeps its line
  };

  // `reader` must outlive the stream.
  SampleStream(RecordingReader& reader, Options options);

  Item Next(RawSample& sample, RecordingEvent& event);

  // The window's cuts, for RecordingReader::SkimSamples.
  const TimeCuts* cuts() const { return window_ ? &window_->cuts() : nullptr; }
  // With Options::texts: the line of the item Next() returned
  // (RecordingReader::line_text), a held sample's too.
  std::string_view line_text() {
    return giving_held_ ? std::string_view(held_text_) : reader_.line_text();
  }
  uint64_t samples() const { return samples_; }  // given out
  // Elapsed time 0: the header's origin (RecordingInfo::origin), else the
  // first item read, sample or event; none before it is read.
  const std::optional<ItemTime>& origin() const { return origin_; }
  // After kEnd: SampleWindow::Finish (throws UsageError).
  void Finish() const {
    if (window_) window_->Finish();
  }

 private:
  bool Windowed(RawSample& sample);
  Item Sample();

  RecordingReader& reader_;
  std::optional<SampleWindow> window_;
  bool texts_ = false;
  RawSample held_;
  std::string held_text_;
  bool holding_ = false;
  bool giving_held_ = false;  // the item given last is the held sample
  std::optional<RecordingEvent> pending_;  // given after the held sample
  std::optional<ItemTime> origin_;
  uint64_t samples_ = 0;
};

}  // namespace pm
