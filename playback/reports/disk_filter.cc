#include "playback/reports/disk_filter.hh"

#include "playback/reports/extended_regex.hh"

namespace pm {

DiskFilter::DiskFilter(const std::string& pattern)
    : regex_(std::make_shared<const ExtendedRegex>(pattern)) {}

bool DiskFilter::Keeps(const std::string& disk) const { return regex_->Search(disk); }

}  // namespace pm
