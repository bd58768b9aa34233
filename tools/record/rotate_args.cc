#include "tools/record/rotate_args.hh"

#include <cstdint>
#include <optional>
#include <string>

#include "common/error.hh"
#include "tools/duration.hh"

namespace pm {
namespace {

constexpr int64_t kDayNs = 86'400'000'000'000;

// Whole days ("28d"), which Go's durations lack; else one of -i's.
std::optional<int64_t> KeepDuration(std::string_view text) {
  if (text.size() > 1 && text.back() == 'd') {
    std::string digits(text.substr(0, text.size() - 1));
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 5)
      return std::nullopt;
    return std::stoll(digits) * kDayNs;
  }
  return ParseDurationNs(text);
}

}  // namespace

void ApplyRotateArgument(RotatePolicy& policy, std::string_view text) {
  std::optional<RotatePolicy> parsed = ParseRotate(text);
  if (!parsed)
    throw UsageError("--rotate '" + std::string(text) +
                     "': write daily, hourly or a size such as 64M");
  policy.every = parsed->every;
  policy.size_bytes = parsed->size_bytes;
}

void ApplyKeepArgument(RotatePolicy& policy, std::string_view text) {
  std::optional<int64_t> ns = KeepDuration(text);
  if (ns && *ns > 0) {
    policy.keep_ns = *ns;
    return;
  }
  std::optional<uint64_t> bytes = ParseSize(text);
  if (!bytes)
    throw UsageError("--keep '" + std::string(text) +
                     "': write an age such as 28d or 12h, or a total size such as 10G");
  policy.keep_bytes = *bytes;
}

}  // namespace pm
