// record's --rotate and --keep values (daemon/rotation.hh), each a
// UsageError naming the fix when it is not one.
#pragma once

#include <string_view>

#include "daemon/rotation.hh"

namespace pm {

// "daily", "hourly" or a size ("64M"): into `policy`, keeping its --keep.
void ApplyRotateArgument(RotatePolicy& policy, std::string_view text);
// A duration ("28d", "12h", "90m"; as -i takes them, and days) or a size
// ("10G", "500M"): into `policy`, keeping its --rotate.
void ApplyKeepArgument(RotatePolicy& policy, std::string_view text);

}  // namespace pm
