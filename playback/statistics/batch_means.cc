#include "playback/statistics/batch_means.hh"

namespace pm {

// The open batch is full and a value comes: it joins the full ones (which
// merge pairwise when there are kMaxBatches), and a new one opens.
void BatchMeans::Close() {
  sums_.push_back(open_sum_);
  weights_.push_back(open_weight_);
  if (sums_.size() == kMaxBatches) Merge();
  open_sum_ = 0;
  open_weight_ = 0;
  in_open_ = 0;
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
}

std::vector<double> BatchMeans::Means() const {
  std::vector<double> out;
  out.reserve(sums_.size() + 1);
  for (size_t i = 0; i < sums_.size(); ++i)
    if (weights_[i] > 0) out.push_back(sums_[i] / weights_[i]);
  if (in_open_ > 0 && open_weight_ > 0) out.push_back(open_sum_ / open_weight_);
  return out;
}

}  // namespace pm
