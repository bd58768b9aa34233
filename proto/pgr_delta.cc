#include "proto/pgr_delta.hh"

#include <cstring>

#include "common/error.hh"

namespace pm {
bool DeltaEncoder::KeyframeDue(int64_t mono_ns) const {
  return force_keyframe_ || since_keyframe_ + 1 >= kKeyframeEvery ||
         mono_ns - keyframe_mono_ns_ >= kKeyframeMaxNs;
}

// The baseline follows every sample line, a keyframe too: a walk while the
// shape stays, a split when it changes (or the line may not be encoded).
// The split waits for the next sample: the first sample gates the ready
// line, and a copy is all it needs to cost.
std::string_view DeltaEncoder::Encode(std::string_view line, int64_t mono_ns) {
  if (!unsplit_.empty()) {
    have_prev_ = prev_.Split(unsplit_);
    unsplit_.clear();
  }
  if (have_prev_) {
    char* base = out_.Reserve(prev_.MaxLineBytes() + kDeltaLinePrefix.size());
    // The line's '{' goes under the prefix's ','.
    size_t n = prev_.Advance(line, base + kDeltaLinePrefix.size() - 1);
    if (n != 0 && !KeyframeDue(mono_ns)) {
      std::memcpy(base, kDeltaLinePrefix.data(), kDeltaLinePrefix.size());
      ++since_keyframe_;
      return {base, n + kDeltaLinePrefix.size() - 1};
    }
    have_prev_ = n != 0;
  }
  if (!have_prev_ && DeltaDecoder::IsKeyframe(line)) unsplit_.assign(line);
  force_keyframe_ = false;
  since_keyframe_ = 0;
  keyframe_mono_ns_ = mono_ns;
  ++keyframes_;
  return line;
}

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
