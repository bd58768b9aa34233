#include "playback/statistics/quantile_store.hh"

#include <algorithm>
#include <cmath>

namespace pm {
namespace {

const double kGamma = (1 + QuantileStore::kRelativeError) / (1 - QuantileStore::kRelativeError);
const double kLogGamma = std::log(kGamma);
// |v| below this is 0 (no rate we print has that many digits).
constexpr double kZero = 1e-9;

int32_t IndexOf(double magnitude) {
  return static_cast<int32_t>(std::ceil(std::log(magnitude) / kLogGamma));
}

// The bucket's value whose relative error to any in it is at most α.
double ValueOf(int32_t index) { return 2 * std::pow(kGamma, index) / (kGamma + 1); }

}  // namespace

void QuantileStore::Buckets::Add(int32_t index, double weight) {
  if (weights.empty()) first = index;
  if (index < first) {
    weights.insert(weights.begin(), static_cast<size_t>(first - index), 0.0);
    first = index;
  }
  size_t at = static_cast<size_t>(index - first);
  if (at >= weights.size()) weights.resize(at + 1, 0.0);
  weights[at] += weight;
}

void QuantileStore::Add(double v, double weight) {
  min_ = count_ == 0 ? v : std::min(min_, v);
  sum_ += v;
  weight_ += weight;
  ++count_;
  if (sketched_) return Sketch(v, weight);
  sorted_ = false;
  values_.emplace_back(v, weight);
  if (values_.size() > kExact) ToSketch();
}

void QuantileStore::Sketch(double v, double weight) {
  if (last_sign_ != 0 && v == last_)
    return (last_sign_ > 0 ? positive_ : negative_).Add(last_index_, weight);
  if (std::fabs(v) < kZero) {
    zeros_ += weight;
    return;
  }
  last_ = v;
  last_sign_ = v > 0 ? 1 : -1;
  last_index_ = IndexOf(std::fabs(v));
  (v > 0 ? positive_ : negative_).Add(last_index_, weight);
}

void QuantileStore::ToSketch() {
  sketched_ = true;
  for (auto [v, weight] : values_) Sketch(v, weight);
  std::vector<Weighted>().swap(values_);
  std::vector<Weighted>().swap(scratch_);
}

// The weight the values up to the p-th percentile's must reach: p % of the
// total, less a rounding allowance (equal weights summed one by one reach
// k·w only to within a few ulps).
double QuantileStore::Rank(int p) const {
  return weight_ * p / 100.0 * (1 - 1e-12);
}

double QuantileStore::NearestRank(int p) const {
  const double rank = Rank(p);
  if (sketched_) return FromSketch(rank);
  if (!sorted_) {
    scratch_ = values_;
    std::sort(scratch_.begin(), scratch_.end());
    sorted_ = true;
  }
  double seen = 0;
  for (auto [v, weight] : scratch_)
    if ((seen += weight) >= rank && weight > 0) return v;
  return scratch_.back().first;  // p = 100 with trailing zero weights
}

// Negative buckets from the largest magnitude down, zeros, then positive.
double QuantileStore::FromSketch(double rank) const {
  double seen = 0;
  for (size_t i = negative_.weights.size(); i-- > 0;)
    if ((seen += negative_.weights[i]) >= rank && negative_.weights[i] > 0)
      return -ValueOf(negative_.first + static_cast<int32_t>(i));
  if ((seen += zeros_) >= rank && zeros_ > 0) return 0;
  for (size_t i = 0; i < positive_.weights.size(); ++i)
    if ((seen += positive_.weights[i]) >= rank && positive_.weights[i] > 0)
      return ValueOf(positive_.first + static_cast<int32_t>(i));
  return min_;  // every weight 0
}

size_t QuantileStore::bytes() const {
  return sizeof *this + (values_.capacity() + scratch_.capacity()) * sizeof(Weighted) +
         (positive_.weights.capacity() + negative_.weights.capacity()) * sizeof(double);
}

}  // namespace pm
