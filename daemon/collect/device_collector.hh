// The shape "disk" and "net" share: one file of named rows, a device list
// fixed at start, each row's counters matched by name on every read.
// Internal to daemon/collect.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "daemon/collect/collector.hh"

namespace pm {

// `Snapshot` has `rows`, each with `name` and `counters`; `Parse` fills it.
template <class Snapshot, void (*Parse)(std::string_view, Snapshot&, std::string_view)>
class DeviceCollector final : public Collector {
 public:
  // `width`: the leading fields of the member's the kernel has (disk's
  // discards and flushes are later kernels'); all of them by default.
  DeviceCollector(const PgrMember& member, ProcFile file, std::vector<std::string> devices,
                  size_t width = SIZE_MAX)
      : key_(member.key),
        fields_(member.fields.first(std::min(width, member.fields.size()))),
        file_(std::move(file)),
        slots_(std::move(devices), fields_.size()) {}

  void Describe(std::string& out) const override {
    AppendMember(out, key_);
    out.append("{\"fields\":");
    AppendStringArray(out, fields_);
    out.append(",\"devices\":");
    AppendStringArray(out, slots_.names());
    out.push_back('}');
  }

  void Read() override {
    Parse(file_.Read(), snapshot_, file_.name());
    slots_.Match(snapshot_.rows,
                 [&](size_t i) { return snapshot_.rows[i].counters.data(); });
  }

  void Append(std::string& out) const override {
    AppendMember(out, key_);
    slots_.AppendRows(out);
  }

 private:
  std::string_view key_;
  std::span<const std::string_view> fields_;
  ProcFile file_;
  Snapshot snapshot_;
  RowSlots slots_;
};

}  // namespace pm
