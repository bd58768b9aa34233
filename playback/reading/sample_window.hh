// A time window over a recording (`--from`, `--to`, `--phase` on every
// reader): which of its items, in file order, a reader sees: the samples
// and events whose time lies in [from, to], both ends included, and
// nothing else. Elapsed times still count from the recording's origin
// (SampleStream::origin: its first item, or the origin a cut's header
// keeps), so a window lines up with the whole recording and with any
// other window of it; what it gives is what the recording cut there by
// `perfmonger cat --from/--to` gives.
//
// Bounds:
//   elapsed     seconds after the recording's origin (play's elapsed_time
//               0)
//   wall clock  an absolute instant (RFC 3339)
//   time of day the first instant with that local time of day at or after
//               the recording's origin (a recording past midnight
//               reaches the next day)
//   mark        the instant of the first mark with that label; for `to`,
//               the first such mark at or after `from`
//   phase       from a mark to the next mark (of any label), or the end
//
// The window decides item by item and keeps nothing but the bounds, so
// memory stays flat. A mark's sample is written just before its event, at
// the same instant: while `from` waits for a mark, the caller holds the
// latest sample back (Verdict::kHold) and asks Admits() once the mark has
// come. Finish() names what was asked for and not found.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "playback/reading/raw_sample.hh"
#include "playback/reading/time_cuts.hh"

namespace pm {

struct WindowBound {
  enum class Kind { kOpen, kElapsed, kWallClock, kTimeOfDay, kMark };
  Kind kind = Kind::kOpen;
  int64_t ns = 0;      // elapsed, Unix ns, or ns since local midnight
  std::string mark;    // kMark: the label
  std::string given;   // as the user wrote it, for messages ("--from 1m30s")
};

struct WindowSpec {
  WindowBound from, to;
  std::optional<std::string> phase;  // --phase LABEL

  bool whole() const {
    return from.kind == WindowBound::Kind::kOpen && to.kind == WindowBound::Kind::kOpen &&
           !phase;
  }
};

class SampleWindow {
 public:
  // `origin_ns`: a cut's header origin (RecordingInfo::origin); none: the
  // first item's time.
  explicit SampleWindow(WindowSpec spec, std::optional<int64_t> origin_ns = std::nullopt)
      : spec_(std::move(spec)), given_origin_ns_(origin_ns) {}

  enum class Verdict { kDrop, kKeep, kHold };
  // Each item in file order. kHold: `from` waits for a mark; keep the
  // sample aside (replacing one held before) until the next event.
  Verdict OnSample(int64_t t_ns);
  Verdict OnEvent(const RecordingEvent& e);
  // After OnEvent: whether a sample held back at `t_ns` is inside (it
  // goes before the event). Counts it when it is.
  bool Admits(int64_t t_ns);

  // The window's start is known (a mark it waited for came).
  bool from_known() const { return from_known_; }
  // The cuts once known (summary's skim splits its runs at them).
  const TimeCuts& cuts() const { return cuts_; }

  // After the last item: throws UsageError when a mark asked for never
  // came (naming the marks that did) or the window holds no sample
  // (naming the recording's span).
  void Finish() const;

 private:
  void Start(int64_t t_ns);
  void OnMark(const RecordingEvent& e);
  bool Inside(int64_t t_ns) const;
  std::string Marks() const;
  std::string Span() const;
  std::string Asked() const;

  WindowSpec spec_;
  TimeCuts cuts_;
  bool started_ = false;
  bool from_known_ = false;
  bool to_known_ = false;
  std::optional<int64_t> given_origin_ns_;
  int64_t origin_ns_ = 0;
  std::optional<int64_t> first_sample_ns_, last_sample_ns_;
  uint64_t kept_ = 0;
  std::vector<std::string> marks_;  // the first 21 distinct labels, for the error
};

// The first instant at or after `origin_ns` whose local time of day (TZ)
// is `of_day_ns` after midnight.
int64_t NextTimeOfDay(int64_t origin_ns, int64_t of_day_ns);

}  // namespace pm
