// Points of many series in time order in, each series' points together
// out, with flat memory: OpenMetrics wants each series contiguous while a
// recording comes sample by sample. Points are appended as they come to an
// unnamed temporary file, with their series' number; Sort() then places
// them by series in one pass (a counting sort: each series' place is known
// from its count) into a second, mapped file. Memory: a count per series;
// disk: twice the points. Used by the phase gauge (openmetrics_phases.hh)
// and the process table's families (openmetrics_proctable.hh).
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/unique_fd.hh"

namespace pm {

// A file of `bytes` mapped for writing, unmapped (and the file gone) at the end.
class MappedSpool {
 public:
  MappedSpool(const std::string& dir, size_t bytes);
  ~MappedSpool();
  MappedSpool(const MappedSpool&) = delete;
  MappedSpool& operator=(const MappedSpool&) = delete;
  template <class T>
  T* as() const { return static_cast<T*>(data_); }

 private:
  UniqueFd fd_;
  size_t bytes_;
  void* data_ = nullptr;
};

// The unsorted file of points (throws std::system_error on an I/O error).
class PointFile {
 public:
  explicit PointFile(const std::string& dir);
  void Write(const void* p, size_t size);
  void Rewind();  // then Read() from the start
  size_t Read(void* buf, size_t size, size_t count);  // items read; 0 at the end

 private:
  std::unique_ptr<FILE, int (*)(FILE*)> f_;
};

// `P` is trivially copyable with a `uint32_t id` member.
template <class P>
class SeriesSpool {
 public:
  explicit SeriesSpool(const std::string& dir) : dir_(dir), file_(dir) {}

  void Add(const P& p) {
    if (p.id >= counts_.size()) counts_.resize(p.id + 1, 0);
    ++counts_[p.id];
    file_.Write(&p, sizeof p);
  }
  size_t series() const { return counts_.size(); }

  // Every series' points in order of arrival, by series.
  class Sorted {
   public:
    std::span<const P> Of(uint32_t id) const {
      return {map_->template as<P>() + starts_[id], map_->template as<P>() + starts_[id + 1]};
    }

   private:
    friend class SeriesSpool;
    std::unique_ptr<MappedSpool> map_;
    std::vector<uint64_t> starts_;  // the last entry: the number of points
  };

  Sorted Sort() {
    Sorted s;
    s.starts_.assign(counts_.size() + 1, 0);
    for (size_t i = 0; i < counts_.size(); ++i) s.starts_[i + 1] = s.starts_[i] + counts_[i];
    s.map_ = std::make_unique<MappedSpool>(dir_, std::max<uint64_t>(s.starts_.back(), 1) * sizeof(P));
    P* by_series = s.map_->template as<P>();
    std::vector<uint64_t> next(s.starts_.begin(), s.starts_.end() - 1);
    file_.Rewind();
    P block[1024];
    for (size_t got; (got = file_.Read(block, sizeof(P), std::size(block))) > 0;)
      for (size_t i = 0; i < got; ++i) by_series[next[block[i].id]++] = block[i];  // stable
    return s;
  }

 private:
  std::string dir_;
  PointFile file_;
  std::vector<uint64_t> counts_;
};

}  // namespace pm
