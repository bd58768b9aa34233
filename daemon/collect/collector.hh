// The collectors behind CollectorSet, and what they share. Internal to
// daemon/collect: the rest of the daemon uses collector_set.hh.
//
// A collector owns its ProcFile(s) and the parsed snapshot of the last
// read. Its row list (cores, devices, interfaces, interrupt sources) is
// fixed at construction; each read matches the file's rows to it by name,
// so a row that vanished is written as `null` and a new one is ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <optional>

#include "daemon/collect/collector_set.hh"
#include "daemon/collect/proc_file.hh"
#include "proto/json.hh"

namespace pm {

struct StatSnapshot;  // daemon/collect/parse_stat.hh

class Collector {
 public:
  virtual ~Collector() = default;
  // Appends this collector's member(s) of the header's "collectors" object.
  virtual void Describe(std::string& out) const = 0;
  // Reads and parses the file(s) now. May throw; touches no output.
  virtual void Read() = 0;
  // Appends this collector's member(s) of a sample line, from the last Read().
  virtual void Append(std::string& out) const = 0;
  // `stat`'s command started (CollectorSet::BindCommand); most ignore it.
  virtual void BindCommand(int /*pid*/) {}
  // Whether its counters resolve below a tick (ns or µs CPU time): such a
  // collector is read first, closest to the sample's timestamp, since a
  // read that a busy machine delays moves time from one interval into the
  // next.
  virtual bool fine_grained() const { return false; }
  // A phase ends at the last Read(): adds what the system under test used
  // since the last call (or the first Read()) to `cost`; most have none.
  virtual void ClosePhase(SutCost& /*cost*/) {}
};

// What a factory may use: the root, the options, and /proc/stat as read
// once by CollectorSet (every header needs num_core); a factory may take
// the open file over.
struct CollectorContext {
  int root_dirfd;
  const CollectorOptions& options;
  std::optional<ProcFile> stat;
  const StatSnapshot& stat_snapshot;  // its parse
  // The collector's own descriptor's: the members (key and columns) it
  // declares in the header and writes in each sample, and the rows its
  // option named (--pid 42 --pid 7: "42", "7").
  std::span<const PgrMember> members = {};
  std::span<const std::string> values = {};
};

// One factory per kCollectors entry (listed in collector_set.cc). Each
// opens its file(s) and reads them once to learn the rows.
std::unique_ptr<Collector> MakeCpuCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeDiskCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeNetCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeMemCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeIntrCollector(CollectorContext& context);
std::unique_ptr<Collector> MakePressureCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeLoadCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeVmstatCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeNetstatCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeSockstatCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeProcessCollector(CollectorContext& context);
std::unique_ptr<Collector> MakeCgroupCollector(CollectorContext& context);

// A member of fixed fields of which the kernel printed some at the start
// (vmstat, netstat): the header declares those, each sample writes them.
class PresentFields {
 public:
  PresentFields(std::span<const std::string_view> fields, std::span<const uint8_t> present);
  // `"key":{"fields":[..]}`
  void Describe(std::string& out, std::string_view key) const;
  // `"key":[..]`: the present ones of `values` (all the member's fields);
  // `"key":null` for none (the file is not in the tree).
  void Append(std::string& out, std::string_view key, std::span<const uint64_t> values) const;

 private:
  std::vector<std::string_view> names_;
  std::vector<size_t> index_;
};

// A /proc file, or none where the tree has none (a --root without it: the
// collector records null).
std::optional<ProcFile> OpenIfPresent(int root_dirfd, std::string_view path,
                                      ProcFile::Delivery delivery);

// `"key":` preceded by ',' unless it is the first member of an object.
void AppendMember(std::string& out, std::string_view key);
// [1,2,3]
void AppendCounters(std::string& out, std::span<const uint64_t> counters);

// ["a","b"]: each item, or name_of(item), as a JSON string.
template <class Items, class NameOf>
void AppendStringArray(std::string& out, const Items& items, NameOf name_of) {
  out.push_back('[');
  for (const auto& item : items) {
    if (out.back() != '[') out.push_back(',');
    AppendJsonString(out, name_of(item));
  }
  out.push_back(']');
}

template <class Strings>
void AppendStringArray(std::string& out, const Strings& strings) {
  AppendStringArray(out, strings, [](const auto& s) -> const auto& { return s; });
}

// Index of the row whose key_of(row) equals `key`, or -1. Rows keep their
// order from one read to the next, so searching on from the previous match
// (`hint`) makes the first probe hit in steady state.
template <class Rows, class Key, class KeyOf>
ptrdiff_t FindRow(const Rows& rows, const Key& key, KeyOf key_of, size_t& hint) {
  for (size_t k = 0; k < rows.size(); ++k) {
    size_t i = hint + k < rows.size() ? hint + k : hint + k - rows.size();
    if (key_of(rows[i]) == key) {
      hint = i + 1;
      return static_cast<ptrdiff_t>(i);
    }
  }
  return -1;
}

// A fixed list of named rows of `width` counters each, matched by name to
// every read; the sample is [[...],null,...] in list order.
class RowSlots {
 public:
  RowSlots(std::vector<std::string> names, size_t width);

  const std::vector<std::string>& names() const noexcept { return names_; }

  // counts_of(index) returns a pointer to that row's `width` counters.
  template <class Rows, class CountsOf>
  void Match(const Rows& rows, CountsOf counts_of) {
    size_t hint = 0;
    for (size_t i = 0; i < names_.size(); ++i) {
      ptrdiff_t j = FindRow(rows, names_[i], [](const auto& r) { return r.name; }, hint);
      slots_[i] = j < 0 ? nullptr : counts_of(static_cast<size_t>(j));
    }
  }
  void MarkAllAbsent() noexcept;
  void AppendRows(std::string& out) const;

 private:
  std::vector<std::string> names_;
  size_t width_;
  std::vector<const uint64_t*> slots_;  // nullptr: absent from the last read
};

}  // namespace pm
