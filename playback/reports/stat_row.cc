#include "playback/reports/stat_row.hh"

namespace pm {

std::string_view StatRow::Name(std::string_view a, std::string_view b, std::string_view field) {
  name_.assign(a);
  if (!b.empty()) name_.append(".").append(b);
  name_.append(".").append(field);
  return name_;
}

}  // namespace pm
