#include "daemon/collect/parse_vmstat.hh"

#include <string>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

// The fields kernels before 4.8 printed per zone ("pgscan_kswapd_normal"),
// which sar sums.
constexpr size_t kFirstZoned = 7;  // pgscan_kswapd .. pgsteal_direct
constexpr size_t kLastZoned = 10;
static_assert(kVmstatFields[kFirstZoned] == "pgscan_kswapd" &&
              kVmstatFields[kLastZoned] == "pgsteal_direct");

bool IsZone(std::string_view s) {
  return s == "dma" || s == "dma32" || s == "normal" || s == "movable" || s == "high" ||
         s == "device";
}

// The field `name` counts towards, or kVmstatFields.size().
size_t FieldOf(std::string_view name) {
  for (size_t f = 0; f < kVmstatFields.size(); ++f) {
    std::string_view field = kVmstatFields[f];
    if (name == field) return f;
    if (f >= kFirstZoned && f <= kLastZoned && name.size() > field.size() + 1 &&
        name.starts_with(field) && name[field.size()] == '_' &&
        IsZone(name.substr(field.size() + 1)))
      return f;
  }
  return kVmstatFields.size();
}

}  // namespace

void ParseVmstat(std::string_view text, VmstatValues& out, std::string_view source) {
  out = VmstatValues{};
  scan::Lines lines(text);
  for (std::string_view line; lines.Next(line);) {
    // Every recorded name starts 'p' or 'o': most lines end here.
    if (line.empty() || (line[0] != 'p' && line[0] != 'o')) continue;
    std::string_view rest = line;
    std::string_view name = scan::NextWord(rest);
    size_t f = FieldOf(name);
    if (f == kVmstatFields.size()) continue;
    uint64_t v = 0;
    if (scan::NextU64(rest, v) != scan::Num::kOk)
      scan::ThrowAt(source, lines.number(), "expected a number after " + std::string(name));
    out.values[f] += v;
    out.present[f] = true;
  }
}

}  // namespace pm
