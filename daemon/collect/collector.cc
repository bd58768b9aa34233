#include "daemon/collect/collector.hh"

namespace pm {

void AppendMember(std::string& out, std::string_view key) {
  if (!out.empty() && out.back() != '{') out.push_back(',');
  AppendJsonKey(out, key);
}

void AppendCounters(std::string& out, std::span<const uint64_t> counters) {
  out.push_back('[');
  for (size_t i = 0; i < counters.size(); ++i) {
    if (i != 0) out.push_back(',');
    AppendUint(out, counters[i]);
  }
  out.push_back(']');
}

RowSlots::RowSlots(std::vector<std::string> names, size_t width)
    : names_(std::move(names)), width_(width), slots_(names_.size(), nullptr) {}

void RowSlots::MarkAllAbsent() noexcept {
  for (const uint64_t*& slot : slots_) slot = nullptr;
}

void RowSlots::AppendRows(std::string& out) const {
  out.push_back('[');
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (i != 0) out.push_back(',');
    if (slots_[i] == nullptr) {
      out.append("null");
    } else {
      AppendCounters(out, std::span<const uint64_t>(slots_[i], width_));
    }
  }
  out.push_back(']');
}

}  // namespace pm
