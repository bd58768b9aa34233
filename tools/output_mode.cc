#include "tools/output_mode.hh"

#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "common/error.hh"

namespace pm {

ColorWhen ParseColorWhen(std::string_view value, bool on) {
  if (value.empty()) return on ? ColorWhen::kAlways : ColorWhen::kNever;
  if (value == "always") return ColorWhen::kAlways;
  if (value == "auto") return ColorWhen::kAuto;
  if (value == "never") return ColorWhen::kNever;
  throw UsageError("--color=" + std::string(value) + ": write --color=always, auto or never");
}

bool UseColor(ColorWhen when, bool table, int fd) {
  if (when == ColorWhen::kAlways) return true;
  if (when == ColorWhen::kNever || (when == ColorWhen::kUnset && !table)) return false;
  const char* no_color = getenv("NO_COLOR");
  return isatty(fd) && (no_color == nullptr || *no_color == '\0');
}

bool UseTable(bool table, bool json, int fd) { return table || (!json && isatty(fd)); }

}  // namespace pm
