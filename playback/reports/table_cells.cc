#include "playback/reports/table_cells.hh"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pm {
namespace {

void Pad(std::string& out, const char* text, int n, int width) {
  out.append(static_cast<size_t>(width - n), ' ').append(text, static_cast<size_t>(n));
}

// `x` with `decimals` and the suffix (0: none) if that fits.
bool Fits(std::string& out, double x, int decimals, char suffix, int width) {
  char buf[48];
  int n = suffix ? std::snprintf(buf, sizeof buf, "%.*f%c", decimals, x, suffix)
                 : std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  if (n <= 0 || n > width) return false;
  Pad(out, buf, n, width);
  return true;
}

CellTone ToneOf(int tier, double v) {
  if (tier == 0) return std::round(v) == 0 ? CellTone::kZero : CellTone::kPlain;
  return tier == 1 ? CellTone::kKilo : tier == 2 ? CellTone::kMega : CellTone::kGiga;
}

}  // namespace

CellTone AppendCell(std::string& out, double v, LiveUnit unit, int width) {
  if (std::isnan(v)) {
    Pad(out, "-", 1, width);
    return CellTone::kNone;
  }
  v = std::max(v, 0.0);  // rates and levels are never negative
  if (unit == LiveUnit::kFixed) {
    for (int decimals = 2; decimals >= 0; --decimals)
      if (Fits(out, v, decimals, 0, width)) return v == 0 ? CellTone::kZero : CellTone::kPlain;
  }
  const bool bytes = unit == LiveUnit::kBytes;
  const double base = bytes ? 1024.0 : 1000.0;
  const char* suffixes = bytes ? "KMGTPE" : "kmgtpe";
  double x = v;
  for (int tier = 0; tier <= 6; ++tier, x /= base) {
    // 20K, not 20481: the unit is read at a glance; a percent keeps its digits.
    if (unit != LiveUnit::kPercent && x >= base && tier < 6) continue;
    char suffix = tier == 0 ? 0 : suffixes[tier - 1];
    // 1.5M keeps a digit that 2M would lose, where the width allows.
    if (tier > 0 && x < 9.95 && Fits(out, x, 1, suffix, width)) return ToneOf(tier, v);
    if (Fits(out, x, 0, suffix, width)) return ToneOf(tier, v);
  }
  out.append(static_cast<size_t>(width), '#');
  return CellTone::kGiga;
}

std::string_view ToneColor(CellTone tone) {
  switch (tone) {
    case CellTone::kNone:
    case CellTone::kZero: return "\033[90m";  // dim: nothing happened
    case CellTone::kPlain: return "";
    case CellTone::kKilo: return "\033[32m";
    case CellTone::kMega: return "\033[33m";
    case CellTone::kGiga: return "\033[31m";
  }
  return "";
}

}  // namespace pm
