#include "proto/pgr_collectors.hh"

#include <stdexcept>
#include <string>

namespace pm {

std::span<const CollectorSpec> Collectors() { return kCollectors; }

size_t MemberCount() { return kPgrMemberCount; }

const PgrMember& MemberAt(size_t i) { return PgrMemberAt(i); }

size_t MemberIndexOf(std::string_view key) { return PgrMemberIndex(key); }

size_t FindCollector(std::string_view name) { return CollectorIndex(name); }

size_t CollectorIndexOf(std::string_view name) {
  size_t i = CollectorIndex(name);
  if (i == kCollectors.size()) throw std::out_of_range("no collector " + std::string(name));
  return i;
}

}  // namespace pm
