// What a reader writes to its stdout, chosen the way people expect of
// ls(1) or dstat: the table on a terminal, JSON lines into a pipe; colour
// on a terminal unless NO_COLOR (https://no-color.org) or --color=never.
#pragma once

#include <string_view>

namespace pm {

// --color[=WHEN]: unset leaves the table coloured on a terminal and JSON
// plain, as they have always been.
enum class ColorWhen { kUnset, kAuto, kAlways, kNever };
// "always", "auto", "never", or a flag's on (always) / off (never).
// Throws UsageError naming the values.
ColorWhen ParseColorWhen(std::string_view value, bool on);
// Colour for output on `fd`: always; auto/unset (`table`) on a terminal
// unless NO_COLOR is set and not empty.
bool UseColor(ColorWhen when, bool table, int fd);

// Whether the table or JSON goes to `fd`: --table, --json, else the table
// on a terminal.
bool UseTable(bool table, bool json, int fd);

}  // namespace pm
