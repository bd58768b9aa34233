// A value of live's table in its column's fixed width, as dstat writes
// them: scaled by its unit (1024 for bytes, K M G T P E; 1000 for counts,
// k m g t p e) below the next unit and until it fits, so a column never
// widens and a row keeps its length whatever the machine does.
#pragma once

#include <string>

#include "playback/reports/report.hh"

namespace pm {

// How large a cell came out: what its colour shows.
enum class CellTone { kNone, kZero, kPlain, kKilo, kMega, kGiga };

// Appends `v` right-aligned in exactly `width` characters ("-" for NaN,
// "#" signs for what no unit fits) and returns its tone.
CellTone AppendCell(std::string& out, double v, LiveUnit unit, int width);

// The ANSI colour of a tone ("" for the terminal's own).
std::string_view ToneColor(CellTone tone);

}  // namespace pm
