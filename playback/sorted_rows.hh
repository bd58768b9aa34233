// The rows of a member that a report keeps, sorted by name bytewise and
// stably, as play lists devices: on the stack for a machine's handful
// (rows keep their order from line to line, so insertion sort is cheap),
// on the heap beyond, without stable_sort's buffer on every line.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "playback/raw_sample.hh"

namespace pm {

class SortedRows {
 public:
  // The rows i of `m` for which keep(i).
  template <class Keep>
  SortedRows(const MemberRows& m, Keep keep) {
    size_t n = 0;
    for (size_t i = 0; i < m.rows(); ++i) n += keep(i) ? 1 : 0;
    uint32_t* rows = n <= small_.size() ? small_.data() : (large_.resize(n), large_.data());
    size_t k = 0;
    for (size_t i = 0; i < m.rows(); ++i)
      if (keep(i)) rows[k++] = static_cast<uint32_t>(i);
    rows_ = {rows, n};
    auto by_name = [&m](uint32_t a, uint32_t b) { return m.names[a] < m.names[b]; };
    if (n > small_.size()) {
      std::stable_sort(rows_.begin(), rows_.end(), by_name);
      return;
    }
    for (size_t i = 1; i < n; ++i)  // insertion sort: stable
      for (size_t j = i; j > 0 && by_name(rows[j], rows[j - 1]); --j) std::swap(rows[j], rows[j - 1]);
  }
  SortedRows(const SortedRows&) = delete;
  SortedRows& operator=(const SortedRows&) = delete;

  size_t size() const { return rows_.size(); }
  uint32_t operator[](size_t i) const { return rows_[i]; }
  auto begin() const { return rows_.begin(); }
  auto end() const { return rows_.end(); }

 private:
  std::array<uint32_t, 32> small_;
  std::vector<uint32_t> large_;
  std::span<uint32_t> rows_;
};

}  // namespace pm
