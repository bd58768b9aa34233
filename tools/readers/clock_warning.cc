#include "tools/readers/clock_warning.hh"

#include <algorithm>
#include <cstdio>

namespace pm {

bool HostsMeet(const PlayArgs& args) {
  if (args.format == PlayFormat::kOpenMetrics)
    return args.instance.has_value() || !args.labels.empty();
  if (args.format == PlayFormat::kCsv)
    return std::find(args.columns.begin(), args.columns.end(), CsvKey::kHost) !=
           args.columns.end();
  return false;
}

void WarnOfClock(const std::string& name, const ClockHistory& clocks) {
  for (const std::string& why : clocks.Warnings())
    std::fprintf(stderr, "warning: %s: %s\n", name.c_str(), why.c_str());
}

}  // namespace pm
