#include "playback/skimmed_lines.hh"

namespace pm {
namespace {

bool IsSampleLine(std::string_view line) { return line.starts_with(R"({"t":)"); }

}  // namespace

std::optional<std::string_view> SkimmedLines::Next() {
  if (deferred_.present) return Return(deferred_);
  while (std::optional<std::string_view> line = lines_.Next()) {
    bool sample = IsSampleLine(*line);
    if (sample && in_run_ && skim_.Vouches(*line)) {
      if (held_.present) ++skipped_;  // a later one is the run's last now
      Keep(held_, *line);
      continue;
    }
    in_run_ = sample;
    if (sample) skim_.Learn(*line);
    if (held_.present) {
      Keep(deferred_, *line);
      return Return(held_);
    }
    number_ = lines_.line_number();
    offset_ = lines_.line_offset();
    return line;
  }
  if (held_.present) return Return(held_);
  return std::nullopt;
}

// Assigning into the same string reuses its storage: no allocation once
// it has held the longest sample.
void SkimmedLines::Keep(Kept& kept, std::string_view line) {
  kept.text.assign(line);
  kept.number = lines_.line_number();
  kept.offset = lines_.line_offset();
  kept.present = true;
}

std::string_view SkimmedLines::Return(Kept& kept) {
  kept.present = false;
  number_ = kept.number;
  offset_ = kept.offset;
  return kept.text;
}

}  // namespace pm
