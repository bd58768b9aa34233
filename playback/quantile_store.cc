#include "playback/quantile_store.hh"

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

void QuantileStore::Buckets::Add(int32_t index) {
  if (counts.empty()) first = index;
  if (index < first) {
    counts.insert(counts.begin(), static_cast<size_t>(first - index), 0);
    first = index;
  }
  size_t at = static_cast<size_t>(index - first);
  if (at >= counts.size()) counts.resize(at + 1, 0);
  ++counts[at];
}

void QuantileStore::Add(double v) {
  min_ = count_ == 0 ? v : std::min(min_, v);
  sum_ += v;
  ++count_;
  if (sketched_) return Sketch(v);
  sorted_ = false;
  values_.push_back(v);
  if (values_.size() > kExact) ToSketch();
}

void QuantileStore::Sketch(double v) {
  if (std::fabs(v) < kZero) ++zeros_;
  else if (v > 0) positive_.Add(IndexOf(v));
  else negative_.Add(IndexOf(-v));
}

void QuantileStore::ToSketch() {
  sketched_ = true;
  for (double v : values_) Sketch(v);
  std::vector<double>().swap(values_);
  std::vector<double>().swap(scratch_);
}

double QuantileStore::NearestRank(int p) const {
  uint64_t rank = std::max<uint64_t>((static_cast<uint64_t>(p) * count_ + 99) / 100, 1);
  if (sketched_) return FromSketch(rank);
  if (!sorted_) {
    scratch_ = values_;
    std::sort(scratch_.begin(), scratch_.end());
    sorted_ = true;
  }
  return scratch_[rank - 1];
}

// Negative buckets from the largest magnitude down, zeros, then positive.
double QuantileStore::FromSketch(uint64_t rank) const {
  uint64_t seen = 0;
  for (size_t i = negative_.counts.size(); i-- > 0;)
    if ((seen += negative_.counts[i]) >= rank)
      return -ValueOf(negative_.first + static_cast<int32_t>(i));
  if ((seen += zeros_) >= rank) return 0;
  for (size_t i = 0; i < positive_.counts.size(); ++i)
    if ((seen += positive_.counts[i]) >= rank)
      return ValueOf(positive_.first + static_cast<int32_t>(i));
  return min_;  // not reached: the counts add up to count_
}

size_t QuantileStore::bytes() const {
  return sizeof *this + (values_.capacity() + scratch_.capacity()) * sizeof(double) +
         (positive_.counts.capacity() + negative_.counts.capacity()) * sizeof(uint64_t);
}

}  // namespace pm
