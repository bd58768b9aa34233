// One statistics series kept for `diff`'s within-run test in bounded
// memory: the values' weighted means over batches of consecutive values.
// Exactly the values (batches of one) up to kMaxBatches of them; beyond,
// neighbouring batches merge pairwise, so the batch doubles and at most
// kMaxBatches are held (64 KiB) whatever the length. A moving-block
// bootstrap over batch means is one over the series with blocks made of
// whole batches (diff_stats.hh), the batches themselves being the
// finest blocks it can take.
#pragma once

#include <cstddef>
#include <vector>

namespace pm {

class BatchMeans {
 public:
  static constexpr size_t kMaxBatches = 4096;

  // `w`: the value's weight (a rate's interval in seconds, 1 for a level).
  void Add(double v, double w);

  size_t count() const { return count_; }        // values added
  size_t per_batch() const { return per_batch_; }  // values a full batch holds
  double weight() const { return total_weight_; }  // Σ w
  // Σ v·w / Σ w over every value (0 without one).
  double Mean() const;
  // The batches' weighted means, in order (the last may be partial).
  std::vector<double> Means() const;

 private:
  void Merge();

  std::vector<double> sums_;     // per batch: Σ v·w
  std::vector<double> weights_;  // per batch: Σ w
  size_t per_batch_ = 1;
  size_t in_last_ = 0;  // values in the last batch
  size_t count_ = 0;
  double total_sum_ = 0, total_weight_ = 0;
};

}  // namespace pm
