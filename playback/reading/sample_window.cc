#include "playback/reading/sample_window.hh"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "common/error.hh"
#include "proto/text.hh"

namespace pm {
namespace {

constexpr int64_t kNsPerSec = 1'000'000'000;

std::string Seconds(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e9);
  return buf;
}

// The local midnight of the day `day_offset` days after that of `t_s`,
// plus `of_day_ns`, through mktime (so a day of a DST change is right).
int64_t LocalTimeOfDay(time_t t_s, int day_offset, int64_t of_day_ns) {
  struct tm tm;
  localtime_r(&t_s, &tm);
  int64_t secs = of_day_ns / kNsPerSec;
  tm.tm_mday += day_offset;
  tm.tm_hour = static_cast<int>(secs / 3600);
  tm.tm_min = static_cast<int>(secs / 60 % 60);
  tm.tm_sec = static_cast<int>(secs % 60);
  tm.tm_isdst = -1;
  return static_cast<int64_t>(mktime(&tm)) * kNsPerSec + of_day_ns % kNsPerSec;
}

}  // namespace

int64_t NextTimeOfDay(int64_t origin_ns, int64_t of_day_ns) {
  time_t origin_s = static_cast<time_t>(origin_ns / kNsPerSec);
  int64_t t = LocalTimeOfDay(origin_s, 0, of_day_ns);
  return t >= origin_ns ? t : LocalTimeOfDay(origin_s, 1, of_day_ns);
}

// Time bounds are known from the first item on: elapsed ones count from
// the origin (that item, or a cut's), times of day take its day.
void SampleWindow::Start(int64_t t_ns) {
  started_ = true;
  const int64_t origin = origin_ns_ = given_origin_ns_.value_or(t_ns);
  auto resolve = [origin](const WindowBound& b) -> std::optional<int64_t> {
    switch (b.kind) {
      case WindowBound::Kind::kElapsed: return origin + b.ns;
      case WindowBound::Kind::kWallClock: return b.ns;
      case WindowBound::Kind::kTimeOfDay: return NextTimeOfDay(origin, b.ns);
      default: return std::nullopt;
    }
  };
  from_known_ = !spec_.phase && spec_.from.kind != WindowBound::Kind::kMark;
  if (std::optional<int64_t> from = resolve(spec_.from)) cuts_.from = *from;
  to_known_ = !spec_.phase && spec_.to.kind != WindowBound::Kind::kMark;
  if (std::optional<int64_t> to = resolve(spec_.to)) cuts_.to = *to;
}

bool SampleWindow::Inside(int64_t t_ns) const {
  return from_known_ && cuts_.Region(t_ns) == 1;
}

SampleWindow::Verdict SampleWindow::OnSample(int64_t t_ns) {
  if (!started_) Start(t_ns);
  if (!first_sample_ns_) first_sample_ns_ = t_ns;
  last_sample_ns_ = t_ns;
  if (!from_known_) return Verdict::kHold;
  if (!Inside(t_ns)) return Verdict::kDrop;
  ++kept_;
  return Verdict::kKeep;
}

SampleWindow::Verdict SampleWindow::OnEvent(const RecordingEvent& e) {
  if (!started_) Start(e.time_ns);
  if (e.kind == "mark") OnMark(e);
  return Inside(e.time_ns) ? Verdict::kKeep : Verdict::kDrop;
}

bool SampleWindow::Admits(int64_t t_ns) {
  if (!Inside(t_ns)) return false;
  ++kept_;
  return true;
}

// The mark that opens the window, or the one that closes it: for a phase
// any later mark, else the first `to` mark at or after the start.
void SampleWindow::OnMark(const RecordingEvent& e) {
  // The error lists 20 (Marks()): the first 21 distinct labels are all it
  // needs, and a search of more made a recording of many marks quadratic.
  if (marks_.size() <= 20 && std::find(marks_.begin(), marks_.end(), e.label) == marks_.end())
    marks_.push_back(e.label);
  if (!from_known_) {
    const std::string& opens = spec_.phase ? *spec_.phase : spec_.from.mark;
    if (e.label != opens) return;
    from_known_ = true;
    cuts_.from = e.time_ns;
    return;
  }
  if (to_known_ || e.time_ns < cuts_.from) return;
  if (spec_.phase || e.label == spec_.to.mark) {
    to_known_ = true;
    cuts_.to = e.time_ns;
  }
}

std::string SampleWindow::Marks() const {
  if (marks_.empty()) return "it has no marks";
  std::string out = "its marks: ";
  for (size_t i = 0; i < marks_.size(); ++i) {
    if (i == 20) return out + ", ...";
    out += (i ? ", " : "") + Printable(marks_[i]);
  }
  return out;
}

std::string SampleWindow::Span() const {
  if (!first_sample_ns_) return "the recording has no samples";
  return "the recording's samples span " + Seconds(*first_sample_ns_ - origin_ns_) + "-" +
         Seconds(*last_sample_ns_ - origin_ns_) + " s, elapsed";
}

std::string SampleWindow::Asked() const {
  if (spec_.phase) return "--phase " + Printable(*spec_.phase);
  std::string out;
  if (spec_.from.kind != WindowBound::Kind::kOpen) out = "--from " + Printable(spec_.from.given);
  if (spec_.to.kind != WindowBound::Kind::kOpen)
    out += (out.empty() ? "--to " : " --to ") + Printable(spec_.to.given);
  return out;
}

void SampleWindow::Finish() const {
  if (spec_.whole()) return;
  if (!from_known_) {
    const std::string& label = spec_.phase ? *spec_.phase : spec_.from.mark;
    throw UsageError("no mark '" + Printable(label) + "' for " + Asked() + " (" + Marks() + ")");
  }
  if (!to_known_ && !spec_.phase)
    throw UsageError("no mark '" + Printable(spec_.to.mark) + "' at or after the start of " +
                     Asked() + " (" + Marks() + ")");
  if (kept_ == 0)
    throw UsageError(Asked() + " holds no sample (" + Span() + ")");
}

}  // namespace pm
