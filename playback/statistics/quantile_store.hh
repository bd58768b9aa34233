// The values of one statistics series, kept for their weighted
// nearest-rank percentiles in bounded memory: exactly, up to kExact
// values; beyond, in a DDSketch (Masson, Rim, Lee, "DDSketch: a fast and
// fully-mergeable quantile sketch with relative-error guarantees", VLDB
// 2019) whose percentiles are within kRelativeError of the exact ones, in
// at most a few thousand buckets whatever the count. A day at 10 ms
// (8.64 M values) takes tens of KiB a series instead of 69 MB.
//
// Each value has a weight (a rate: its interval's length; a level: 1), so
// that an interval a mark cut short counts for the time it lasted, not as
// one of n.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pm {

class QuantileStore {
 public:
  static constexpr size_t kExact = 1024;
  static constexpr double kRelativeError = 0.005;

  void Add(double v, double weight = 1);
  size_t count() const { return count_; }
  bool exact() const { return !sketched_; }
  double min() const { return min_; }
  double sum() const { return sum_; }  // unweighted
  // The smallest value such that the values up to it weigh at least p % of
  // the total (n > 0): with equal weights, the ceil(p/100 · n)-th smallest.
  // Exact while exact(), else within kRelativeError of it.
  double NearestRank(int p) const;
  // Bytes held, for the memory bound's tests.
  size_t bytes() const;

 private:
  using Weighted = std::pair<double, double>;  // value, weight
  // Log-spaced buckets of one sign: bucket i holds |v| in (γ^(i-1), γ^i].
  struct Buckets {
    int32_t first = 0;            // the index of weights[0]
    std::vector<double> weights;  // per bucket
    void Add(int32_t index, double weight);
  };
  void Sketch(double v, double weight);
  void ToSketch();
  double Rank(int p) const;
  double FromSketch(double rank) const;

  std::vector<Weighted> values_;  // while exact
  mutable bool sorted_ = true;
  mutable std::vector<Weighted> scratch_;
  bool sketched_ = false;
  Buckets positive_, negative_;
  // The last value sketched and its bucket: a series repeats its values
  // (counts over equal intervals), and the logarithm is most of a value's cost.
  double last_ = 0;
  int32_t last_index_ = 0;
  int8_t last_sign_ = 0;  // its buckets: 1 positive_, -1 negative_, 0 none yet
  double zeros_ = 0;
  size_t count_ = 0;
  double min_ = 0, sum_ = 0, weight_ = 0;
};

}  // namespace pm
