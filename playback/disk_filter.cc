#include "playback/disk_filter.hh"

#include <regex>
#include <stdexcept>

namespace pm {

struct DiskFilter::Regex {
  std::regex re;
};

DiskFilter::DiskFilter(const std::string& pattern) {
  try {
    regex_ = std::make_shared<const Regex>(Regex{std::regex(pattern, std::regex::ECMAScript)});
  } catch (const std::regex_error& e) {
    throw std::invalid_argument(e.what());
  }
}

bool DiskFilter::Keeps(const std::string& disk) const {
  return std::regex_search(disk, regex_->re);
}

}  // namespace pm
