#include "playback/reading/skimmed_deltas.hh"

#include "playback/reading/skimmed_lines.hh"

namespace pm {

std::optional<SkimmedDeltas::Line> SkimmedDeltas::Next() {
  if (deferred_) {
    Line line = *deferred_;
    deferred_.reset();
    number_ = lines_.line_number();
    offset_ = lines_.line_offset();
    return line;
  }
  while (std::optional<std::string_view> line = NextOrKeepError(lines_, held_, failed_)) {
    bool delta = DeltaDecoder::IsDelta(*line);
    if (delta && in_run_ && Cut(*line)) return Hand({*line, Line::kRead});
    if (delta && in_run_) {
      if (const char* why = delta_.TrySum(*line)) {
        in_run_ = false;  // no baseline: a loss begins
        return Hand({*line, Line::kRefused, why});
      }
      if (held_) ++skipped_;  // a later one is the run's last now
      held_ = true;
      held_number_ = lines_.line_number();
      held_offset_ = lines_.line_offset();
      continue;
    }
    // A run goes on after a sample the reader will decode: it has the
    // baseline then (or a loss begins, and the next line is refused).
    in_run_ = delta || DeltaDecoder::IsKeyframe(*line);
    return Hand({*line, Line::kRead});
  }
  if (!held_) return std::nullopt;
  return TakeHeld();
}

// Whether difference line `line` lies across a cut from the baseline (or
// its time does not read: decoding it in full will say why).
bool SkimmedDeltas::Cut(std::string_view line) const {
  if (cuts_ == nullptr || !cuts_->any()) return false;
  const Baseline* before = delta_.baseline();
  constexpr std::string_view kTime = "\"t\":";
  std::optional<int64_t> diff = LeadingInteger(line, kDeltaLinePrefix.size() + kTime.size());
  if (before == nullptr || before->values().empty() || !diff ||
      line.substr(kDeltaLinePrefix.size(), kTime.size()) != kTime)
    return true;
  auto t = static_cast<int64_t>(before->values()[0]);
  auto next = static_cast<int64_t>(static_cast<uint64_t>(t) + static_cast<uint64_t>(*diff));
  return cuts_->Region(next) != cuts_->Region(t);
}

// `line` ends the run: the held sample goes first, `line` next.
SkimmedDeltas::Line SkimmedDeltas::Hand(Line line) {
  if (!held_) {
    number_ = lines_.line_number();
    offset_ = lines_.line_offset();
    return line;
  }
  deferred_ = line;
  return TakeHeld();
}

SkimmedDeltas::Line SkimmedDeltas::TakeHeld() {
  held_ = false;
  number_ = held_number_;
  offset_ = held_offset_;
  return {delta_.Rebuilt(), Line::kRebuilt};
}

}  // namespace pm
