#include "playback/reports/stat_row.hh"

#include <cstdint>
#include <cstring>

namespace pm {

namespace {

uint64_t Load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

uint32_t Load4(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// `s` at `p`, compared in line a word at a time (the last word overlapping
// the one before): the parts are a few bytes, and a call to memcmp per
// part, or a loop over bytes, cost more than the bytes.
bool SameAt(const char*& p, std::string_view s) {
  const char* q = s.data();
  const size_t n = s.size();
  const char* at = p;
  p += n;
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8)
      if (Load8(at + i) != Load8(q + i)) return false;
    return Load8(at + n - 8) == Load8(q + n - 8);
  }
  if (n >= 4) return Load4(at) == Load4(q) && Load4(at + n - 4) == Load4(q + n - 4);
  for (size_t i = 0; i < n; ++i)
    if (at[i] != q[i]) return false;
  return true;
}

}  // namespace

bool SeriesKey::Is(std::string_view name) const {
  const size_t size = a.size() + (b.empty() ? 0 : b.size() + 1) + 1 + field.size();
  if (name.size() != size) return false;
  const char* p = name.data();
  if (!SameAt(p, a)) return false;
  if (!b.empty() && (*p++ != '.' || !SameAt(p, b))) return false;
  return *p++ == '.' && SameAt(p, field);
}

void SeriesKey::AppendTo(std::string& out) const {
  out.append(a);
  if (!b.empty()) out.append(".").append(b);
  out.append(".").append(field);
}

std::string_view StatRow::Name(const SeriesKey& key) {
  name_.clear();
  key.AppendTo(name_);
  return name_;
}

}  // namespace pm
