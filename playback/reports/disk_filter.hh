// --disk-only: which disks a report keeps, by a POSIX extended regular
// expression (playback/reports/extended_regex.hh) searched in the device name.
#pragma once

#include <memory>
#include <string>

namespace pm {

class ExtendedRegex;

class DiskFilter {
 public:
  // Throws std::invalid_argument (what(): one line, why) when `pattern`
  // is not a regular expression this filter takes.
  explicit DiskFilter(const std::string& pattern);
  bool Keeps(const std::string& disk) const;  // the pattern is found in it

 private:
  std::shared_ptr<const ExtendedRegex> regex_;  // immutable: copies share it
};

}  // namespace pm
