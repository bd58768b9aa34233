#include "proto/pgr_delta.hh"

#include <cstring>

#include "proto/pgr_format.hh"

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
  if (!have_prev_ && line.starts_with(kSampleLineStart)) unsplit_.assign(line);
  force_keyframe_ = false;
  since_keyframe_ = 0;
  keyframe_mono_ns_ = mono_ns;
  ++keyframes_;
  return line;
}

}  // namespace pm
