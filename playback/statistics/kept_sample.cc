#include "playback/statistics/kept_sample.hh"

#include <string>

namespace pm {

static_assert(sizeof(RawSample) == 2 * sizeof(int64_t) + sizeof(std::vector<MemberRows>),
              "a field added to RawSample must be copied by KeptSample::Keep");

namespace {

// The names are a few bytes each: a loop costs less than memcmp's call.
bool SameNames(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const size_t n = a[i].size();
    if (b[i].size() != n) return false;
    const char *x = a[i].data(), *y = b[i].data();
    for (size_t k = 0; k < n; ++k)
      if (x[k] != y[k]) return false;
  }
  return true;
}

}  // namespace

// Names, carried members, widths and null rows alike, and `s`'s names
// where the last sample's were.
bool KeptSample::SameRows(const RawSample& s) const {
  if (!have_ || s.members.size() != kept_.members.size()) return false;
  size_t k = 0;
  for (size_t m = 0; m < s.members.size(); ++m) {
    const MemberRows &a = kept_.members[m], &b = s.members[m];
    if (a.has != b.has || a.width != b.width || a.present != b.present ||
        !SameNames(a.names, b.names))
      return false;
    for (const std::string& name : b.names)
      if (k >= names_at_.size() || names_at_[k++] != name.data()) return false;
  }
  return k == names_at_.size();
}

void KeptSample::NoteAddresses(const RawSample& s) {
  names_at_.clear();
  for (const MemberRows& m : s.members)
    for (const std::string& name : m.names) names_at_.push_back(name.data());
}

void KeptSample::Check(const RawSample& s) {
  same_ = SameRows(s);
  if (!same_) ++layout_;
}

void KeptSample::Keep(const RawSample& s) {
  if (same_) {
    kept_.time_ns = s.time_ns;
    kept_.mono_ns = s.mono_ns;
    for (size_t m = 0; m < s.members.size(); ++m) kept_.members[m].values = s.members[m].values;
    return;
  }
  kept_ = s;
  have_ = true;
  NoteAddresses(s);
  ++layout_;  // the kept names were rewritten where a pair may have seen them
}

}  // namespace pm
