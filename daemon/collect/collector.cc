#include "daemon/collect/collector.hh"

#include <cerrno>
#include <system_error>

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

std::optional<ProcFile> OpenIfPresent(int root_dirfd, std::string_view path,
                                      ProcFile::Delivery delivery) {
  try {
    return ProcFile(root_dirfd, path, ProcFile::kDefaultMaxBytes, delivery);
  } catch (const std::system_error& e) {
    if (e.code().value() == ENOENT) return std::nullopt;
    throw;
  }
}

PresentFields::PresentFields(std::span<const std::string_view> fields,
                             std::span<const uint8_t> present) {
  for (size_t i = 0; i < fields.size() && i < present.size(); ++i) {
    if (!present[i]) continue;
    names_.push_back(fields[i]);
    index_.push_back(i);
  }
}

void PresentFields::Describe(std::string& out, std::string_view key) const {
  AppendMember(out, key);
  out.append("{\"fields\":");
  AppendStringArray(out, names_);
  out.push_back('}');
}

void PresentFields::Append(std::string& out, std::string_view key,
                           std::span<const uint64_t> values) const {
  AppendMember(out, key);
  if (values.empty()) {
    out.append("null");
    return;
  }
  out.push_back('[');
  for (size_t i = 0; i < index_.size(); ++i) {
    if (i != 0) out.push_back(',');
    AppendUint(out, values[index_[i]]);
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
