// --disk-only: which disks a report keeps, by an ECMAScript regular
// expression searched in the device name. <regex> stays in disk_filter.cc:
// it costs seconds in every file that includes it.
#pragma once

#include <memory>
#include <string>

namespace pm {

class DiskFilter {
 public:
  // Throws std::invalid_argument (what(): the regex library's reason)
  // when `pattern` is not a regular expression.
  explicit DiskFilter(const std::string& pattern);
  bool Keeps(const std::string& disk) const;  // the pattern is found in it

 private:
  struct Regex;
  std::shared_ptr<const Regex> regex_;  // immutable: copies share it
};

}  // namespace pm
