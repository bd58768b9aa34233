#include "playback/reports/stat_row.hh"

namespace pm {

namespace {

// `s` at `p`, compared in line: the parts are a few bytes, and a call to
// memcmp per part cost more than the bytes.
bool SameAt(const char*& p, std::string_view s) {
  for (char c : s)
    if (*p++ != c) return false;
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
