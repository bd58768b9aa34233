#include "playback/reading/delta_decoder.hh"

#include "common/error.hh"

namespace pm {

std::string_view DeltaDecoder::Decode(std::string_view line) {
  std::string_view out;
  if (const char* why = TryDecode(line, out)) throw FormatError(why);
  return out;
}

const char* DeltaDecoder::TryDecode(std::string_view line, std::string_view& out) {
  Render();
  out = line;
  if (!DeltaDecoder::IsDelta(line)) {
    if (IsKeyframe(line)) FollowKeyframe(line);
    return nullptr;
  }
  if (!have_prev_) return "a difference line without a keyframe before it";
  // The prefix's ',' stands for the baseline's '{'.
  if (prev_.AddDifferences(line.substr(kDeltaLinePrefix.size() - 1)) == 0) {
    have_prev_ = false;
    return "a difference line whose shape is not the line before's";
  }
  out = prev_.Text();
  return nullptr;
}

const char* DeltaDecoder::TrySum(std::string_view line) {
  if (!have_prev_) return "a difference line without a keyframe before it";
  if (!prev_.SumDifferences(line.substr(kDeltaLinePrefix.size() - 1))) {
    have_prev_ = false;
    return "a difference line whose shape is not the line before's";
  }
  stale_ = true;
  return nullptr;
}

std::string_view DeltaDecoder::Rebuilt() {
  Render();
  return prev_.Text();
}

// A failed TrySum left the values those of the last good line: they are
// still rendered (once), so Rebuilt() is that line.
void DeltaDecoder::Render() {
  if (!stale_) return;
  prev_.Render();
  stale_ = false;
}

void DeltaDecoder::FollowKeyframe(std::string_view line) {
  if (have_prev_ && prev_.Advance(line, scratch_.Reserve(prev_.MaxLineBytes())) != 0) return;
  have_prev_ = prev_.Split(line);
}

}  // namespace pm
