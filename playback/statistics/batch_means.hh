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
  // Inline: once per value of every series, the open batch's sums alone.
  void Add(double v, double w) {
    if (in_open_ == per_batch_) Close();
    open_sum_ += v * w;
    open_weight_ += w;
    ++in_open_;
    ++count_;
    total_weight_ += w;
  }

  size_t count() const { return count_; }        // values added
  size_t per_batch() const { return per_batch_; }  // values a full batch holds
  double weight() const { return total_weight_; }  // Σ w
  // The batches' weighted means, in order (the last may be partial).
  std::vector<double> Means() const;

 private:
  void Close();
  void Merge();

  std::vector<double> sums_;     // per full batch: Σ v·w
  std::vector<double> weights_;  // per full batch: Σ w
  double open_sum_ = 0, open_weight_ = 0;  // the last batch's, until it is full
  size_t per_batch_ = 1;
  size_t in_open_ = 0;  // values in the last batch (0: none yet)
  size_t count_ = 0;
  double total_weight_ = 0;
};

}  // namespace pm
