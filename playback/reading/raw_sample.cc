#include "playback/reading/raw_sample.hh"

#include <algorithm>

#include "proto/pgr_collector_spec.hh"

namespace pm {

void MemberRows::Resize(size_t rows, size_t w) {
  width = w;
  names.resize(rows);
  present.assign(rows, 0);
  values.assign(rows * w, 0);
}

void MemberRows::Clear() {
  has = false;
  names.clear();
  present.clear();
  values.clear();
}

size_t MemberRows::Find(std::string_view name, size_t hint) const {
  if (hint < names.size() && names[hint] == name) return hint;
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return i;
  return npos;
}

RawSample::RawSample() : members(MemberCount()) {}

RecordingInfo::RecordingInfo() : recorded(MemberCount()), row_labels(MemberCount()) {}

}  // namespace pm

namespace pm {

bool SeriesSource::Covers(std::string_view field, std::string_view rows_word) const {
  return std::find(fields.begin(), fields.end(), field) != fields.end() &&
         std::find(rows.begin(), rows.end(), rows_word) != rows.end();
}

}  // namespace pm
