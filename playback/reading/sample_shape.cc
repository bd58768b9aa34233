#include "playback/reading/sample_shape.hh"

namespace pm {

void SampleShape::Begin() {
  slots_.clear();
  times_.clear();
  of_ = nullptr;
}

// int64_t and uint64_t may alias (the signed and unsigned type of one size).
void SampleShape::Time(int64_t* slot) {
  times_.push_back(static_cast<uint32_t>(slots_.size()));
  slots_.push_back(reinterpret_cast<uint64_t*>(slot));
}

void SampleShape::End(const Baseline& baseline) {
  if (slots_.size() != baseline.values().size()) return;
  of_ = &baseline;
  splits_ = baseline.splits();
}

bool SampleShape::Fill(const Baseline& baseline) {
  if (of_ != &baseline || splits_ != baseline.splits()) return false;
  std::span<const uint64_t> values = baseline.values();
  for (uint32_t k : times_)
    if (values[k] > uint64_t{INT64_MAX}) return false;
  for (size_t k = 0; k < values.size(); ++k) *slots_[k] = values[k];
  return true;
}

}  // namespace pm
