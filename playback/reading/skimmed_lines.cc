#include "playback/reading/skimmed_lines.hh"

#include <cstdint>
#include <utility>

#include "proto/pgr_format.hh"

namespace pm {
namespace {

bool IsSampleLine(std::string_view line) { return line.starts_with(kSampleLineStart); }

}  // namespace

std::optional<int64_t> LeadingInteger(std::string_view line, size_t at) {
  bool negative = at < line.size() && line[at] == '-';
  at += negative;
  uint64_t value = 0;
  size_t digits = 0;
  for (; at < line.size() && line[at] >= '0' && line[at] <= '9'; ++at, ++digits) {
    if (digits == 19) return std::nullopt;  // past int64 (19 digits fit in uint64)
    value = value * 10 + static_cast<uint64_t>(line[at] - '0');
  }
  if (digits == 0 || value > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  int64_t v = static_cast<int64_t>(value);
  return negative ? -v : v;
}

std::optional<std::string_view> NextOrKeepError(LineReader& lines, bool held,
                                                std::exception_ptr& failed) {
  if (failed) std::rethrow_exception(std::exchange(failed, nullptr));
  try {
    return lines.Next();
  } catch (...) {
    if (!held) throw;
    failed = std::current_exception();
    return std::nullopt;
  }
}

std::optional<std::string_view> SkimmedLines::Next() {
  if (deferred_) {
    std::string_view line = *deferred_;
    deferred_.reset();
    return Hand(line, deferred_sample_);
  }
  while (std::optional<std::string_view> line = NextOrKeepError(lines_, held_, failed_)) {
    bool sample = IsSampleLine(*line);
    if (sample && in_run_ && !Cut(*line) && Vouches(*line)) {
      if (held_) ++skipped_;  // a later one is the run's last now
      held_ = true;
      held_number_ = lines_.line_number();
      held_offset_ = lines_.line_offset();
      continue;
    }
    in_run_ = sample;
    if (held_) {
      deferred_ = *line;
      deferred_sample_ = sample;
      return TakeHeld();
    }
    return Hand(*line, sample);
  }
  if (held_) return TakeHeld();
  return std::nullopt;
}

// A false from Skim (as from Follow) leaves the baseline's text (the held line) in place,
// but only Split may follow.
bool SkimmedLines::Vouches(std::string_view line) {
  if (!have_baseline_) return false;
  have_baseline_ = baseline_.Skim(line);
  return have_baseline_;
}

// Whether `line` lies across a cut from the sample line before it (or its
// time does not read: the full parse will say why).
bool SkimmedLines::Cut(std::string_view line) const {
  if (cuts_ == nullptr || !cuts_->any()) return false;
  std::optional<int64_t> t = LeadingInteger(line, kSampleLineStart.size());
  std::optional<int64_t> before = LeadingInteger(baseline_.Text(), kSampleLineStart.size());
  return !t || !before || cuts_->Region(*t) != cuts_->Region(*before);
}

// `line` goes to the full parse; a sample's shape is what the lines after
// it are walked against (most often the shape before: a walk, no split).
std::string_view SkimmedLines::Hand(std::string_view line, bool sample) {
  if (sample) have_baseline_ = Vouches(line) || baseline_.Split(line);
  number_ = lines_.line_number();
  offset_ = lines_.line_offset();
  return line;
}

std::string_view SkimmedLines::TakeHeld() {
  held_ = false;
  number_ = held_number_;
  offset_ = held_offset_;
  return baseline_.Text();
}

}  // namespace pm
