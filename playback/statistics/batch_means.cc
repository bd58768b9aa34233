#include "playback/statistics/batch_means.hh"

namespace pm {

void BatchMeans::Add(double v, double w) {
  if (sums_.empty() || in_last_ == per_batch_) {
    if (sums_.size() == kMaxBatches) Merge();
    if (sums_.empty() || in_last_ == per_batch_) {
      sums_.push_back(0);
      weights_.push_back(0);
      in_last_ = 0;
    }
  }
  sums_.back() += v * w;
  weights_.back() += w;
  ++in_last_;
  ++count_;
  total_sum_ += v * w;
  total_weight_ += w;
}

// Every batch is full here: pairs merge, the batch doubles.
void BatchMeans::Merge() {
  const size_t half = sums_.size() / 2;
  for (size_t i = 0; i < half; ++i) {
    sums_[i] = sums_[2 * i] + sums_[2 * i + 1];
    weights_[i] = weights_[2 * i] + weights_[2 * i + 1];
  }
  sums_.resize(half);
  weights_.resize(half);
  per_batch_ *= 2;
  in_last_ = per_batch_;
}

double BatchMeans::Mean() const {
  return total_weight_ > 0 ? total_sum_ / total_weight_ : 0.0;
}

std::vector<double> BatchMeans::Means() const {
  std::vector<double> out;
  out.reserve(sums_.size());
  for (size_t i = 0; i < sums_.size(); ++i)
    if (weights_[i] > 0) out.push_back(sums_[i] / weights_[i]);
  return out;
}

}  // namespace pm
